"""The private helpers of ``torch.optim.optimizer`` that third-party optimizers import when they copy PyTorch's
own optimizer code (``_use_grad_for_differentiable``, ``_get_value``, ``_default_to_fused_or_foreach``,
``_get_scalar_dtype``, the shared docstring pieces, the ``ParamsT`` alias), with PyTorch's behaviour on a CPU
build where nothing is being compiled.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, TypeAlias

from core._tensor import Tensor
from core.autograd import grad_mode

StateDict: TypeAlias = dict[str, Any]
ParamsT: TypeAlias = Iterable[Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, Tensor]]


def _use_grad_for_differentiable(func):
    """Run an optimizer's ``step`` with grad mode set to its ``defaults['differentiable']``, restored after."""

    @functools.wraps(func)
    def _use_grad(*args, **kwargs):
        previous = grad_mode.is_grad_enabled()
        try:
            grad_mode.set_grad_enabled(args[0].defaults["differentiable"])
            return func(*args, **kwargs)
        finally:
            grad_mode.set_grad_enabled(previous)

    return _use_grad


def _get_value(x):
    """A tensor's Python number (``item()``), anything else as it is."""
    return x.item() if isinstance(x, Tensor) else x


def _stack_if_compiling(x):
    """The list itself: core never compiles a step."""
    return x


def _disable_dynamo_if_unsupported(single_tensor_fn=None):
    """A decorator that leaves the function as it is (nothing is compiled here)."""

    def wrapper(func):
        return func

    return wrapper


def _get_fused_kernels_supported_devices() -> list[str]:
    return ["mps", "cuda", "xpu", "hpu", "cpu", "privateuseone"]


def _get_foreach_kernels_supported_devices() -> list[str]:
    return ["cuda", "xpu", "privateuseone"]


def _get_capturable_supported_devices(supports_xla: bool = True) -> list[str]:
    return ["cuda", "xpu", "hpu", "privateuseone", *(["xla"] if supports_xla else [])]


def _default_to_fused_or_foreach(params, differentiable: bool, use_fused: bool = False) -> tuple[bool, bool]:
    """(fused, foreach) as PyTorch picks them: never when differentiable; foreach only for tensors on devices with
    foreach kernels (so never on the CPU), fused only when asked, for floating-point tensors."""
    if differentiable:
        return False, False
    fused = use_fused and all(p is None or (isinstance(p, Tensor) and p.device.type in
                                            _get_fused_kernels_supported_devices() and p.is_floating_point())
                              for p in params)
    foreach = not fused and all(p is None or (isinstance(p, Tensor) and p.device.type in
                                              _get_foreach_kernels_supported_devices()) for p in params)
    return fused, foreach


def _view_as_real(params, *state_and_grads) -> None:
    """Complex parameters (and the matching state and gradient entries) replaced in the lists by real views."""
    from core import view_as_real

    for i, p in enumerate(params):
        if p.is_complex():
            params[i] = view_as_real(p)
            for entries in state_and_grads:
                entries[i] = view_as_real(entries[i])


def _get_scalar_dtype(is_fused=None):
    """The dtype of an optimizer's scalar state (``step``): float32 when fused, else float64 under a float64
    default dtype and float32 otherwise."""
    from core import float32, float64, get_default_dtype

    if is_fused:
        return float32
    return float64 if get_default_dtype() == float64 else float32


def _to_scalar(x):
    """A 1-element tensor of more than 0 dims squeezed to 0-d; anything else as it is."""
    return x.squeeze() if isinstance(x, Tensor) and x.dim() != 0 else x


_params_doc = r"""params (iterable): iterable of parameters or named_parameters to optimize
            or iterable of dicts defining parameter groups"""
_foreach_doc = r"""foreach (bool, optional): whether the foreach implementation of the optimizer
            is used (default: None)"""
_fused_doc = r"""fused (bool, optional): whether the fused implementation is used (default: None)"""
_capturable_doc = r"""capturable (bool, optional): whether this instance is safe to capture in a
            graph (default: False)"""
_differentiable_doc = r"""differentiable (bool, optional): whether autograd should occur through the
            optimizer step in training (default: False)"""
_maximize_doc = r"""maximize (bool, optional): maximize the objective with respect to the
            params, instead of minimizing (default: False)"""
