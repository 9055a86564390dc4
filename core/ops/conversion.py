"""``Tensor.to``: dtype and device conversion (differentiable, a no-op when nothing changes)."""

from __future__ import annotations

from core import _backend, _dtype
from core._device import canonical
from core._device import device as _device_cls
from core._memory_format import copy_in, copy_preserving, format_strides, preserved_strides, suggest_format
from core._meta import meta_array
from core._tensor import Tensor
from core._warn_once import warn_once
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.ops._strided import contiguous_strides

__all__ = ["to"]


class ToCopy(Function):
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, *, dt, dev, memory_format=None):
        ctx.src = (a.dtype, a.device)
        arr = a._data
        if arr.dtype.kind == "c" and dt is _dtype.bool:  # (nonzero in either part, as torch's cast: no warning)
            arr = arr != 0
        elif arr.dtype.kind == "c" and dt.is_complex is False:
            # NOTE: PyTorch's TORCH_WARN_ONCE: the first such cast in a process warns (every one under set_warn_always)
            warn_once("complex_to_real", "Casting complex values to real discards the imaginary part")
            arr = arr.real
        arr = _dtype.through_float(arr, dt.np)
        if arr.dtype.kind == "V" and dt.category == 1:  # NOTE: ml_dtypes' bfloat16 -> int saturates or zeroes;
            arr = copy_preserving(arr, "float32")  # PyTorch converts through float, so -1 wraps to 255 as float32
        if dev.type == "meta":  # NOTE: torch's _to_copy lays the copy out as empty_like(preserve_format) would
            strides = preserved_strides(a.shape, a.stride()) if memory_format is None else \
                format_strides(a.shape, memory_format)
            return meta_array(arr.shape, dt.np, strides)
        if dev is not a.device:
            arr = _backend.to_device_array(arr, dev)
            if arr is a._data:
                arr = arr.copy()
            if memory_format is not None:
                return copy_in(arr, memory_format, dt.np)
            return arr.astype(dt.np, copy=False)
        if memory_format is not None:
            return copy_in(arr, memory_format, dt.np)
        if a.is_contiguous() and a.stride() != contiguous_strides(a.shape):  # size-1 dims' strides kept
            return copy_preserving(arr, dt.np)
        if not arr.flags.c_contiguous:  # NOTE: NumPy's astype puts a broadcast (stride-0) dim innermost; PyTorch's
            return copy_preserving(arr, dt.np)  # empty_like(preserve_format) infers dense strides in dim order
        return arr.astype(dt.np, copy=True)

    @staticmethod
    def backward(ctx, g):
        dt, dev = ctx.src
        if g._data.dtype.kind == "c" and not dt.is_complex:  # a real source's gradient is the real part
            g = g.real
        return to(g, dev, dt)

    jvp = linear_jvp


def _parse(args, kwargs):
    dt = kwargs.pop("dtype", None)
    dev = kwargs.pop("device", None)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got {sorted(kwargs)}")
    for a in args:
        if isinstance(a, Tensor):
            dt, dev = a.dtype, a.device
        elif isinstance(a, (str, _device_cls)) and not (isinstance(a, str) and a.startswith("torch.")):
            dev = a
        elif isinstance(a, int) and not isinstance(a, bool):
            dev = _device_cls("cuda", a)
        elif isinstance(a, bool):
            copy = a if dt is not None or dev is not None else copy
        elif a is not None:
            dt = a
    return dt, dev, copy


def to(input: Tensor, *args, **kwargs) -> Tensor:
    if len(args) > 4:  # (torch's longest form: to(device, dtype, non_blocking, copy))
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were given")
    dt, dev, copy = _parse(args, dict(kwargs))
    dt = input.dtype if dt is None else _dtype.to_dtype(dt)
    dev = input.device if dev is None else canonical(dev)
    if dev.type == "cuda":
        _backend.xp_for(dev)
    requested = kwargs.get("memory_format")
    fmt = _target_format(input, requested)
    if dt is input.dtype and dev is input.device and not copy and fmt is None:
        return input
    if fmt is None and requested is not None and requested.name != "preserve_format":
        fmt = requested  # a copy is made (another dtype or device, copy=True): laid out as asked, as torch's
    return ToCopy.apply(input, dt=dt, dev=dev, memory_format=fmt)


def _target_format(input: Tensor, fmt):
    """The layout ``to`` must produce, None to keep the input's (PyTorch's ``to`` aliases when the format it is
    asked for is the one it reads from the strides, even for a non-contiguous input and ``contiguous_format``)."""
    if fmt is None or fmt.name == "preserve_format":
        return None
    if fmt.name.startswith("channels_last"):
        format_strides(input.shape, fmt)  # the rank check
    return None if suggest_format(input.shape, input.stride()) is fmt else fmt
