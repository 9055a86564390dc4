"""PyTorch's legacy CUDA tensor types: ``core.cuda.FloatTensor``, ``core.cuda.LongTensor``, ...

Old tutorials pick one at import time (``Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor``), so the
names exist without a GPU, as in PyTorch's CPU build. ``isinstance(t, core.cuda.FloatTensor)`` holds for a float32
tensor on a CUDA device; ``t.type(core.cuda.FloatTensor)`` moves and casts. Calling one without a GPU raises
PyTorch's TypeError ("type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled."); with
one, it builds the tensor as the CPU type does and puts it on the GPU.
"""

from __future__ import annotations

from core import _backend, _dtype
from core._legacy_types import _TYPES, _LegacyTensorType
from core._tensor import Tensor

_CUDA_TYPES = {**_TYPES, "BFloat16Tensor": "bfloat16"}  # torch.cuda has it; core's CPU names do not

__all__ = [*_CUDA_TYPES]


class _CudaLegacyTensorType(_LegacyTensorType):
    """The metaclass of the CUDA names: instance checks by dtype on a CUDA device."""

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.is_cuda and obj.dtype is cls.dtype

    def __call__(cls, *args, device=None):
        if not _backend.cuda_available():
            raise TypeError(f"type {cls._legacy_type} not available. Torch not compiled with CUDA enabled.")
        if len(args) == 1 and isinstance(args[0], Tensor):
            if args[0].dtype is not cls.dtype or not args[0].is_cuda:
                raise TypeError(f"expected {cls._legacy_type} (got {args[0].type()})")
            return args[0]
        return _LegacyTensorType.__call__(cls, *args).to(device or "cuda")


def _make(name: str, dtype_name: str):
    return _CudaLegacyTensorType(name, (), {"dtype": getattr(_dtype, dtype_name), "is_cuda": True,
                                            "_legacy_type": f"torch.cuda.{name}", "__module__": "core.cuda",
                                            "__doc__": f"The legacy name of CUDA {dtype_name} tensors."})


for _name, _dt in _CUDA_TYPES.items():
    globals()[_name] = _make(_name, _dt)
del _name, _dt
