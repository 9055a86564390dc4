"""``Gamma(concentration, rate)``: reparameterised through standard gamma draws with implicit gradients."""

from __future__ import annotations

import core
from core.distributions import _samplers, constraints
from core.distributions.exp_family import ExponentialFamily
from core.distributions.utils import _is_number, broadcast_all

__all__ = ["Gamma"]


class Gamma(ExponentialFamily):
    """A gamma distribution with shape ``concentration`` and ``rate = 1 / scale``."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.nonnegative
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = broadcast_all(concentration, rate)
        scalar = _is_number(concentration) and _is_number(rate)
        super().__init__(core.Size() if scalar else self.concentration.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = {"concentration": self.concentration.expand(shape), "rate": self.rate.expand(shape)}
        return self._expanded(Gamma, shape, params, _instance)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        value = _samplers.standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=core.finfo(value.dtype).tiny)  # as torch: in place, outside the graph
        return value

    def log_prob(self, value):
        value = core.as_tensor(value, dtype=self.rate.dtype, device=self.rate.device)
        if self._validate_args:
            self._validate_sample(value)
        return (core.xlogy(self.concentration, self.rate) + core.xlogy(self.concentration - 1, value)
                - self.rate * value - core.lgamma(self.concentration))

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return _samplers.gamma_cdf(self.concentration, self.rate * value)

    def entropy(self):
        c = self.concentration
        return c - core.log(self.rate) + core.lgamma(c) + (1.0 - c) * core.digamma(c)

    @property
    def _natural_params(self):
        return (self.concentration - 1, -self.rate)

    def _log_normalizer(self, x, y):
        return core.lgamma(x + 1) + (x + 1) * core.log(-y.reciprocal())
