"""``Kumaraswamy(concentration1, concentration0)``: a Beta-like distribution on (0, 1) with a closed-form CDF,
built as PyTorch builds it (Uniform through two powers and a reflection), with its moments and entropy."""

from __future__ import annotations

import core
from core.distributions import constraints
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import AffineTransform, PowerTransform
from core.distributions.uniform import Uniform
from core.distributions.utils import broadcast_all, euler_constant

__all__ = ["Kumaraswamy"]


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
