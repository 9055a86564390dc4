"""``ExponentialFamily``: distributions with density ``exp(<t(x), theta> - F(theta) + k(x))``.

A subclass gives its natural parameters ``theta``, its log normaliser ``F`` and the expected carrier
measure ``E[k(x)]``; the entropy (and the KL divergence between two members of one family, in
``kl.py``) then follow from the Bregman divergence of ``F``, its gradient taken by core's autograd.
"""

from __future__ import annotations

import core
from core.distributions.distribution import Distribution

__all__ = ["ExponentialFamily"]


class ExponentialFamily(Distribution):
    """The base of exponential-family distributions (Normal, Bernoulli, Gamma...)."""

    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """``F(theta) - <theta, grad F(theta)> - E[k(x)]``, batched over ``batch_shape``."""
        result = -self._mean_carrier_measure
        params = [p.detach().requires_grad_() for p in self._natural_params]
        log_norm = self._log_normalizer(*params)
        grads = core.autograd.grad(log_norm.sum(), params, create_graph=True)
        result = result + log_norm
        for param, grad in zip(params, grads):
            result = result - (param * grad).reshape(tuple(self._batch_shape) + (-1,)).sum(-1)
        return result
