"""``Tensor.view(dtype)`` reads the same bytes as another dtype, as PyTorch does: no copy, no graph."""

import pytest

import core


def _view(lib, case):
    x = lib.arange(6.0).reshape(2, 3)
    return {
        "float32 as int32": lambda: x.view(lib.int32),
        "float32 as float16": lambda: x.view(lib.float16),
        "float32 as uint8": lambda: x.view(lib.uint8),
        "float32 as float64, odd last dim": lambda: x.view(lib.float64),
        "float32 as float64": lambda: lib.arange(4.0).reshape(2, 2).view(lib.float64),
        "transposed as int32": lambda: x.t().view(lib.int32),
        "transposed as uint8": lambda: x.t().view(lib.uint8),
        "0-d as uint8": lambda: lib.tensor(1.0).view(lib.uint8),
        "odd offset as float64": lambda: lib.arange(8.0)[1:5].view(lib.float64),
        "int64 as float64": lambda: lib.arange(3).view(lib.float64),
        "requires grad as int32": lambda: lib.ones(2, requires_grad=True).view(lib.int32),
        "uint8 as bool": lambda: lib.tensor([0, 1, 2], dtype=lib.uint8).view(lib.bool),
    }[case]


CASES = ["float32 as int32", "float32 as float16", "float32 as uint8", "float32 as float64, odd last dim",
         "float32 as float64", "transposed as int32", "transposed as uint8", "0-d as uint8", "odd offset as float64",
         "int64 as float64", "requires grad as int32", "uint8 as bool"]


def _outcome(lib, case):
    try:
        r = _view(lib, case)()
    except RuntimeError as exc:
        return "RuntimeError", str(exc)
    return r.tolist(), tuple(r.shape), str(r.dtype).split(".")[-1], r.stride(), r.storage_offset(), r.requires_grad


@pytest.mark.parametrize("case", CASES)
def test_view_dtype_gives_torchs_values_shapes_strides_or_error(torch, case):
    assert _outcome(core, case) == _outcome(torch, case)


def test_a_dtype_view_shares_storage_so_writes_show_through():
    x = core.arange(6.0).reshape(2, 3)
    y = x.view(core.int32)
    y[0, 0] = 1065353216  # the bits of 1.0 in float32
    assert x[0, 0].item() == 1.0
    assert y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    same = x.view(core.float32)
    assert same is not x and same.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32"])
def test_a_dtype_view_is_no_autograd_view_and_needs_no_grad_as_torch(torch, dtype):
    """PyTorch's view(dtype) shares the storage but reports no ``_base``, ``_is_view()`` False and no grad, even for
    the same dtype (a new tensor); core gave the tensor itself or a view of it that required grad."""
    def report(lib):
        x = lib.ones(4, requires_grad=True)
        v = x.view(getattr(lib, dtype))
        with lib.no_grad():
            w = x.view(getattr(lib, dtype))
        return v is x, v._is_view(), v._base is None, v.requires_grad, v.is_leaf, w._is_view(), w.requires_grad
    assert report(core) == report(torch)
