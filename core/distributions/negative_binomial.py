"""``NegativeBinomial(total_count, probs=... | logits=...)``: failures before ``total_count`` successes.

Sampling is the Gamma-Poisson mixture (a Gamma rate, then a Poisson count), drawn as PyTorch draws it.
"""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.gamma import Gamma
from core.distributions.utils import (
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    store_probs_or_logits,
)

__all__ = ["NegativeBinomial"]


class NegativeBinomial(Distribution):
    """Counts of failures before ``total_count`` successes, each trial succeeding with probability ``1 - probs``."""

    arg_constraints = {"total_count": constraints.greater_than_eq(0), "probs": constraints.half_open_interval(0.0, 1.0),
                       "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        (total_count,) = store_probs_or_logits(self, probs, logits, total_count)
        self.total_count = total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = {"total_count": self.total_count.expand(shape)}
        params.update(expand_probs_or_logits(self, shape))
        new = self._expanded(NegativeBinomial, shape, params, _instance)
        new._param = params.get("logits", params.get("probs"))
        return new

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return self.total_count * core.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self):
        return self.mean / core.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        return Gamma(concentration=self.total_count, rate=core.exp(-self.logits), validate_args=False)

    def sample(self, sample_shape=core.Size()):
        with core.no_grad():
            return core.poisson(self._gamma.sample(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logsigmoid = core.nn.functional.logsigmoid
        unnormalized = self.total_count * logsigmoid(-self.logits) + value * logsigmoid(self.logits)
        normalization = (-core.lgamma(self.total_count + value) + core.lgamma(1.0 + value)
                         + core.lgamma(self.total_count))
        normalization = normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return unnormalized - normalization
