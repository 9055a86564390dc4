"""``Poisson(rate)``: counts of events at rate ``rate`` (sampled, not reparameterisable)."""

from __future__ import annotations

import core
from core.distributions import _samplers, constraints
from core.distributions.exp_family import ExponentialFamily
from core.distributions.utils import _is_number, broadcast_all

__all__ = ["Poisson"]


class Poisson(ExponentialFamily):
    """A Poisson distribution: ``P(k) = rate^k e^-rate / k!``."""

    arg_constraints = {"rate": constraints.nonnegative}
    support = constraints.nonnegative_integer

    def __init__(self, rate, validate_args=None):
        (self.rate,) = broadcast_all(rate)
        super().__init__(core.Size() if _is_number(rate) else self.rate.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        return self._expanded(Poisson, shape, {"rate": self.rate.expand(shape)}, _instance)

    @property
    def mean(self):
        return self.rate

    @property
    def mode(self):
        return self.rate.floor()

    @property
    def variance(self):
        return self.rate

    def sample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        with core.no_grad():
            return _samplers.poisson(self.rate.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        rate, value = broadcast_all(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()

    @property
    def _natural_params(self):
        return (core.log(self.rate),)

    def _log_normalizer(self, x):
        return core.exp(x)
