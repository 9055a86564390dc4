"""``StudentT(df, loc, scale)``: Student's t, reparameterised as ``loc + scale * X / sqrt(Z / df)``."""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.chi2 import Chi2
from core.distributions.distribution import Distribution
from core.distributions.utils import _standard_normal, broadcast_all

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Student's t with ``df`` degrees of freedom, location ``loc`` and scale ``scale``."""

    arg_constraints = {"df": constraints.positive, "loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None):
        self.df, self.loc, self.scale = broadcast_all(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        shape = core.Size(batch_shape)
        params = {"df": self.df.expand(shape), "loc": self.loc.expand(shape), "scale": self.scale.expand(shape)}
        new = self._expanded(StudentT, shape, params, _instance)
        new._chi2 = self._chi2.expand(shape)
        return new

    @property
    def mean(self):
        m = self.loc.clone()
        m[self.df <= 1] = math.nan
        return m

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        m = self.df.clone()
        big = self.df > 2
        m[big] = self.scale[big].pow(2) * self.df[big] / (self.df[big] - 2)
        m[(self.df <= 2) & (self.df > 1)] = math.inf
        m[self.df <= 1] = math.nan
        return m

    def rsample(self, sample_shape=core.Size()):
        x = _standard_normal(self._extended_shape(sample_shape), self.df.dtype, self.df.device)
        z = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (x * core.rsqrt(z / self.df))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        y = (value - self.loc) / self.scale
        z = (self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + core.lgamma(0.5 * self.df)
             - core.lgamma(0.5 * (self.df + 1.0)))
        return -0.5 * (self.df + 1.0) * core.log1p(y**2.0 / self.df) - z

    def entropy(self):
        lbeta = core.lgamma(0.5 * self.df) + math.lgamma(0.5) - core.lgamma(0.5 * (self.df + 1))
        return (self.scale.log() + 0.5 * (self.df + 1) * (core.digamma(0.5 * (self.df + 1))
                                                          - core.digamma(0.5 * self.df))
                + 0.5 * self.df.log() + lbeta)
