"""``out=`` for the deterministic factories (``zeros``, ``ones``, ``empty``, ``full``, ``arange``, ``linspace``,
``logspace``, ``eye``), as PyTorch has it: the result is written into ``out`` (resized to the result's shape) and
``out`` itself is returned; without ``dtype=`` the values are made in ``out``'s dtype.

Old textbooks write ``b = t.LongTensor(); t.arange(0, 20000000, out=b)``. The random factories do the same in
``core._random_factories``.
"""

from __future__ import annotations

from core import _backend, _dtype
from core._tensor import Tensor
from core.autograd._transform_guard import set_requires_grad

__all__ = ["out_dtype", "into_out"]


def out_dtype(fn: str, out, dtype):
    """The dtype to make the values in: ``dtype`` (which must be ``out``'s), else ``out``'s; PyTorch's checks."""
    if out is None:
        return dtype
    if not isinstance(out, Tensor):
        raise TypeError(f"{fn}(): argument 'out' must be Tensor, not {type(out).__name__}")
    dt = _dtype.to_dtype(dtype) if dtype is not None else None
    if dt is not None and dt is not out.dtype:
        names = _dtype.SCALAR_NAMES
        raise RuntimeError(f"dtype {names[dt.name]} does not match dtype of out parameter ({names[out.dtype.name]})")
    if out.requires_grad:
        raise RuntimeError(f"aten::{fn}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    return out.dtype


def into_out(arr, out: Tensor, requires_grad: bool = False, shape=None, warn_resize: bool = False) -> Tensor:
    """``arr`` (the values, in ``out``'s dtype) written into ``out``, resized first when its shape differs (with
    PyTorch's deprecation warning where ``warn_resize``: ``arange``'s kernel warns, the others resize silently);
    ``arr`` None (``empty``): only resized to ``shape``. ``requires_grad=True`` makes ``out`` require grad."""
    shape = tuple(arr.shape) if arr is not None else tuple(shape)
    if tuple(out.shape) != shape:
        if warn_resize and out.numel():
            from core.ops.out_arg import resize_warning  # (core.ops imports the factories)

            resize_warning(out, shape)
        out.resize_(shape)
    if arr is not None:
        dev = out.device
        out._data[...] = _backend.to_numpy_array(arr) if dev.type == "cpu" else _backend.to_device_array(arr, dev)
        out._bump_version()
    if requires_grad:
        set_requires_grad(out)
    return out
