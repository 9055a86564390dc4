"""``VonMises(loc, concentration)``: the circular normal distribution on [-π, π), as PyTorch defines it.

Draws use Best & Fisher's (1979) rejection sampler with PyTorch's order of uniform draws (three per element per
round, computed in float64), so a seeded run gives PyTorch's angles. The log-normaliser ``log I0(κ)`` and the
variance's ``I1/I0`` use the polynomial approximations of Abramowitz & Stegun (9.8.1–9.8.4), which PyTorch uses too.
"""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.distribution import Distribution
from core.distributions.utils import broadcast_all, lazy_property

__all__ = ["VonMises"]

# Abramowitz & Stegun 9.8.1-9.8.4: I0, I1 for |x| < 3.75 in powers of (x/3.75)^2, and sqrt(x) e^-x I0/I1 above
_SMALL = ([1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.0360768, 0.0045813],
          [0.5, 0.87890594, 0.51498869, 0.15084934, 0.02658733, 0.00301532, 0.00032411])
_LARGE = ([0.39894228, 0.01328592, 0.00225319, -0.00157565, 0.00916281, -0.02057706, 0.02635537, -0.01647633,
           0.00392377],
          [0.39894228, -0.03988024, -0.00362018, 0.00163801, -0.01031555, 0.02282967, -0.02895312, 0.01787654,
           -0.00420059])


def _horner(y, coefficients):
    result = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        result = c + y * result
    return result


def _log_modified_bessel(x, order: int = 0):
    """log I_order(x) for order 0 or 1 (A&S approximations, switching at 3.75)."""
    y = x / 3.75
    small = _horner(y * y, _SMALL[order])
    if order == 1:
        small = x.abs() * small
    large = x - 0.5 * x.log() + _horner(3.75 / x, _LARGE[order]).log()
    return core.where(x < 3.75, small.log(), large)


def _rejection_sample(loc, concentration, proposal_r, x):
    done = core.zeros(x.shape, dtype=core.bool, device=loc.device)
    while not done.all():
        u1, u2, u3 = core.rand((3,) + tuple(x.shape), dtype=loc.dtype, device=loc.device).unbind()
        z = core.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = (c * (2 - c) - u2 > 0) | ((c / u2).log() + 1 - c >= 0)
        if accept.any():
            x = core.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """The von Mises distribution on the circle, with ``loc`` (the mean angle) and ``concentration``; sampled by
    Best and Fisher's rejection method, in double precision."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, core.Size(), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * core.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_modified_bessel(self.concentration, order=0)

    @lazy_property
    def _loc(self):
        return self.loc.to(core.double)

    @lazy_property
    def _concentration(self):
        return self.concentration.to(core.double)

    @lazy_property
    def _proposal_r(self):
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa ** 2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        return core.where(kappa < 1e-5, 1 / kappa + kappa, (1 + rho ** 2) / (2 * rho))

    def sample(self, sample_shape=()):
        with core.no_grad():
            x = core.empty(self._extended_shape(sample_shape), dtype=self._loc.dtype, device=self.loc.device)
            return _rejection_sample(self._loc, self._concentration, self._proposal_r, x).to(self.loc.dtype)

    def expand(self, batch_shape, _instance=None):
        validate_args = self.__dict__.get("_validate_args")
        return type(self)(self.loc.expand(batch_shape), self.concentration.expand(batch_shape),
                          validate_args=validate_args)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        return 1 - (_log_modified_bessel(self.concentration, order=1)
                    - _log_modified_bessel(self.concentration, order=0)).exp()
