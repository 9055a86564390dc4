"""Views share storage with PyTorch's strides; dtypes promote as torch.result_type."""

import pytest

import core as torch


def test_transpose_is_a_non_contiguous_view_that_view_refuses():
    a = torch.arange(12).reshape(3, 4)
    b = a.t()
    assert b.shape == (4, 3) and b.stride() == (1, 4) and not b.is_contiguous()
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        b.view(12)
    c = b.reshape(12)
    assert c.is_contiguous() and c.tolist() == [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]


def test_view_shares_storage_and_base_is_the_root():
    a = torch.zeros(2, 3)
    v = a.view(6)
    assert v._base is a and v.data_ptr() == a.data_ptr()


def test_unsqueeze_strides_follow_pytorch():
    assert torch.ones(2, 3).unsqueeze(1).stride() == (3, 3, 1)


def test_repr_of_size_dtype_device():
    assert repr(torch.Size([32, 3])) == "torch.Size([32, 3])"
    assert repr(torch.float32) == "torch.float32"
    assert str(torch.device("cpu")) == "cpu"


@pytest.mark.parametrize(("a", "b", "expected"), [
    (torch.int64, torch.float32, torch.float32),
    (torch.uint8, torch.int8, torch.int16),
    (torch.bool, torch.int32, torch.int32),
])
def test_promote_types(a, b, expected):
    assert torch.promote_types(a, b) is expected


def test_python_scalar_does_not_widen_a_tensor():
    t = torch.ones(2, dtype=torch.float16)
    assert (t + 1.5).dtype is torch.float16
    assert (torch.ones(2, dtype=torch.int32) + 2.5).dtype is torch.float32


def test_int_division_is_true_division():
    assert (torch.tensor([1, 2]) / 2).dtype is torch.float32


def test_shape_mismatch_names_both_sizes():
    with pytest.raises(RuntimeError, match=r"size of tensor a \(3\) must match the size of tensor b \(4\)"):
        torch.ones(3) + torch.ones(4)


def test_broadcast_of_column_and_row_gives_a_square():
    out = torch.ones(32, 1) + torch.ones(32)
    assert out.shape == (32, 32)
