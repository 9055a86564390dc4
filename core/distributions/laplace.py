"""``Laplace(loc, scale)``: the double exponential, reparameterised through its inverse CDF."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import _is_number, broadcast_all

__all__ = ["Laplace"]


class Laplace(Distribution):
    """A Laplace distribution with location ``loc`` and scale ``scale``."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        batch_shape = core.Size() if _is_number(loc) and _is_number(scale) else self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        return self._expanded(Laplace, shape, {"loc": self.loc.expand(shape), "scale": self.scale.expand(shape)},
                              _instance)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2**0.5) * self.scale

    def rsample(self, sample_shape=core.Size()):
        eps = core.finfo(self.loc.dtype).eps
        u = self.loc.new_empty(self._extended_shape(sample_shape)).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * core.log1p(-u.abs())

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -core.log(2 * self.scale) - core.abs(value - self.loc) / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        return 0.5 - 0.5 * diff.sign() * core.expm1(-diff.abs() / self.scale)

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * core.log1p(-2 * term.abs())

    def entropy(self):
        return 1 + core.log(2 * self.scale)
