"""Distributions built as transforms of others, as PyTorch builds them: ``InverseGamma`` (Gamma through x^-1),
``Kumaraswamy`` (Uniform through two powers and a reflection) and ``LogisticNormal`` (Normal through the
stick-breaking map onto the simplex). Draws, log-densities and moments follow PyTorch's formulas."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.gamma import Gamma
from core.distributions.normal import Normal
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import AffineTransform, PowerTransform, StickBreakingTransform
from core.distributions.uniform import Uniform
from core.distributions.utils import broadcast_all, euler_constant

__all__ = ["InverseGamma", "Kumaraswamy", "LogisticNormal"]


class InverseGamma(TransformedDistribution):
    """``1 / X`` with ``X ~ Gamma(concentration, rate)``."""

    arg_constraints = {"concentration": constraints.positive, "rate": constraints.positive}
    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None):
        base_dist = Gamma(concentration, rate, validate_args=validate_args)
        neg_one = -base_dist.rate.new_ones(())
        super().__init__(base_dist, PowerTransform(neg_one), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(InverseGamma, _instance))

    @property
    def concentration(self):
        return self.base_dist.concentration

    @property
    def rate(self):
        return self.base_dist.rate

    @property
    def mean(self):
        return core.where(self.concentration > 1, self.rate / (self.concentration - 1), core.inf)

    @property
    def mode(self):
        return self.rate / (self.concentration + 1)

    @property
    def variance(self):
        result = self.rate.square() / ((self.concentration - 1).square() * (self.concentration - 2))
        return core.where(self.concentration > 2, result, core.inf)

    def entropy(self):
        a = self.concentration
        return a + self.rate.log() + a.lgamma() - (1 + a) * a.digamma()


def _kumaraswamy_moment(a, b, n):
    arg1 = 1 + n / a
    return b * core.exp(core.lgamma(arg1) + core.lgamma(b) - core.lgamma(arg1 + b))


class Kumaraswamy(TransformedDistribution):
    """On (0, 1): ``(1 - U^(1/concentration0))^(1/concentration1)`` with ``U ~ Uniform(0, 1)``."""

    arg_constraints = {"concentration1": constraints.positive, "concentration0": constraints.positive}
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None):
        self.concentration1, self.concentration0 = broadcast_all(concentration1, concentration0)
        base_dist = Uniform(core.full_like(self.concentration0, 0), core.full_like(self.concentration0, 1),
                            validate_args=validate_args)
        transforms = [PowerTransform(exponent=self.concentration0.reciprocal()), AffineTransform(loc=1.0, scale=-1.0),
                      PowerTransform(exponent=self.concentration1.reciprocal())]
        super().__init__(base_dist, transforms, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Kumaraswamy, _instance)
        new.concentration1 = self.concentration1.expand(batch_shape)
        new.concentration0 = self.concentration0.expand(batch_shape)
        return super().expand(batch_shape, _instance=new)

    @property
    def mean(self):
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self):
        a, b = self.concentration1, self.concentration0
        log_mode = b.reciprocal() * (-b).log1p() - (-b * a).log1p()
        log_mode[(b < 1) | (a < 1)] = core.nan
        return log_mode.exp()

    @property
    def variance(self):
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 2) - core.pow(self.mean, 2)

    def entropy(self):
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = core.digamma(self.concentration0 + 1) + euler_constant
        return t0 + t1 * h0 - core.log(self.concentration1) - core.log(self.concentration0)


class LogisticNormal(TransformedDistribution):
    """The simplex point stick-breaking makes of a ``Normal(loc, scale)`` vector (one more entry than ``loc``)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None):
        base_dist = Normal(loc, scale, validate_args=validate_args)
        if not base_dist.batch_shape:
            base_dist = base_dist.expand([1])
        super().__init__(base_dist, StickBreakingTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(LogisticNormal, _instance))

    @property
    def loc(self):
        return self.base_dist.base_dist.loc

    @property
    def scale(self):
        return self.base_dist.base_dist.scale
