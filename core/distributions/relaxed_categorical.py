"""Concrete (Gumbel-softmax) relaxations of the one-hot categorical: ``ExpRelaxedCategorical`` and
``RelaxedOneHotCategorical``.

A draw is log_softmax((logits + Gumbel noise) / temperature) (then exponentiated onto the simplex):
differentiable (``rsample``) and drawn from uniform noise as PyTorch draws it, so seeded samples agree.
"""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.categorical import Categorical
from core.distributions.distribution import Distribution
from core.distributions.relaxed_bernoulli import uniform_noise
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import ExpTransform
from core.distributions.utils import broadcast_all

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


class ExpRelaxedCategorical(Distribution):
    """The log of a relaxed one-hot draw: log_softmax((logits + Gumbel noise) / temperature)."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        batch_shape = self._categorical.batch_shape
        event_shape = self._categorical.param_shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ExpRelaxedCategorical, _instance)
        shape = core.Size(batch_shape)
        new.temperature = self.temperature
        new._categorical = self._categorical.expand(shape)
        Distribution.__init__(new, shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    def rsample(self, sample_shape=core.Size()):
        shape = self._extended_shape(sample_shape)
        u = uniform_noise(shape, self.logits)
        gumbels = -((-(u.log())).log())
        scores = (self.logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def log_prob(self, value):
        k = self._categorical._num_events
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        temperature = core.as_tensor(self.temperature, dtype=logits.dtype)
        log_scale = core.full_like(temperature, float(k)).lgamma() - temperature.log().mul(-(k - 1))
        score = logits - value.mul(temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """A relaxed one-hot categorical on the simplex: the exp of an ``ExpRelaxedCategorical`` draw."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None):
        base = ExpRelaxedCategorical(temperature, probs, logits, validate_args=validate_args)
        super().__init__(base, ExpTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(RelaxedOneHotCategorical, _instance)
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
