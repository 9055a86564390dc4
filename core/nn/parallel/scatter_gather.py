"""``torch.nn.parallel.scatter_gather``: splitting a batch's structure across GPUs and gathering the replicas'
outputs back (what ``DataParallel`` does with its inputs and outputs).

core has no GPUs. Containers are split and rebuilt as torch's are (a list per target, non-tensor leaves repeated),
but a tensor leaf raises what a CPU-only PyTorch raises: scattering needs its CUDA communication library
(``torch._C._scatter``) and gathering refuses CPU tensors. Code such as Captum's imports ``scatter`` for its
multi-GPU path and never calls it on a CPU model.
"""

from __future__ import annotations

import warnings
from typing import Any

from core._tensor import Tensor

__all__ = ["scatter", "scatter_kwargs", "gather"]


def _is_namedtuple(obj: Any) -> bool:
    """Whether ``obj`` is an instance of a ``collections.namedtuple`` (or ``typing.NamedTuple``) class."""
    return isinstance(obj, tuple) and hasattr(obj, "_asdict") and hasattr(obj, "_fields")


def is_namedtuple(obj: Any) -> bool:
    """``_is_namedtuple``, deprecated in torch's public name."""
    warnings.warn("`is_namedtuple` is deprecated, please use the python checks instead", FutureWarning,
                  stacklevel=2)
    return _is_namedtuple(obj)


def _device_index(device) -> int:
    from core._device import device as device_cls

    if isinstance(device, int):
        return device
    if isinstance(device, (str, device_cls)) and device_cls(device).index is not None:
        return device_cls(device).index
    raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{device}")


def _scatter_tensor(target_gpus, tensor: Tensor):
    for d in target_gpus:
        _device_index(d)
    raise AttributeError("module 'torch._C' has no attribute '_scatter'")  # CPU-only: no CUDA communication


def scatter(inputs: Any, target_gpus, dim: int = 0):
    """One piece of ``inputs`` per target device: tensors are split along ``dim`` (there are no devices here, so a
    tensor raises as in a CPU-only PyTorch), containers are split element-wise, other objects repeated."""

    def split(obj):
        if isinstance(obj, Tensor):
            return _scatter_tensor(target_gpus, obj)
        if _is_namedtuple(obj):
            return [type(obj)(*fields) for fields in zip(*map(split, obj))]
        if isinstance(obj, tuple) and len(obj) > 0:
            return list(zip(*map(split, obj)))
        if isinstance(obj, list) and len(obj) > 0:
            return [list(part) for part in zip(*map(split, obj))]
        if isinstance(obj, dict) and len(obj) > 0:
            return [type(obj)(part) for part in zip(*map(split, obj.items()))]
        return [obj for _ in target_gpus]

    return split(inputs)


def scatter_kwargs(inputs: tuple, kwargs: dict | None, target_gpus, dim: int = 0):
    """``scatter`` of the positional and the keyword arguments, padded to the same number of pieces."""
    scattered_inputs = scatter(inputs, target_gpus, dim) if inputs else []
    scattered_kwargs = scatter(kwargs, target_gpus, dim) if kwargs else []
    if len(scattered_inputs) < len(scattered_kwargs):
        scattered_inputs.extend(() for _ in range(len(scattered_kwargs) - len(scattered_inputs)))
    elif len(scattered_kwargs) < len(inputs):
        scattered_kwargs.extend({} for _ in range(len(scattered_inputs) - len(scattered_kwargs)))
    return tuple(scattered_inputs), tuple(scattered_kwargs)


def gather(outputs: Any, target_device, dim: int = 0) -> Any:
    """The replicas' ``outputs`` merged into one structure (tensors concatenated on the target device: CPU
    tensors are refused, as torch's Gather refuses them)."""

    def merge(parts):
        first = parts[0]
        if isinstance(first, Tensor):
            raise AssertionError("Gather function not implemented for CPU tensors")
        if first is None:
            return None
        if isinstance(first, dict):
            if not all(len(first) == len(d) for d in parts):
                raise ValueError("All dicts must have the same number of keys")
            return type(first)((k, merge([d[k] for d in parts])) for k in first)
        if _is_namedtuple(first):
            return type(first)._make(map(merge, zip(*parts, strict=True)))
        return type(first)(map(merge, zip(*parts, strict=True)))

    return merge(outputs)
