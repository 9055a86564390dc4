"""``ContinuousBernoulli(probs | logits)``: the [0, 1]-valued density proportional to ``p^x (1 - p)^(1 - x)``
(Loaiza-Ganem & Cunningham, 2019), with PyTorch's formulas: near ``p = 0.5`` (inside ``lims``) the normaliser and
the moments switch to their Taylor expansions; draws are the inverse CDF of ``rand`` draws."""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.exp_family import ExponentialFamily
from core.distributions.utils import broadcast_all, clamp_probs, lazy_property, logits_to_probs, probs_to_logits

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli distribution on [0, 1], parameterised by ``probs`` or ``logits`` (Loaiza-Ganem and
    Cunningham, 2019): a normalised ``p**x (1-p)**(1-x)``, so a [0, 1] pixel has a proper likelihood."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = probs if probs is not None else logits
        if probs is not None:
            (self.probs,) = broadcast_all(probs)
            if validate_args is not None and not self.arg_constraints["probs"].check(self.probs).all():
                raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(self.probs)
        else:
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        self._lims = lims
        scalar = isinstance(given, (int, float))
        super().__init__(core.Size() if scalar else self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ContinuousBernoulli, _instance)
        new._lims = self._lims
        batch_shape = core.Size(batch_shape)
        for name in ("probs", "logits"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(batch_shape))
                new._param = getattr(new, name)
        ExponentialFamily.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _outside_unstable_region(self):
        return core.max(core.le(self.probs, self._lims[0]), core.gt(self.probs, self._lims[1]))

    def _cut_probs(self):
        return core.where(self._outside_unstable_region(), self.probs, self._lims[0] * core.ones_like(self.probs))

    def _cont_bern_log_norm(self):
        p = self._cut_probs()
        below = core.where(core.le(p, 0.5), p, core.zeros_like(p))
        above = core.where(core.ge(p, 0.5), p, core.ones_like(p))
        log_norm = core.log(core.abs(core.log1p(-p) - core.log(p))) - core.where(
            core.le(p, 0.5), core.log1p(-2.0 * below), core.log(2.0 * above - 1.0))
        x = core.pow(self.probs - 0.5, 2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return core.where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self):
        p = self._cut_probs()
        mus = p / (2.0 * p - 1.0) + 1.0 / (core.log1p(-p) - core.log(p))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * core.pow(x, 2)) * x
        return core.where(self._outside_unstable_region(), mus, taylor)

    @property
    def stddev(self):
        return core.sqrt(self.variance)

    @property
    def variance(self):
        p = self._cut_probs()
        variances = p * (p - 1.0) / core.pow(1.0 - 2.0 * p, 2) + 1.0 / core.pow(core.log1p(-p) - core.log(p), 2)
        x = core.pow(self.probs - 0.5, 2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return core.where(self._outside_unstable_region(), variances, taylor)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=()):
        u = core.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        with core.no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=()):
        u = core.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = core.nn.functional.binary_cross_entropy_with_logits(logits, value, reduction="none")
        return -bce + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        p = self._cut_probs()
        cdfs = (core.pow(p, value) * core.pow(1.0 - p, 1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        unbounded = core.where(self._outside_unstable_region(), cdfs, value)
        return core.where(core.le(value, 0.0), core.zeros_like(value),
                          core.where(core.ge(value, 1.0), core.ones_like(value), unbounded))

    def icdf(self, value):
        p = self._cut_probs()
        inverse = (core.log1p(-p + value * (2.0 * p - 1.0)) - core.log1p(-p)) / (core.log(p) - core.log1p(-p))
        return core.where(self._outside_unstable_region(), inverse, value)

    def entropy(self):
        log_probs0, log_probs1 = core.log1p(-self.probs), core.log(self.probs)
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        outside = core.max(core.le(x, self._lims[0] - 0.5), core.gt(x, self._lims[1] - 0.5))
        cut = core.where(outside, x, (self._lims[0] - 0.5) * core.ones_like(x))
        log_norm = core.log(core.abs(core.special.expm1(cut))) - core.log(core.abs(cut))
        taylor = 0.5 * x + core.pow(x, 2) / 24.0 - core.pow(x, 4) / 2880.0
        return core.where(outside, log_norm, taylor)
