"""``LowRankMultivariateNormal(loc, cov_factor, cov_diag)``: a Gaussian whose covariance is W W^T + diag(D).

W (``cov_factor``) is n x m with m small, so scoring never forms the n x n covariance: the
log-determinant and the Mahalanobis term go through the m x m "capacitance" matrix
C = I + W^T D^-1 W (the matrix determinant lemma and the Woodbury identity). A draw is
``loc + W eps_m + sqrt(D) eps_n``, drawn in that order as PyTorch does.
"""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.multivariate_normal import _batch_mahalanobis, _batch_mv
from core.distributions.utils import _standard_normal, lazy_property

__all__ = ["LowRankMultivariateNormal"]


def _with_identity(k):
    """``k + I`` on the last two dims."""
    return k + core.eye(k.shape[-1], dtype=k.dtype, device=k.device)


def _capacitance_tril(W, D):
    """The Cholesky factor of C = I + W^T D^-1 W."""
    Wt_Dinv = W.mT / D.unsqueeze(-2)
    return core.linalg.cholesky(_with_identity(core.matmul(Wt_Dinv, W)))


def _lowrank_logdet(W, D, capacitance_tril):
    """log det(W W^T + D) = log det(C) + log det(D)."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + D.log().sum(-1)


def _lowrank_mahalanobis(W, D, x, capacitance_tril):
    """x^T (W W^T + D)^-1 x = x^T D^-1 x - |C^-1/2 W^T D^-1 x|^2 (Woodbury)."""
    Wt_Dinv_x = _batch_mv(W.mT / D.unsqueeze(-2), x)
    return (x.pow(2) / D).sum(-1) - _batch_mahalanobis(capacitance_tril, Wt_Dinv_x)


class LowRankMultivariateNormal(Distribution):
    """A multivariate normal with covariance ``cov_factor @ cov_factor.mT + diag(cov_diag)``."""

    arg_constraints = {"loc": constraints.real_vector, "cov_factor": constraints.independent(constraints.real, 2),
                       "cov_diag": constraints.independent(constraints.positive, 1)}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, cov_factor, cov_diag, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional leading batch dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = core.broadcast_tensors(loc.unsqueeze(-1), cov_factor,
                                                                      cov_diag.unsqueeze(-1))
        except RuntimeError as e:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, "
                             f"cov_diag {cov_diag.shape}") from e
        self.loc, self.cov_diag = loc_[..., 0], cov_diag_[..., 0]
        self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag = cov_factor, cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        loc_shape = shape + self.event_shape
        params = {"loc": self.loc.expand(loc_shape), "cov_diag": self.cov_diag.expand(loc_shape),
                  "cov_factor": self.cov_factor.expand(loc_shape + self.cov_factor.shape[-1:]),
                  "_unbroadcasted_cov_factor": self._unbroadcasted_cov_factor,
                  "_unbroadcasted_cov_diag": self._unbroadcasted_cov_diag,
                  "_capacitance_tril": self._capacitance_tril}
        return self._expanded(LowRankMultivariateNormal, shape, params, _instance)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def variance(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return (W.pow(2).sum(-1) + D).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self):
        """sqrt(D) chol(I + D^-1/2 W W^T D^-1/2): the factor of the covariance, as PyTorch computes it."""
        sqrt_d = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled = self._unbroadcasted_cov_factor / sqrt_d
        return (sqrt_d * core.linalg.cholesky(_with_identity(core.matmul(scaled, scaled.mT)))).expand(
            self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        return (core.matmul(W, W.mT) + core.diag_embed(D)).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        W, D = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        A = core.linalg.solve_triangular(self._capacitance_tril, W.mT / D.unsqueeze(-2), upper=False)
        return (core.diag_embed(D.reciprocal()) - core.matmul(A.mT, A)).expand(self._matrix_shape())

    def rsample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        eps_w = _standard_normal(shape[:-1] + self.cov_factor.shape[-1:], self.loc.dtype, self.loc.device)
        eps_d = _standard_normal(shape, self.loc.dtype, self.loc.device)
        return (self.loc + _batch_mv(self._unbroadcasted_cov_factor, eps_w)
                + self._unbroadcasted_cov_diag.sqrt() * eps_d)

    def _logdet(self):
        return _lowrank_logdet(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, self._capacitance_tril)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _lowrank_mahalanobis(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag, value - self.loc,
                                 self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._logdet() + M)

    def entropy(self):
        H = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._logdet())
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
