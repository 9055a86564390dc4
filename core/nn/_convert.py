"""How ``Module._apply`` (``to``, ``double``, ``cpu``...) puts a converted parameter back, as PyTorch does.

By default the parameter keeps its object and gets the new tensor as ``.data``. Under
``core.__future__.set_swap_module_params_on_conversion(True)`` a new ``Parameter`` is swapped into the old
object (``core.utils.swap_tensors``: same object, new class/data/autograd state, its gradient converted and
swapped too). Under ``set_overwrite_module_params_on_conversion(True)`` the module gets a new ``Parameter``.
"""

from __future__ import annotations

import core.__future__ as _future
from core.nn.parameter import Parameter
from core.utils.swap import swap_tensors

__all__ = ["put_converted"]


def put_converted(module, key: str, param, fn) -> None:
    """Convert ``module._parameters[key]`` (``param``) and its gradient with ``fn``, the chosen way."""
    new = fn(param)
    grad = param._grad
    if _future.get_swap_module_params_on_conversion():
        param.grad = None
        swap_tensors(param, Parameter(new, requires_grad=param.requires_grad))
        if grad is not None:
            new_grad = fn(grad)
            swap_tensors(grad, new_grad.requires_grad_(grad.requires_grad))
            param.grad = grad
        return
    overwrite = _future.get_overwrite_module_params_on_conversion()
    if overwrite:
        module._parameters[key] = Parameter(new, param.requires_grad)
    elif new is not param:  # NOTE: PyTorch sets .data, so optimizers keep their parameter objects
        param.data = new
    if grad is not None:
        new_grad = fn(grad)
        if overwrite:
            module._parameters[key].grad = new_grad.requires_grad_(grad.requires_grad)
        elif new_grad is not grad:
            grad.data = new_grad
