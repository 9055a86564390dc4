"""``Geometric(probs=... | logits=...)``: the number of failures before the first success."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import (
    _is_number,
    broadcast_all,
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    store_probs_or_logits,
)

__all__ = ["Geometric"]


class Geometric(Distribution):
    """A geometric distribution on {0, 1, 2, ...} with success probability ``probs``."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        store_probs_or_logits(self, probs, logits)
        given = probs if probs is not None else logits
        super().__init__(core.Size() if _is_number(given) else self._param.size(), validate_args=validate_args)
        if self._validate_args and probs is not None:
            value = self.probs
            if not bool((value > 0).all()):
                raise ValueError(f"Expected parameter probs ({type(value).__name__} of shape {tuple(value.shape)}) "
                                 f"of distribution {self!r} to be positive but found invalid values:\n{value}")

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = expand_probs_or_logits(self, shape)
        new = self._expanded(Geometric, shape, params, _instance)
        new._param = params.get("probs", params.get("logits"))
        return new

    @property
    def mean(self):
        return 1.0 / self.probs - 1.0

    @property
    def mode(self):
        return core.zeros_like(self.probs)

    @property
    def variance(self):
        return (1.0 / self.probs - 1.0) / self.probs

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)

    def sample(self, sample_shape=core.Size()):
        shape = tuple(self._extended_shape(sample_shape))
        tiny = core.finfo(self.probs.dtype).tiny
        with core.no_grad():
            u = core.empty(shape, dtype=self.probs.dtype, device=self.probs.device).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return core.nn.functional.binary_cross_entropy_with_logits(self.logits, self.probs,
                                                                   reduction="none") / self.probs
