"""``Dirichlet(concentration)``: distributions over the simplex, reparameterised via normalised gammas.

A draw is PyTorch's (``_sample_dirichlet``: gamma draws in float64 over their sum, clamped into the
open simplex), equal to torch's for the same seed. Its gradient is the gamma draws' implicit
reparameterisation through the normalisation (PyTorch computes the same kind of gradient with a
dedicated kernel; both are unbiased, the per-draw values differ).
"""

from __future__ import annotations

import core
from core.distributions import _samplers, constraints
from core.distributions.exp_family import ExponentialFamily

__all__ = ["Dirichlet"]


class Dirichlet(ExponentialFamily):
    """A Dirichlet distribution with concentration vector(s) along the last dim."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        shape = concentration.size()
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = {"concentration": self.concentration.expand(shape + self.event_shape)}
        return self._expanded(Dirichlet, shape, params, _instance)

    def rsample(self, sample_shape=()):
        return _samplers.dirichlet(self.concentration.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return core.xlogy(c - 1.0, value).sum(-1) + core.lgamma(c.sum(-1)) - core.lgamma(c).sum(-1)

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self):
        cm1 = (self.concentration - 1).clamp(min=0.0)
        mode = cm1 / cm1.sum(-1, True)
        all_below_one = (self.concentration < 1).all(dim=-1, keepdim=True)
        one_hot = core.nn.functional.one_hot(mode.argmax(dim=-1), cm1.shape[-1]).to(mode)
        return core.where(all_below_one, one_hot, mode)

    @property
    def variance(self):
        c0 = self.concentration.sum(-1, True)
        return self.concentration * (c0 - self.concentration) / (c0.pow(2) * (c0 + 1))

    def entropy(self):
        c = self.concentration
        k, a0 = c.size(-1), c.sum(-1)
        return (core.lgamma(c).sum(-1) - core.lgamma(a0) - (k - a0) * core.digamma(a0)
                - ((c - 1.0) * core.digamma(c)).sum(-1))

    @property
    def _natural_params(self):
        return (self.concentration,)

    def _log_normalizer(self, x):
        return x.lgamma().sum(-1) - core.lgamma(x.sum(-1))
