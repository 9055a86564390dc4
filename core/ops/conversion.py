"""``Tensor.to``: dtype and device conversion (differentiable, a no-op when nothing changes)."""

from __future__ import annotations

from core import _backend, _dtype
from core._device import canonical
from core._device import device as _device_cls
from core._tensor import Tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function

__all__ = ["to"]


class ToCopy(Function):
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, *, dt, dev):
        ctx.src = (a.dtype, a.device)
        arr = a._data
        if dev is not a.device:
            arr = _backend.to_device_array(arr, dev)
            if arr is a._data:
                arr = arr.copy()
            return arr.astype(dt.np, copy=False)
        return arr.astype(dt.np, copy=True)

    @staticmethod
    def backward(ctx, g):
        dt, dev = ctx.src
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
    dt, dev, copy = _parse(args, dict(kwargs))
    dt = input.dtype if dt is None else _dtype.to_dtype(dt)
    dev = input.device if dev is None else canonical(dev)
    if dev.type == "cuda":
        _backend.xp_for(dev)
    if dt is input.dtype and dev is input.device and not copy:
        return input
    return ToCopy.apply(input, dt=dt, dev=dev)
