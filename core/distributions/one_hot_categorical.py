"""``OneHotCategorical(probs=... | logits=...)``: a ``Categorical`` whose draws are one-hot vectors."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.categorical import Categorical
from core.distributions.distribution import Distribution

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough"]


def _one_hot(indices, like):
    return core.nn.functional.one_hot(indices, like.shape[-1]).to(like)


class OneHotCategorical(Distribution):
    """One of ``K`` classes as a one-hot vector of length ``K = probs.size(-1)``."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.one_hot
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._categorical = Categorical(probs, logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        return self._expanded(OneHotCategorical, shape, {"_categorical": self._categorical.expand(shape)}, _instance)

    @property
    def _param(self):
        return self._categorical._param

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs

    @property
    def mode(self):
        return _one_hot(self.probs.argmax(dim=-1), self.probs)

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=core.Size()):
        return _one_hot(self._categorical.sample(core.Size(sample_shape)), self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self):
        return self._categorical.entropy()

    def enumerate_support(self, expand=True):
        n = self.event_shape[0]
        values = core.eye(n, dtype=self._param.dtype, device=self._param.device)
        values = values.view((n,) + (1,) * len(self.batch_shape) + (n,))
        return values.expand((n,) + tuple(self.batch_shape) + (n,)) if expand else values


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A one-hot categorical whose ``rsample`` passes gradients straight through to the probabilities (Bengio et
    al., 2013): the sample's value, the probabilities' gradient."""

    has_rsample = True

    def rsample(self, sample_shape=()):
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
