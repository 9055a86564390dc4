"""``MultivariateNormal(loc, covariance_matrix= | precision_matrix= | scale_tril=)``: the Gaussian in ``n`` dims.

Everything is computed from the lower Cholesky factor ``L`` of the covariance (``scale_tril``);
a draw is ``loc + L @ eps``, differentiable with respect to ``loc`` and ``L``.
"""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import _standard_normal, lazy_property

__all__ = ["MultivariateNormal"]


def _batch_mv(bmat, bvec):
    """Matrix-vector products with broadcast batch dims."""
    return core.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL, bx):
    """``x^T (L L^T)^-1 x`` for a batch of factors ``bL`` that broadcasts against the vectors ``bx``."""
    shape = core.broadcast_shapes(tuple(bL.shape[:-2]), tuple(bx.shape[:-1]))
    n = bx.size(-1)
    solved = core.linalg.solve_triangular(bL.expand(shape + (n, n)), bx.expand(shape + (n,)).unsqueeze(-1),
                                          upper=False)
    return solved.squeeze(-1).pow(2).sum(-1)


def _tril_inverse(L):
    eye = core.eye(L.size(-1), dtype=L.dtype, device=L.device).expand(L.shape)
    return core.linalg.solve_triangular(L, eye, upper=False)


def _precision_to_scale_tril(P):
    """The lower Cholesky factor of ``P^-1``, without inverting ``P`` (a flipped Cholesky of ``P``)."""
    Lf = core.linalg.cholesky(core.flip(P, (-2, -1)))
    L_inv = core.transpose(core.flip(Lf, (-2, -1)), -2, -1)
    return _tril_inverse(L_inv)


class MultivariateNormal(Distribution):
    """A multivariate normal with mean ``loc`` and one of covariance, precision or ``scale_tril``."""

    arg_constraints = {"loc": constraints.real_vector, "covariance_matrix": constraints.positive_definite,
                       "precision_matrix": constraints.positive_definite, "scale_tril": constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        given = [(name, m) for name, m in (("covariance_matrix", covariance_matrix), ("scale_tril", scale_tril),
                                           ("precision_matrix", precision_matrix)) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.")
        name, matrix = given[0]
        if matrix.dim() < 2:
            what = "scale_tril matrix" if name == "scale_tril" else name
            raise ValueError(f"{what} must be at least two-dimensional, with optional leading batch dimensions")
        batch_shape = core.broadcast_shapes(tuple(matrix.shape[:-2]), tuple(loc.shape[:-1]))
        setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if name == "scale_tril":
            self._unbroadcasted_scale_tril = matrix
        elif name == "covariance_matrix":
            self._unbroadcasted_scale_tril = core.linalg.cholesky(matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(matrix)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        cov_shape = shape + self.event_shape + self.event_shape
        params = {"loc": self.loc.expand(shape + self.event_shape),
                  "_unbroadcasted_scale_tril": self._unbroadcasted_scale_tril}
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                params[name] = self.__dict__[name].expand(cov_shape)
        return self._expanded(MultivariateNormal, shape, params, _instance)

    def _matrix_shape(self):
        return self._batch_shape + self._event_shape + self._event_shape

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._matrix_shape())

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return core.matmul(L, L.mT).expand(self._matrix_shape())

    @lazy_property
    def precision_matrix(self):
        L_inv = _tril_inverse(self._unbroadcasted_scale_tril)
        return core.matmul(L_inv.mT, L_inv).expand(self._matrix_shape())

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=core.Size()):
        eps = _standard_normal(self._extended_shape(sample_shape), self.loc.dtype, self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - self._half_log_det()

    def entropy(self):
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
