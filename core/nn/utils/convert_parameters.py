"""``nn.utils.convert_parameters``: parameters flattened into one vector and a vector written back."""

from __future__ import annotations

import core
from core._tensor import Tensor

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def _check_devices(parameters) -> list:
    parameters = list(parameters)
    for p in parameters[1:]:
        if p.device != parameters[0].device:
            raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return parameters


def parameters_to_vector(parameters) -> Tensor:
    parameters = _check_devices(parameters)
    return core.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters) -> None:
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {core.typename(vec)}")
    pointer = 0
    for param in _check_devices(parameters):
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
