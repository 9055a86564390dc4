"""``Cauchy(loc, scale)``: the Lorentz distribution, reparameterised as ``loc + scale * standard Cauchy``."""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import _is_number, broadcast_all

__all__ = ["Cauchy"]


class Cauchy(Distribution):
    """A Cauchy distribution with median ``loc`` and half width ``scale`` (no finite mean or variance)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        batch_shape = core.Size() if _is_number(loc) and _is_number(scale) else self.loc.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        return self._expanded(Cauchy, shape, {"loc": self.loc.expand(shape), "scale": self.scale.expand(shape)},
                              _instance)

    @property
    def mean(self):
        return core.full(tuple(self._extended_shape()), math.nan, dtype=self.loc.dtype, device=self.loc.device)

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return core.full(tuple(self._extended_shape()), math.inf, dtype=self.loc.dtype, device=self.loc.device)

    def rsample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        eps = core.empty(tuple(shape), dtype=self.loc.dtype, device=self.loc.device).cauchy_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -math.log(math.pi) - self.scale.log() - (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return core.atan((value - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, value):
        return core.tan(math.pi * (value - 0.5)) * self.scale + self.loc

    def entropy(self):
        return math.log(4 * math.pi) + self.scale.log()
