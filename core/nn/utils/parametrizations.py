"""``nn.utils.parametrizations``: ``weight_norm`` as a parametrization (``original0`` = g, ``original1`` = v).

``weight_norm(module)`` registers ``_WeightNorm(dim)`` on ``module.weight`` (``unsafe``, as PyTorch does), so
``module.weight`` is ``v * g / ||v||`` with the norm over every dimension but ``dim`` (all of them for
``dim=None``), ``g`` starting at the weight's norms and ``v`` at the weight itself; state-dict keys are PyTorch's
(``parametrizations.weight.original0``/``original1``).
"""

from __future__ import annotations

from core.nn.module import Module
from core.nn.utils import parametrize
from core.nn.utils.weight_norm import norm_except_dim, weight_norm_of

__all__ = ["weight_norm"]


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_norm_of(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    """``module.<name>`` as a magnitude ``original0`` times a direction ``original1``."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module
