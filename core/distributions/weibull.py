"""``Weibull(scale, concentration)``: ``scale * E ** (1 / concentration)`` with ``E ~ Exponential(1)``."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.exponential import Exponential
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import AffineTransform, PowerTransform
from core.distributions.utils import broadcast_all, euler_constant

__all__ = ["Weibull"]


class Weibull(TransformedDistribution):
    """A two-parameter Weibull distribution with scale ``scale`` (lambda) and shape ``concentration`` (k)."""

    arg_constraints = {"scale": constraints.positive, "concentration": constraints.positive}
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None):
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base_dist = Exponential(core.ones_like(self.scale), validate_args=validate_args)
        super().__init__(base_dist, self._transforms(), validate_args=validate_args)

    def _transforms(self):
        return [PowerTransform(exponent=self.concentration_reciprocal), AffineTransform(loc=0, scale=self.scale)]

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Weibull, _instance)
        new.scale = self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        TransformedDistribution.__init__(new, self.base_dist.expand(batch_shape), new._transforms(),
                                         validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self):
        return self.scale * core.exp(core.lgamma(1 + self.concentration_reciprocal))

    @property
    def mode(self):
        return self.scale * ((self.concentration - 1) / self.concentration) ** self.concentration.reciprocal()

    @property
    def variance(self):
        return self.scale.pow(2) * (core.exp(core.lgamma(1 + 2 * self.concentration_reciprocal))
                                    - core.exp(2 * core.lgamma(1 + self.concentration_reciprocal)))

    def entropy(self):
        k_inv = self.concentration_reciprocal
        return euler_constant * (1 - k_inv) + core.log(self.scale * k_inv) + 1
