"""``Binomial(total_count, probs=... | logits=...)``: successes out of ``total_count`` independent trials."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import (
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    store_probs_or_logits,
)

__all__ = ["Binomial"]


def _clamp_by_zero(x):
    """``max(x, 0)`` with a gradient of 1/2 at zero, as PyTorch's."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(Distribution):
    """A binomial distribution given by ``probs`` or by ``logits``, not both."""

    arg_constraints = {"total_count": constraints.nonnegative_integer, "probs": constraints.unit_interval,
                       "logits": constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        (total_count,) = store_probs_or_logits(self, probs, logits, total_count)
        self.total_count = total_count.type_as(self._param)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = {"total_count": self.total_count.expand(shape)}
        params.update(expand_probs_or_logits(self, shape))
        new = self._expanded(Binomial, shape, params, _instance)
        new._param = params.get("probs", params.get("logits"))
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=core.Size()):
        shape = tuple(self._extended_shape(sample_shape))
        with core.no_grad():
            return core.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = core.lgamma(self.total_count + 1)
        log_factorial_k = core.lgamma(value + 1)
        log_factorial_nmk = core.lgamma(self.total_count - value + 1)
        normalize = (self.total_count * _clamp_by_zero(self.logits)
                     + self.total_count * core.log1p(core.exp(-core.abs(self.logits))) - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize

    def _homogeneous_count(self, what):
        total = int(self.total_count.max())
        if not self.total_count.min() == total:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total

    def entropy(self):
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(core.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        total = self._homogeneous_count("enumerate_support")
        values = core.arange(1 + total, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
