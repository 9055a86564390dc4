"""``nn.utils.parametrizations``: ``weight_norm``, ``spectral_norm`` and ``orthogonal``, as PyTorch's.

``weight_norm(module)`` registers ``_WeightNorm(dim)`` on ``module.weight`` (``unsafe``, as PyTorch does), so
``module.weight`` is ``v * g / ||v||`` with the norm over every dimension but ``dim`` (all of them for
``dim=None``), ``g`` starting at the weight's norms and ``v`` at the weight itself; state-dict keys are PyTorch's
(``parametrizations.weight.original0``/``original1``).

``spectral_norm(module)`` divides the weight by its largest singular value, estimated by power iteration on the
buffers ``_u`` and ``_v``: drawn from the normal distribution (u first, as PyTorch draws them, so a seed gives
PyTorch's numbers), refined 15 times at registration and ``n_power_iterations`` times per access in training.

``orthogonal(module)`` keeps the weight orthogonal (orthonormal columns or rows) through ``matrix_exp``,
``cayley`` or ``householder`` maps (PyTorch's default: the matrix exponential for square weights, Householder
reflections otherwise). With ``use_trivialization`` (the default) the registered weight is orthogonalised once into
the buffer ``base`` and the parameter starts at the map's preimage of the identity, as PyTorch does.
"""

import core
from core.nn import functional as F
from core.nn.module import Module
from core.nn.utils import parametrize
from core.nn.utils.weight_norm import norm_except_dim as _norm_except_dim
from core.nn.utils.weight_norm import weight_norm_of as _weight_norm_of
from core.ops.linalg_householder import geqrf as _geqrf
from core.ops.linalg_householder import householder_product as _householder_product

__all__ = ["weight_norm", "spectral_norm", "orthogonal"]


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return _weight_norm_of(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return _norm_except_dim(weight, 2, self.dim), weight


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


_MAPS = ("matrix_exp", "cayley", "householder")


def _is_orthogonal(q) -> bool:
    n, k = q.size(-2), q.size(-1)
    eye = core.eye(k, dtype=q.dtype, device=q.device)
    return core.allclose(q.mH @ q, eye, atol=10.0 * n * core.finfo(q.dtype).eps)


def _make_orthogonal(a):
    """The Q of ``a``'s QR with R's diagonal made positive: the orthogonal matrix nearest in QR's sense."""
    x, tau = _geqrf(a)
    return _householder_product(x, tau) * x.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


class _Orthogonal(Module):
    def __init__(self, weight, orthogonal_map: str, *, use_trivialization: bool = True):
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, x):
        n, k = x.size(-2), x.size(-1)
        transposed = n < k
        if transposed:
            x, n, k = x.mT, k, n
        if self.orthogonal_map in ("matrix_exp", "cayley"):
            x = x.tril()
            if n != k:
                x = core.cat([x, x.new_zeros(n, n - k).expand(*x.shape[:-2], -1, -1)], dim=-1)
            a = x - x.mH
            if self.orthogonal_map == "matrix_exp":
                q = core.matrix_exp(a)
            else:
                eye = core.eye(n, dtype=a.dtype, device=a.device)
                q = core.linalg.solve(core.add(eye, a, alpha=-0.5), core.add(eye, a, alpha=0.5))
            if n != k:
                q = q[..., :k]
        else:
            a = x.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (a * a).sum(dim=-2))
            q = _householder_product(a, tau) * x.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            q = self.base @ q
        return q.mT if transposed else q

    def right_inverse(self, q):
        with core.no_grad():
            return self._right_inverse(q)

    def _right_inverse(self, q):
        if q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of shape "
                             f"{q.shape}.")
        q_init = q
        n, k = q.size(-2), q.size(-1)
        transpose = n < k
        if transpose:
            q, n, k = q.mT, k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in ("matrix_exp", "cayley"):
                raise NotImplementedError("It is not possible to assign to the matrix exponential or the Cayley "
                                          "parametrizations when use_trivialization=False.")
            a, tau = _geqrf(q)
            diag = a.diagonal(dim1=-2, dim2=-1)
            diag.copy_(core.where(tau == 0.0, -diag.sign(), diag.sign()))
            return a.mT if transpose else a
        if n == k:
            q = _make_orthogonal(q) if not _is_orthogonal(q) else q.clone()
        else:
            noise = core.randn(*(q.size()[:-2] + (n, n - k)), dtype=q.dtype, device=q.device)
            q = _make_orthogonal(core.cat([q, noise], dim=-1))
        self.base = q
        neg_id = core.zeros_like(q_init)
        neg_id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_id


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Keep ``module.<name>`` orthogonal (or orthonormal by rows or columns when it is not square)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, core.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) else "householder"
    if orthogonal_map not in _MAPS:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
