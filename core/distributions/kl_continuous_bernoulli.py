"""KL divergences with ``ContinuousBernoulli`` on either side, as PyTorch registers them: closed forms against
ContinuousBernoulli, Beta, Exponential, Normal and Uniform, and infinity where the supports do not nest (a
[0, 1]-valued p against Pareto; unbounded p's against a ContinuousBernoulli q)."""

from __future__ import annotations

import math

import core
from core.distributions.beta import Beta
from core.distributions.continuous_bernoulli import ContinuousBernoulli
from core.distributions.exponential import Exponential
from core.distributions.gamma import Gamma
from core.distributions.gumbel import Gumbel
from core.distributions.kl import register_kl
from core.distributions.laplace import Laplace
from core.distributions.normal import Normal
from core.distributions.pareto import Pareto
from core.distributions.uniform import Uniform

__all__: list = []


def _infinite_like(t):
    return core.full_like(t, math.inf)


@register_kl(ContinuousBernoulli, ContinuousBernoulli)
def _kl_cb_cb(p, q):
    t1 = p.mean * (p.logits - q.logits)
    t2 = p._cont_bern_log_norm() + core.log1p(-p.probs)
    t3 = -q._cont_bern_log_norm() - core.log1p(-q.probs)
    return t1 + t2 + t3


@register_kl(Beta, ContinuousBernoulli)
def _kl_beta_cb(p, q):
    return -p.entropy() - p.mean * q.logits - core.log1p(-q.probs) - q._cont_bern_log_norm()


@register_kl(ContinuousBernoulli, Pareto)
def _kl_cb_infinity(p, q):
    return _infinite_like(p.probs)


@register_kl(ContinuousBernoulli, Exponential)
def _kl_cb_exponential(p, q):
    return -p.entropy() - core.log(q.rate) + q.rate * p.mean


@register_kl(ContinuousBernoulli, Normal)
def _kl_cb_normal(p, q):
    t1 = -p.entropy()
    t2 = 0.5 * (math.log(2.0 * math.pi) + core.square(q.loc / q.scale)) + core.log(q.scale)
    t3 = (p.variance + core.square(p.mean) - 2.0 * q.loc * p.mean) / (2.0 * core.square(q.scale))
    return t1 + t2 + t3


@register_kl(ContinuousBernoulli, Uniform)
def _kl_cb_uniform(p, q):
    result = -p.entropy() + (q.high - q.low).log()
    outside = core.max(core.ge(q.low, p.support.lower_bound), core.le(q.high, p.support.upper_bound))
    return core.where(outside, core.ones_like(result) * math.inf, result)


@register_kl(Uniform, ContinuousBernoulli)
def _kl_uniform_cb(p, q):
    result = -p.entropy() - p.mean * q.logits - core.log1p(-q.probs) - q._cont_bern_log_norm()
    outside = core.max(core.ge(p.high, q.support.upper_bound), core.le(p.low, q.support.lower_bound))
    return core.where(outside, core.ones_like(result) * math.inf, result)


def _register_infinite(family, parameter: str) -> None:
    register_kl(family, ContinuousBernoulli)(lambda p, q: _infinite_like(getattr(p, parameter)))


for _family, _parameter in ((Exponential, "rate"), (Gamma, "concentration"), (Gumbel, "loc"), (Laplace, "loc"),
                            (Normal, "loc"), (Pareto, "scale")):
    _register_infinite(_family, _parameter)
