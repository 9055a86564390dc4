"""``Categorical(probs=... | logits=...)``: one of ``K`` classes, the class index as the sample.

``probs`` are normalised along the last dim and ``logits`` shifted to log-probabilities, as in
PyTorch; the leading dims are the batch.
"""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import (
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["Categorical"]


class Categorical(Distribution):
    """A categorical distribution over ``{0, ..., K-1}`` with ``K = probs.size(-1)``."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.probs = probs / probs.sum(-1, keepdim=True)
            self._param = self.probs
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            self._param = self.logits
        self._num_events = self._param.size()[-1]
        batch_shape = self._param.size()[:-1] if self._param.ndimension() > 1 else core.Size()
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        param_shape = shape + core.Size((self._num_events,))
        params = expand_probs_or_logits(self, param_shape)
        params["_num_events"] = self._num_events
        new = self._expanded(Categorical, shape, params, _instance)
        new._param = params.get("logits", params.get("probs"))
        return new

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self._num_events - 1)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits)

    @property
    def param_shape(self):
        return self._param.size()

    @property
    def mean(self):
        return core.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype, device=self.probs.device)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    @property
    def variance(self):
        return core.full(self._extended_shape(), float("nan"), dtype=self.probs.dtype, device=self.probs.device)

    def sample(self, sample_shape=core.Size()):
        sample_shape = core.Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        with core.no_grad():
            draws = core.multinomial(probs_2d, sample_shape.numel(), True).T
        return draws.reshape(self._extended_shape(sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = core.broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self):
        logits = core.clamp(self.logits, min=core.finfo(self.logits.dtype).min)
        return -(logits * self.probs).sum(-1)

    def enumerate_support(self, expand=True):
        values = core.arange(self._num_events, dtype=core.long, device=self._param.device)
        values = values.view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1,) + tuple(self._batch_shape)) if expand else values
