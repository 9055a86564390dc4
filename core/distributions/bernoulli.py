"""``Bernoulli(probs=... | logits=...)``: one coin flip per batch element, 1 with probability ``probs``."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.exp_family import ExponentialFamily
from core.distributions.utils import (
    _is_number,
    broadcast_all,
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    store_probs_or_logits,
)

__all__ = ["Bernoulli"]


def _bce_with_logits(logits, target):
    return core.nn.functional.binary_cross_entropy_with_logits(logits, target, reduction="none")


class Bernoulli(ExponentialFamily):
    """A Bernoulli distribution given by ``probs`` or by ``logits`` (log-odds), not both."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _mean_carrier_measure = 0

    def __init__(self, probs=None, logits=None, validate_args=None):
        store_probs_or_logits(self, probs, logits)
        given = probs if probs is not None else logits
        super().__init__(core.Size() if _is_number(given) else self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = expand_probs_or_logits(self, shape)
        new = self._expanded(Bernoulli, shape, params, _instance)
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
        return self.probs

    @property
    def mode(self):
        mode = (self.probs >= 0.5).to(self.probs)
        return core.where(self.probs == 0.5, core.full_like(mode, float("nan")), mode)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        with core.no_grad():
            return core.bernoulli(self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -_bce_with_logits(logits, value)

    def entropy(self):
        return _bce_with_logits(self.logits, self.probs)

    def enumerate_support(self, expand=True):
        values = core.arange(2, dtype=self._param.dtype, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values

    @property
    def _natural_params(self):
        return (core.logit(self.probs),)

    def _log_normalizer(self, x):
        return core.log1p(core.exp(x))
