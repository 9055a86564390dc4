"""``GeneralizedPareto(loc, scale, concentration)``: the peaks-over-threshold distribution, with PyTorch's
formulas (a zero concentration is the exponential limit; draws are the inverse CDF of ``rand`` draws)."""

from __future__ import annotations

import math
from numbers import Number, Real

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import broadcast_all

__all__ = ["GeneralizedPareto"]


class GeneralizedPareto(Distribution):
    """The generalized Pareto distribution with ``loc``, ``scale`` and ``concentration`` (the shape): the limit of a
    tail's excesses over a high threshold."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive, "concentration": constraints.real}
    has_rsample = True

    def __init__(self, loc, scale, concentration, validate_args=None):
        self.loc, self.scale, self.concentration = broadcast_all(loc, scale, concentration)
        numbers = all(isinstance(v, Number) for v in (loc, scale, concentration))
        super().__init__(core.Size() if numbers else self.loc.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(GeneralizedPareto, _instance)
        batch_shape = core.Size(batch_shape)
        new.loc, new.scale = self.loc.expand(batch_shape), self.scale.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        Distribution.__init__(new, batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _safe_concentration(self):
        """The concentration with zeros replaced by 1 (those use the exponential formula), and where they were."""
        eq_zero = core.isclose(self.concentration, core.zeros_like(self.concentration))
        return core.where(eq_zero, core.ones_like(self.concentration), self.concentration), eq_zero

    def rsample(self, sample_shape=()):
        u = core.rand(self._extended_shape(sample_shape), dtype=self.loc.dtype, device=self.loc.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        safe, eq_zero = self._safe_concentration()
        y = 1 / safe + core.ones_like(z)
        where_nonzero = core.where(y == 0, y, y * core.log1p(safe * z))
        log_scale = math.log(self.scale) if isinstance(self.scale, Real) else self.scale.log()
        return -log_scale - core.where(eq_zero, z, where_nonzero)

    def log_survival_function(self, value):
        if self._validate_args:
            self._validate_sample(value)
        z = self._z(value)
        safe, eq_zero = self._safe_concentration()
        return core.where(eq_zero, -z, -core.log1p(safe * z) / safe)

    def log_cdf(self, value):
        return core.log1p(-core.exp(self.log_survival_function(value)))

    def cdf(self, value):
        return core.exp(self.log_cdf(value))

    def icdf(self, value):
        safe, eq_zero = self._safe_concentration()
        logu = core.log1p(-value)
        where_nonzero = self.loc + self.scale / safe * core.expm1(-safe * logu)
        return core.where(eq_zero, self.loc - self.scale * logu, where_nonzero)

    def _z(self, x):
        return (x - self.loc) / self.scale

    @property
    def mean(self):
        valid = self.concentration < 1
        safe = core.where(valid, self.concentration, 0.5)
        return core.where(valid, self.loc + self.scale / (1 - safe), core.nan)

    @property
    def variance(self):
        valid = self.concentration < 0.5
        safe = core.where(valid, self.concentration, 0.25)
        return core.where(valid, self.scale ** 2 / ((1 - safe) ** 2 * (1 - 2 * safe)), core.nan)

    def entropy(self):
        return core.broadcast_to(core.log(self.scale) + self.concentration + 1, self._batch_shape)

    @property
    def mode(self):
        return self.loc

    @constraints.dependent_property(is_discrete=False, event_dim=0)
    def support(self):
        upper = core.where(self.concentration < 0, self.loc - self.scale / self.concentration, core.inf)
        return constraints.interval(self.loc, upper)
