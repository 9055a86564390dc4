"""``LogisticNormal(loc, scale)``: the simplex point that stick-breaking makes of a ``Normal(loc, scale)`` vector,
built as PyTorch builds it."""

from __future__ import annotations

from core.distributions import constraints
from core.distributions.normal import Normal
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.transforms import StickBreakingTransform

__all__ = ["LogisticNormal"]


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
