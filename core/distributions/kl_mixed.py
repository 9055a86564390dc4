"""Closed-form KL divergences PyTorch registers between different families (Uniform-Normal,
Exponential-Gamma, Normal-Gumbel, Beta-Uniform, ...) and for the low-rank Gaussian.

A pair whose ``q`` has a smaller support than ``p`` is infinite everywhere (``Normal`` against
``Exponential``), as in PyTorch; a bounded pair is infinite where ``p``'s support leaves ``q``'s.
The low-rank pairs use the dense Cholesky factor of the low-rank covariance and the
MultivariateNormal formula. ``core.distributions`` imports this module so the pairs are registered.
"""

from __future__ import annotations

import math

import core
from core.distributions.bernoulli import Bernoulli
from core.distributions.beta import Beta
from core.distributions.binomial import Binomial
from core.distributions.exponential import Exponential
from core.distributions.gamma import Gamma
from core.distributions.gumbel import Gumbel
from core.distributions.kl import kl_divergence, register_kl
from core.distributions.laplace import Laplace
from core.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from core.distributions.multivariate_normal import MultivariateNormal
from core.distributions.normal import Normal
from core.distributions.poisson import Poisson
from core.distributions.uniform import Uniform
from core.distributions.utils import euler_constant

__all__ = []


def _infinite_like(t):
    return core.full_like(t, math.inf)


def _x_log_x(t):
    return core.special.xlogy(t, t)


def _inf_where(mask, result):
    return core.where(mask, math.inf, result)


@register_kl(Beta, Uniform)
def _kl_beta_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    return _inf_where((q.low > 0) | (q.high < 1), result)


@register_kl(Beta, Exponential)
def _kl_beta_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * (p.concentration1 / (p.concentration1 + p.concentration0))


@register_kl(Beta, Gamma)
def _kl_beta_gamma(p, q):
    a, b = p.concentration1, p.concentration0
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (q.concentration - 1) * (a.digamma() - (a + b).digamma())
    return -p.entropy() + t2 - t3 + q.rate * a / (a + b)


@register_kl(Beta, Normal)
def _kl_beta_normal(p, q):
    a, b = p.concentration1, p.concentration0
    mean = a / (a + b)
    var_normal = q.scale.pow(2)
    second_moment = mean * (1 - mean) / (a + b + 1) + mean.pow(2)
    t2 = 0.5 * (var_normal * 2 * math.pi).log()
    return -p.entropy() + t2 + (second_moment * 0.5 - q.loc * mean + q.loc.pow(2) * 0.5) / var_normal


@register_kl(Bernoulli, Poisson)
def _kl_bernoulli_poisson(p, q):
    return -p.entropy() - (p.probs * q.rate.log() - q.rate)


@register_kl(Exponential, Gamma)
def _kl_exponential_gamma(p, q):
    ratio = q.rate / p.rate
    return (-q.concentration * ratio.log() + ratio + q.concentration.lgamma() + q.concentration * euler_constant
            - (1 + euler_constant))


@register_kl(Exponential, Gumbel)
def _kl_exponential_gumbel(p, q):
    prod = p.rate * q.scale
    ratio = q.loc / q.scale
    return prod.log() - 1 - ratio + ratio.exp() * prod / (prod + 1) + prod.reciprocal()


@register_kl(Exponential, Normal)
def _kl_exponential_normal(p, q):
    var_normal = q.scale.pow(2)
    rate_sqr = p.rate.pow(2)
    t1 = 0.5 * (rate_sqr * var_normal * 2 * math.pi).log()
    return t1 - 1 + (rate_sqr.reciprocal() - q.loc / p.rate + q.loc.pow(2) * 0.5) / var_normal


@register_kl(Gamma, Exponential)
def _kl_gamma_exponential(p, q):
    return -p.entropy() - q.rate.log() + q.rate * p.concentration / p.rate


@register_kl(Gamma, Gumbel)
def _kl_gamma_gumbel(p, q):
    k = p.concentration
    prod = p.rate * q.scale
    ratio = q.loc / q.scale
    t1 = (k - 1) * k.digamma() - k.lgamma() - k
    t2 = prod.log() + k / prod
    t3 = ratio.exp() * (1 + prod.reciprocal()).pow(-k) - ratio
    return t1 + t2 + t3


@register_kl(Gamma, Normal)
def _kl_gamma_normal(p, q):
    k = p.concentration
    var_normal = q.scale.pow(2)
    beta_sqr = p.rate.pow(2)
    t1 = 0.5 * (beta_sqr * var_normal * 2 * math.pi).log() - k - k.lgamma()
    t2 = 0.5 * (k.pow(2) + k) / beta_sqr
    return t1 + (k - 1) * k.digamma() + (t2 - q.loc * k / p.rate + 0.5 * q.loc.pow(2)) / var_normal


@register_kl(Gumbel, Normal)
def _kl_gumbel_normal(p, q):
    ratio = p.scale / q.scale
    t1 = (ratio / math.sqrt(2 * math.pi)).log()
    t2 = (math.pi * ratio * 0.5).pow(2) / 3
    t3 = ((p.loc + p.scale * euler_constant - q.loc) / q.scale).pow(2) * 0.5
    return -t1 + t2 + t3 - (euler_constant + 1)


@register_kl(Laplace, Normal)
def _kl_laplace_normal(p, q):
    var_normal = q.scale.pow(2)
    ratio = p.scale.pow(2) / var_normal
    t1 = 0.5 * (2 * ratio / math.pi).log()
    return -t1 + ratio + (0.5 * p.loc.pow(2) - p.loc * q.loc + 0.5 * q.loc.pow(2)) / var_normal - 1


@register_kl(Normal, Gumbel)
def _kl_normal_gumbel(p, q):
    mean_ratio = p.loc / q.scale
    var_ratio = (p.scale / q.scale).pow(2)
    loc_ratio = q.loc / q.scale
    t3 = (-mean_ratio + 0.5 * var_ratio + loc_ratio).exp()
    return -var_ratio.log() * 0.5 + mean_ratio - loc_ratio + t3 - (0.5 * (1 + math.log(2 * math.pi)))


@register_kl(Normal, Laplace)
def _kl_normal_laplace(p, q):
    diff = p.loc - q.loc
    std_diff = diff / p.scale
    t2 = math.sqrt(2 / math.pi) * p.scale * (-0.5 * std_diff.pow(2)).exp()
    t3 = diff * core.erf(math.sqrt(0.5) * std_diff)
    return -(p.scale / q.scale).log() + (t2 + t3) / q.scale - (0.5 * (1 + math.log(0.5 * math.pi)))


@register_kl(Uniform, Beta)
def _kl_uniform_beta(p, q):
    width = p.high - p.low
    a, b = q.concentration1, q.concentration0
    t2 = (a - 1) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    t3 = (b - 1) * (_x_log_x(1 - p.high) - _x_log_x(1 - p.low) + width) / width
    t4 = a.lgamma() + b.lgamma() - (a + b).lgamma()
    return _inf_where((p.high > 1) | (p.low < 0), t3 + t4 - width.log() - t2)


@register_kl(Uniform, Exponential)
def _kl_uniform_exponential(p, q):
    result = q.rate * (p.high + p.low) / 2 - ((p.high - p.low) * q.rate).log()
    return _inf_where(p.low < 0, result)


@register_kl(Uniform, Gamma)
def _kl_uniform_gamma(p, q):
    width = p.high - p.low
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t3 = (1 - q.concentration) * (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    result = -width.log() + t2 + t3 + q.rate * (p.high + p.low) / 2
    return _inf_where(p.low < 0, result)


@register_kl(Uniform, Gumbel)
def _kl_uniform_gumbel(p, q):
    ratio = q.scale / (p.high - p.low)
    high = (p.high - q.loc) / q.scale
    low = (p.low - q.loc) / q.scale
    return ratio.log() + 0.5 * (high + low) - ratio * ((-high).exp() - (-low).exp())


@register_kl(Uniform, Normal)
def _kl_uniform_normal(p, q):
    width = p.high - p.low
    t1 = (math.sqrt(math.pi * 2) * q.scale / width).log()
    t2 = width.pow(2) / 12
    t3 = ((p.high + p.low - 2 * q.loc) / 2).pow(2)
    return t1 + 0.5 * (t2 + t3) / q.scale.pow(2)


def _register_infinite(p_type, q_types, param):
    for q_type in q_types:
        register_kl(p_type, q_type)(lambda p, q: _infinite_like(getattr(p, param)))


_register_infinite(Beta, [], "concentration1")
_register_infinite(Exponential, [Beta, Uniform], "rate")
_register_infinite(Gamma, [Beta, Uniform], "concentration")
_register_infinite(Gumbel, [Beta, Exponential, Gamma, Uniform], "loc")
_register_infinite(Laplace, [Beta, Exponential, Gamma, Uniform], "loc")
_register_infinite(Normal, [Beta, Exponential, Gamma, Uniform], "loc")
_register_infinite(Poisson, [Bernoulli, Binomial], "rate")


def _dense(p):
    return MultivariateNormal(p.loc, scale_tril=p.scale_tril, validate_args=False)


def _check_events(p, q) -> None:
    if p.event_shape != q.event_shape:
        raise ValueError("KL-divergence between two (Low Rank) Multivariate Normals with different event shapes "
                         "cannot be computed")


@register_kl(LowRankMultivariateNormal, LowRankMultivariateNormal)
def _kl_lowrank_lowrank(p, q):
    _check_events(p, q)
    return kl_divergence(_dense(p), _dense(q))


@register_kl(MultivariateNormal, LowRankMultivariateNormal)
def _kl_mvn_lowrank(p, q):
    _check_events(p, q)
    return kl_divergence(p, _dense(q))


@register_kl(LowRankMultivariateNormal, MultivariateNormal)
def _kl_lowrank_mvn(p, q):
    _check_events(p, q)
    return kl_divergence(_dense(p), q)
