"""``Tensor``'s conversions to another device or dtype: ``cpu``, ``cuda``, the casts (``float``...), ``type_as``
and ``new_tensor`` (``to`` itself is ``core.ops.conversion.to``, from the op table).

Split out of ``core/_tensor.py``, whose class body binds each of these by name (``core._tensor_method`` names them
``Tensor.<name>``). The casts are made here, ``CASTS`` by name: bound at module level, ``float``, ``int`` and ``bool``
would hide the builtins this module uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import _backend, _dtype, _memory_format, _tensor
from core._device import canonical
from core._tensor_method import method

if TYPE_CHECKING:
    from core._tensor import Tensor


__all__ = ["CASTS"]


@method
def cpu(self) -> Tensor:
    return self.to("cpu")


@method
def cuda(self, device=None, non_blocking: bool = False) -> Tensor:
    if isinstance(device, bool):
        raise TypeError("cuda(): argument 'device' (position 1) must be torch.device, not bool")
    if isinstance(device, int) and not _backend.cuda_available():
        # NOTE: PyTorch checks an index before CUDA itself: x.cuda(1) without a GPU is a RuntimeError
        raise RuntimeError("Device index must not be negative" if device < 0
                           else "Cannot access accelerator device when none is available.")
    return self.to(canonical("cuda" if device is None else device))


def _cast_method(name, dtype_name):
    """``x.float()``...: ``to(dtype)`` with a keyword-only ``memory_format``, as PyTorch's methods take it."""
    def method(self, *args, memory_format=_memory_format.preserve_format):
        if args:
            raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} was given")
        if not isinstance(memory_format, _memory_format.memory_format):
            raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, "
                            f"not {type(memory_format).__name__}")
        return self.to(getattr(_dtype, dtype_name), memory_format=memory_format)
    method.__name__, method.__qualname__, method.__module__ = name, "Tensor." + name, "core._tensor"
    return method


CASTS = {name: _cast_method(name, dtype_name) for name, dtype_name in (
    ("float", "float32"), ("double", "float64"), ("half", "float16"), ("bfloat16", "bfloat16"), ("long", "int64"),
    ("int", "int32"), ("short", "int16"), ("char", "int8"), ("byte", "uint8"), ("bool", "bool"),
    ("cfloat", "complex64"), ("cdouble", "complex128"),
    ("chalf", "complex32"))}  # NOTE: chalf raises TypeError: NumPy has no complex32


@method
def type_as(self, other: Tensor) -> Tensor:
    if not isinstance(other, _tensor.Tensor):  # (an ndarray has a dtype too: torch refuses it)
        from core._arg_types import tp_name

        raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not {tp_name(other)}")
    return self.to(other.dtype)


@method
def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    from core._factories import copy_construct, tensor  # factories import Tensor
    from core._factory_args import dtype_arg
    dtype = dtype_arg(dtype, "new_tensor")
    if isinstance(data, _tensor.Tensor):  # (torch's warning names new_tensor here, not torch.tensor)
        return copy_construct(data, dtype or self.dtype, device or self.device,
                              requires_grad, "tensor.new_tensor(sourceTensor)")
    return tensor(data, dtype=dtype or self.dtype, device=device or self.device,
                  requires_grad=requires_grad)
