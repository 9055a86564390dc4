"""``Gumbel(loc, scale)``: the extreme-value distribution, as transforms of a uniform draw."""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import AffineTransform, ExpTransform
from core.distributions.uniform import Uniform
from core.distributions.utils import broadcast_all, euler_constant

__all__ = ["Gumbel"]


class Gumbel(TransformedDistribution):
    """``loc - scale * log(-log(U))`` for ``U`` uniform on (0, 1)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = broadcast_all(loc, scale)
        finfo = core.finfo(self.loc.dtype)
        base_dist = Uniform(core.full_like(self.loc, finfo.tiny), core.full_like(self.loc, 1 - finfo.eps),
                            validate_args=validate_args)
        transforms = [ExpTransform().inv, AffineTransform(loc=0, scale=-core.ones_like(self.scale)),
                      ExpTransform().inv, AffineTransform(loc=self.loc, scale=-self.scale)]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Gumbel, _instance)
        new.loc = self.loc.expand(batch_shape)
        new.scale = self.scale.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self):
        return self.loc + self.scale * euler_constant

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self):
        return self.stddev.pow(2)

    def entropy(self):
        return self.scale.log() + (1 + euler_constant)
