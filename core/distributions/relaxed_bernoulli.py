"""Concrete relaxations of the Bernoulli: ``LogitRelaxedBernoulli`` and ``RelaxedBernoulli``.

A draw is logistic noise plus the logits, divided by ``temperature`` (then squashed by a sigmoid):
differentiable (``rsample``) and drawn from uniform noise as PyTorch draws it, so seeded samples agree.
"""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import SigmoidTransform
from core.distributions.utils import (
    _is_number,
    broadcast_all,
    clamp_probs,
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
    store_probs_or_logits,
)

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


def uniform_noise(shape, like):
    """Uniform noise in (eps, 1 - eps), drawn as PyTorch draws it."""
    return clamp_probs(core.rand(tuple(shape), dtype=like.dtype, device=like.device))


class LogitRelaxedBernoulli(Distribution):
    """The logit of a relaxed Bernoulli draw: (logistic noise + logits) / temperature."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.real

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self.temperature = temperature
        store_probs_or_logits(self, probs, logits)
        given = probs if probs is not None else logits
        super().__init__(core.Size() if _is_number(given) else self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = expand_probs_or_logits(self, shape)
        params["temperature"] = self.temperature
        new = self._expanded(LogitRelaxedBernoulli, shape, params, _instance)
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

    def rsample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        probs = clamp_probs(self.probs.expand(shape))
        u = uniform_noise(shape, probs)
        return (u.log() - (-u).log1p() + probs.log() - (-probs).log1p()) / self.temperature

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        diff = logits - value.mul(self.temperature)
        return core.log(core.as_tensor(self.temperature, dtype=diff.dtype)) + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """A relaxed (Concrete) Bernoulli on (0, 1): the sigmoid of a ``LogitRelaxedBernoulli`` draw."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base = LogitRelaxedBernoulli(temperature, probs, logits)
        super().__init__(base, SigmoidTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(RelaxedBernoulli, _instance)
        return super().expand(batch_shape, _instance=new)

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs
