"""``Exponential(rate)``: waiting times of rate ``rate``, reparameterised as ``E / rate`` with ``E ~ Exp(1)``."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.exp_family import ExponentialFamily
from core.distributions.utils import _is_number, broadcast_all

__all__ = ["Exponential"]


class Exponential(ExponentialFamily):
    """An exponential distribution with ``rate = 1 / scale``."""

    arg_constraints = {"rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        batch_shape = core.Size() if _is_number(rate) else self.rate.size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        return self._expanded(Exponential, shape, {"rate": self.rate.expand(shape)}, _instance)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def mode(self):
        return core.zeros_like(self.rate)

    @property
    def stddev(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=core.Size()):
        return self.rate.new_empty(self._extended_shape(sample_shape)).exponential_() / self.rate

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.rate.log() - self.rate * value

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return 1 - core.exp(-self.rate * value)

    def icdf(self, value):
        return -core.log1p(-value) / self.rate

    def entropy(self):
        return 1.0 - core.log(self.rate)

    @property
    def _natural_params(self):
        return (-self.rate,)

    def _log_normalizer(self, x):
        return -core.log(-x)
