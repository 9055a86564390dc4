"""The chapter's tensor-layer snippets, run with ``import core as torch``; they print what the comments say.

The conv2d shape lines belong to the nn work and are tested there.
"""

import contextlib
import io

import pytest

import core as torch


def _printed(fn) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    return out.getvalue().strip()


@pytest.mark.cpu_only
def test_shape_dtype_device_line_prints_as_the_comment_says():
    def snippet():
        x = torch.randn(32, 3, 224, 224)      # NCHW image batch, float32, CPU
        w = torch.randn(64, 3, 7, 7)          # conv weight: out_ch, in_ch, kH, kW
        assert w.shape == (64, 3, 7, 7)
        print(x.shape, x.dtype, x.device)

    assert _printed(snippet) == "torch.Size([32, 3, 224, 224]) torch.float32 cpu"


def test_column_plus_vector_broadcasts_to_a_square():
    a, b = torch.ones(32, 1), torch.ones(32)
    assert (a + b).shape == (32, 32)
    assert torch.broadcast_shapes(a.shape, b.shape) == (32, 32)
    assert repr(torch.broadcast_shapes(a.shape, b.shape)) == "torch.Size([32, 32])"


def test_broadcast_shapes_refuses_incompatible_shapes():
    with pytest.raises(RuntimeError):
        torch.broadcast_shapes((32, 2), (3,))


def test_views_snippet_view_refuses_and_reshape_or_contiguous_work():
    a = torch.arange(12).reshape(3, 4)
    b = a.t()                 # shape (4, 3), non-contiguous
    assert b.shape == (4, 3) and not b.is_contiguous()
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        b.view(12)
    c = b.reshape(12)         # OK: copies into contiguous memory
    d = b.contiguous().view(12)  # explicit copy, then view
    assert c.tolist() == d.tolist() == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
    assert c.data_ptr() != a.data_ptr() and b.data_ptr() == a.data_ptr()


def test_views_share_storage_so_writes_show_in_the_original():
    a = torch.arange(12).reshape(3, 4)
    b = a.t()
    b[0, 1] = 100
    assert a[1, 0].item() == 100


@pytest.mark.cpu_only
def test_the_chapters_gradient_comments_print_exactly():
    x = torch.tensor([2.0, 3.0], requires_grad=True)
    w = torch.tensor([1.5, -0.5], requires_grad=True)
    b = torch.tensor(0.1, requires_grad=True)
    z = (x * w).sum() + b
    z.backward()
    assert _printed(lambda: print(x.grad)) == "tensor([ 1.5000, -0.5000])"
    assert _printed(lambda: print(w.grad)) == "tensor([2., 3.])"
    assert _printed(lambda: print(b.grad)) == "tensor(1.)"
    assert _printed(lambda: print(0, float(z))).startswith("0 1.6")
