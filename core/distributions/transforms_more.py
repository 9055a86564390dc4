"""More of ``torch.distributions.transforms``: ``CorrCholeskyTransform`` (unconstrained vector to the Cholesky
factor of a correlation matrix, by tanh and stick-breaking), ``LowerCholeskyTransform``,
``PositiveDefiniteTransform``, ``CumulativeDistributionTransform`` (a distribution's CDF as a transform) and the
slice-wise ``CatTransform``/``StackTransform``, with PyTorch's formulas and log-det-Jacobians."""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.transforms import Transform
from core.distributions.utils import _sum_rightmost, lazy_property

__all__ = ["CorrCholeskyTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
           "CumulativeDistributionTransform", "CatTransform", "StackTransform"]


def _tril_mask(n: int, diag: int, device):
    arange = core.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag: int = 0):
    """The entries of ``mat`` on and below diagonal ``diag``, row by row, as the last dim."""
    return mat[..., _tril_mask(mat.shape[-1], diag, mat.device)]


def vec_to_tril_matrix(vec, diag: int = 0):
    """The inverse of ``tril_matrix_to_vec``: the square matrix with ``vec`` on and below diagonal ``diag``."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > core.finfo(vec.dtype).eps:
        raise ValueError(f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as the lower "
                         "triangular part of a square D x D matrix.")
    n = round(n)
    rows, cols = _tril_mask(n, diag, vec.device).nonzero().unbind(-1)
    flat = vec.new_zeros(tuple(vec.shape[:-1]) + (n * n,))
    index = (rows * n + cols).expand(*vec.shape[:-1], -1)
    return flat.scatter(-1, index, vec).reshape(*vec.shape[:-1], n, n)


def _clipped_sigmoid(x):
    finfo = core.finfo(x.dtype)
    return core.clamp(core.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class CorrCholeskyTransform(Transform):
    """A vector of D(D-1)/2 reals to the lower Cholesky factor of a D x D correlation matrix."""

    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        eps = core.finfo(x.dtype).eps
        x = core.tanh(x).clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        z1m_cumprod_sqrt = (1 - r ** 2).sqrt().cumprod(-1)
        r = r + core.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * core.nn.functional.pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        y_cumsum = 1 - core.cumsum(y * y, dim=-1)
        y_cumsum_shifted = core.nn.functional.pad(y_cumsum[..., :-1], [1, 0], value=1)
        t = tril_matrix_to_vec(y, diag=-1) / tril_matrix_to_vec(y_cumsum_shifted, diag=-1).sqrt()
        return (t.log1p() - t.neg().log1p()) / 2

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        stick_breaking_logdet = 0.5 * tril_matrix_to_vec(y1m_cumsum, diag=-2).log().sum(-1)
        tanh_logdet = -2 * (x + core.nn.functional.softplus(-2 * x) - math.log(2.0)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError("Too few dimensions on input")
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError("Input is not a flattened lower-diagonal number")
        return tuple(shape[:-1]) + (d, d)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError("Too few dimensions on input")
        if shape[-2] != shape[-1]:
            raise ValueError("Input is not square")
        d = shape[-1]
        return tuple(shape[:-2]) + (d * (d - 1) // 2,)


class LowerCholeskyTransform(Transform):
    """Any square matrix to a lower-triangular one with a positive diagonal (the diagonal exponentiated)."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def __eq__(self, other):
        return isinstance(other, LowerCholeskyTransform)

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class PositiveDefiniteTransform(Transform):
    """Any square matrix to a positive definite one, ``L L^T`` with ``L`` from ``LowerCholeskyTransform``."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def __eq__(self, other):
        return isinstance(other, PositiveDefiniteTransform)

    def _call(self, x):
        lower = LowerCholeskyTransform()(x)
        return lower @ lower.mT

    def _inverse(self, y):
        return LowerCholeskyTransform().inv(core.linalg.cholesky(y))


class CumulativeDistributionTransform(Transform):
    """``distribution.cdf`` as a transform onto (0, 1); its log-det-Jacobian is the log-density."""

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)


def _check_dim(t, dim: int, size: int, what: str, name: str) -> None:
    if not -t.dim() <= dim < t.dim():
        raise AssertionError(f"dim {dim} out of range for tensor with {t.dim()} dimensions")
    if t.size(dim) != size:
        raise AssertionError(f"{name}.size({dim}) = {t.size(dim)} must equal {what} {size}")


class CatTransform(Transform):
    """Each transform of ``tseq`` on its slice (``lengths`` long) of dim ``dim``, the results concatenated."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.lengths = list(lengths) if lengths is not None else [1] * len(self.transforms)
        if len(self.lengths) != len(self.transforms):
            raise AssertionError(f"lengths ({len(self.lengths)}) must match transforms ({len(self.transforms)})")
        self.dim = dim

    @lazy_property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self):
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _map(self, t, name, fn):
        _check_dim(t, self.dim, self.length, "length", name)
        pieces, start = [], 0
        for trans, length in zip(self.transforms, self.lengths):
            pieces.append(fn(trans, t.narrow(self.dim, start, length)))
            start += length
        return core.cat(pieces, dim=self.dim)

    def _call(self, x):
        return self._map(x, "x", lambda trans, part: trans(part))

    def _inverse(self, y):
        return self._map(y, "y", lambda trans, part: trans.inv(part))

    def log_abs_det_jacobian(self, x, y):
        _check_dim(x, self.dim, self.length, "length", "x")
        _check_dim(y, self.dim, self.length, "length", "y")
        logdetjacs, start = [], 0
        for trans, length in zip(self.transforms, self.lengths):
            logdetjac = trans.log_abs_det_jacobian(x.narrow(self.dim, start, length), y.narrow(self.dim, start, length))
            if trans.event_dim < self.event_dim:
                logdetjac = _sum_rightmost(logdetjac, self.event_dim - trans.event_dim)
            logdetjacs.append(logdetjac)
            start += length
        dim = (self.dim - x.dim() if self.dim >= 0 else self.dim) + self.event_dim
        return core.cat(logdetjacs, dim=dim) if dim < 0 else sum(logdetjacs)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(Transform):
    """Each transform of ``tseq`` on its index of dim ``dim``, the results stacked."""

    def __init__(self, tseq, dim=0, cache_size=0):
        if not all(isinstance(t, Transform) for t in tseq):
            raise AssertionError("All elements of tseq must be Transform instances")
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _slices(self, t, name):
        _check_dim(t, self.dim, len(self.transforms), "len(transforms)", name)
        return [t.select(self.dim, i) for i in range(t.size(self.dim))]

    def _call(self, x):
        return core.stack([trans(part) for part, trans in zip(self._slices(x, "x"), self.transforms)], dim=self.dim)

    def _inverse(self, y):
        return core.stack([trans.inv(part) for part, trans in zip(self._slices(y, "y"), self.transforms)],
                          dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        pairs = zip(self._slices(x, "x"), self._slices(y, "y"), self.transforms)
        return core.stack([trans.log_abs_det_jacobian(a, b) for a, b, trans in pairs], dim=self.dim)

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)
