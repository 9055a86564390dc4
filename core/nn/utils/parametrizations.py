"""``nn.utils.parametrizations``: ``weight_norm`` and ``spectral_norm`` as parametrizations, as PyTorch's.

``weight_norm(module)`` registers ``_WeightNorm(dim)`` on ``module.weight`` (``unsafe``, as PyTorch does), so
``module.weight`` is ``v * g / ||v||`` with the norm over every dimension but ``dim`` (all of them for
``dim=None``), ``g`` starting at the weight's norms and ``v`` at the weight itself; state-dict keys are PyTorch's
(``parametrizations.weight.original0``/``original1``).

``spectral_norm(module)`` divides the weight by its largest singular value, estimated by power iteration on the
buffers ``_u`` and ``_v``: drawn from the normal distribution (u first, as PyTorch draws them, so a seed gives
PyTorch's numbers), refined 15 times at registration and ``n_power_iterations`` times per access in training.
"""

from __future__ import annotations

import core
from core.nn import functional as F
from core.nn.module import Module
from core.nn.utils import parametrize
from core.nn.utils.weight_norm import norm_except_dim, weight_norm_of

__all__ = ["weight_norm", "spectral_norm"]


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


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations: int) -> None:
        with core.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(core.mv(weight_mat, self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(core.mv(weight_mat.H, self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = core.vdot(u, core.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:
    """``module.<name>`` divided by its spectral norm (``dim`` 1 for transposed convolutions, else 0)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, core.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = (core.nn.ConvTranspose1d, core.nn.ConvTranspose2d, core.nn.ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
