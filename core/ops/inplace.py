"""In-place writes: ``copy_``, ``zero_``, ``fill_``, the random in-place samplers and ``fill_diagonal_``.

Every op here checks what PyTorch checks before writing (leaf requiring grad, overlapping memory),
bumps the shared version counter, and records a node with ``mark_dirty`` when grad is needed, so
a write through a view rebases the base's history (``CopySlices``, see core/autograd/inplace.py).
The random samplers live in ``core.ops.random_samplers`` and are re-exported here.
"""

from __future__ import annotations

import numpy as np

from core import _backend, _dtype
from core._factories import tensor, zeros_like
from core._from_data import check_scalar_fits as _check_overflow
from core._tensor import Tensor
from core._warn_once import warn_once
from core.autograd.function import Function
from core.ops._util import broadcast_shapes, check_same_device, xp_of
from core.ops.conversion import to
from core.ops.elementwise import check_inplace, check_no_partial_overlap
from core.ops.random_samplers import (  # re-exported: the random samplers live there
    bernoulli,
    bernoulli_,
    cauchy_,
    exponential_,
    geometric_,
    log_normal_,
    multinomial,
    normal_,
    random_,
    uniform_,
)
from core.ops.reduction import sum as _sum
from core.ops.views import as_strided

__all__ = ["copy_", "zero_", "fill_", "uniform_", "normal_", "exponential_", "bernoulli_", "random_",
           "log_normal_", "geometric_", "cauchy_", "fill_diagonal_", "bernoulli", "multinomial"]

_TYPE = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
         "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}


class Copy(Function):
    node_name = "CopyBackwards"
    profile_name = "aten::copy_"

    @staticmethod
    def forward(ctx, self, src):
        ctx.src_meta = (src.dtype, src.device)
        arr = src._data
        if type(arr) is not type(self._data) or src.device is not self.device:
            arr = _backend.to_device_array(arr, self.device)
        if arr.dtype.kind == "c" and self._data.dtype.kind != "c":  # (as to(): bool is nonzero in either part, a
            if self._data.dtype.kind == "b":  # real dtype keeps the real part, with torch's one-time warning)
                arr = arr != 0
            else:
                warn_once("complex_to_real", "Casting complex values to real discards the imaginary part")
                arr = arr.real
        if arr.dtype.kind == "V" and self._data.dtype.kind in "iu":  # (bfloat16 -> int through float32, as to())
            arr = arr.astype("float32")
        arr = _dtype.through_float(arr, self._data.dtype)  # (a double becomes a half through a float, as to())
        xp_of(self._data).copyto(self._data, arr, casting="unsafe")
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        dt, dev = ctx.src_meta
        gself = zeros_like(g) if ctx.needs_input_grad[0] else None
        return gself, (to(g, dev, dt) if ctx.needs_input_grad[1] else None)


def copy_(self: Tensor, src: Tensor, non_blocking: bool = False) -> Tensor:
    """Write ``src`` (broadcast, converted to self's dtype and device) into ``self``."""
    if isinstance(src, complex) and not self.is_complex():  # a complex tensor, cast as one (real part kept)
        src = tensor(src, device=self.device)
    elif isinstance(src, (bool, int, float, complex)):  # a number fills the tensor, as PyTorch's copy_ does
        src = tensor(src, dtype=self.dtype, device=self.device)
    elif not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}")
    check_inplace(self)
    check_no_partial_overlap(self, src)
    shape = broadcast_shapes(self._data.shape, src._data.shape)
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
    return Copy.apply(self, src)


class Zero(Function):
    node_name = "ZeroBackward0"
    writes_self = True  # (the profiler's name: aten::zero_)

    @staticmethod
    def forward(ctx, self):
        self._data[...] = 0
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        return zeros_like(g)


def zero_(self: Tensor) -> Tensor:
    check_inplace(self, overlap=False)
    return Zero.apply(self)


def _fill_array(self: Tensor, value, checked: bool = True) -> None:
    """Store one Python number into all of ``self`` with PyTorch's casts (and its overflow error, not for the value
    of a 0-d tensor, which casts as ``to`` does: ``fill_(torch.tensor(300))`` wraps into uint8)."""
    dt = self.dtype
    if checked:
        _check_overflow(value, dt)
    with np.errstate(invalid="ignore", over="ignore"):
        v = np.asarray(value)
        if dt is _dtype.uint8 and v.dtype.kind in "iuf" and v < 0:  # torch wraps small negatives
            v = np.asarray(int(value) % 256)
        self._data.fill(_dtype.through_float(v, dt.np).astype(dt.np)[()])


class FillScalar(Function):
    node_name = "FillBackward2"
    writes_self = True

    @staticmethod
    def forward(ctx, self, *, value):
        _fill_array(self, value)
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        return zeros_like(g)


class FillTensor(Function):
    node_name = "FillBackward3"
    writes_self = True

    @staticmethod
    def forward(ctx, self, value):
        _fill_array(self, value._data.item(), checked=False)
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        return (zeros_like(g) if ctx.needs_input_grad[0] else None,
                _sum(g) if ctx.needs_input_grad[1] else None)


def fill_(self: Tensor, value) -> Tensor:
    """Set every element to ``value`` (a number or a 0-d tensor, whose gradient is the sum)."""
    check_inplace(self, overlap=False)
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions.")
        check_same_device(self, value)
        return FillTensor.apply(self, value)
    if hasattr(value, "item") and not isinstance(value, (int, float, bool)):
        value = value.item()
    return FillScalar.apply(self, value=value)


# ----- fill_diagonal_ ---------------------------------------------------------------------------

def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """Fill the main diagonal through an ``as_strided`` view (so autograd records CopySlices, as torch)."""
    nd = self._data.ndim
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = self._data.shape
    if nd > 2 and len(set(shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    check_inplace(self)
    size = min(shape)
    stride = sum(self.stride())
    fill_(as_strided(self, (size,), (stride,), self.storage_offset()), fill_value)
    height, width = shape[0], shape[1]
    if wrap and nd == 2 and height > width + 1:
        step = width + 1
        wrap_size = (self._data.size + step - 1) // step - size
        offset = self.storage_offset() + self.stride(0) * (width + 1)
        fill_(as_strided(self, (wrap_size,), (stride,), offset), fill_value)
    return self
