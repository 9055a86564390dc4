"""``Multinomial(total_count, probs=... | logits=...)``: counts of ``total_count`` categorical draws."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.categorical import Categorical
from core.distributions.distribution import Distribution
from core.distributions.utils import broadcast_all

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    """Category counts of ``total_count`` independent draws; the last dim indexes the categories."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        batch_shape = self._categorical.batch_shape
        super().__init__(batch_shape, self._categorical.param_shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = {"total_count": self.total_count, "_categorical": self._categorical.expand(shape)}
        return self._expanded(Multinomial, shape, params, _instance)

    @constraints.dependent_property(is_discrete=True, event_dim=1)
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=core.Size()):
        sample_shape = core.Size(sample_shape)
        draws = self._categorical.sample(core.Size((self.total_count,)) + sample_shape)
        draws = draws.permute(*range(1, draws.dim()), 0)  # the draws of one event last
        counts = core.zeros(self._extended_shape(sample_shape), dtype=draws.dtype, device=draws.device)
        counts.scatter_add_(-1, draws, core.ones_like(draws))
        return counts.type_as(self.probs)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        log_factorial_n = core.lgamma(value.sum(-1) + 1)
        log_factorial_xs = core.lgamma(value + 1).sum(-1)
        # NOTE: a category of probability 0 that was never drawn adds 0, not 0 * -inf = nan.
        logits = core.where((value == 0) & (logits == float("-inf")), core.zeros_like(logits), logits)
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def entropy(self):
        n = self.total_count
        term1 = n * self._categorical.entropy() - core.lgamma(core.tensor(float(n + 1)))
        # E[sum_i log x_i!] over the binomial marginals x_i ~ Binomial(n, p_i), for k = 1..n.
        k = core.arange(1, n + 1, dtype=self.probs.dtype, device=self.probs.device)
        k = k.view((-1,) + (1,) * self.probs.dim())
        p = self.probs.unsqueeze(0)
        log_binom = (core.lgamma(core.tensor(float(n + 1))) - core.lgamma(k + 1) - core.lgamma(n - k + 1)
                     + core.xlogy(k, p) + core.xlogy(n - k, 1 - p))
        term2 = (core.exp(log_binom) * core.lgamma(k + 1)).sum([0, -1])
        return term1 + term2
