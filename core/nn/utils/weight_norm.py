"""``nn.utils.weight_norm`` and ``remove_weight_norm``: PyTorch's older, hook-based weight normalisation.

``weight_norm(module)`` replaces the parameter ``weight`` by ``weight_g`` (its norms over every dimension but
``dim``) and ``weight_v`` (the weight), and a forward pre-hook recomputes ``module.weight = v * g / ||v||``
before each call. Like PyTorch's it warns that ``nn.utils.parametrizations.weight_norm`` replaces it.
``norm_except_dim`` and ``weight_norm_of`` are the two formulas both versions use.
"""

from __future__ import annotations

from core._user_warning import warn_in_core
from core.nn.module import Module
from core.nn.parameter import Parameter
from core.nn.utils._weight_norm_fused import fused_applies, weight_norm_fused

__all__ = ["weight_norm", "remove_weight_norm", "WeightNorm", "norm_except_dim", "weight_norm_of"]


def norm_except_dim(v, pow: float = 2, dim: int = 0):
    """The ``pow``-norms of ``v`` over every dimension but ``dim``, shaped to broadcast against ``v``."""
    if dim == -1:
        return v.norm(pow)
    if dim == 0:
        return v.contiguous().view(v.size(0), -1).norm(pow, 1).view([v.size(0)] + [1] * (v.dim() - 1))
    if dim == v.dim() - 1:
        return v.contiguous().view(-1, v.size(-1)).norm(pow, 0).view([1] * (v.dim() - 1) + [v.size(-1)])
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def weight_norm_of(v, g, dim: int = 0):
    """``v * (g / ||v||)``, the norm taken over every dimension but ``dim``: PyTorch's ``_weight_norm``, one fused
    node (``WeightNormInterfaceBackward0``) over the first or the last dim, else the composite."""
    if fused_applies(v, g, dim):
        return weight_norm_fused(v.contiguous(), g.contiguous(), dim)
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook that recomputes ``module.<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module):
        return weight_norm_of(getattr(module, self.name + "_v"), getattr(module, self.name + "_g"), self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> WeightNorm:
        warn_in_core("`torch.nn.utils.weight_norm` is deprecated in favor of "
                     "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """Split ``module.<name>`` into ``<name>_g`` and ``<name>_v``, recombined before every forward."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: Module, name: str = "weight") -> Module:
    """Put back one plain parameter ``<name>`` with the current normalised value."""
    return remove_hooked(module, name, WeightNorm, "weight_norm")


def remove_hooked(module: Module, name: str, kind: type, what: str) -> Module:
    """Remove the ``kind`` forward pre-hook that recomputes ``module.<name>`` (it puts back a plain parameter);
    PyTorch's ValueError when there is none. Shared by ``remove_weight_norm`` and ``remove_spectral_norm``."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, kind) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"{what} of '{name}' not found in {module}")
