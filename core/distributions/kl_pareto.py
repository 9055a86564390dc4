"""The KL divergences PyTorch registers for ``Pareto``: against Pareto, Exponential, Gamma and Normal
(infinite where ``q``'s moments don't exist), from Uniform, and infinite pairs where ``q``'s support is
smaller. ``core.distributions`` imports this module so the pairs are registered."""

from __future__ import annotations

import math

from core.distributions.beta import Beta
from core.distributions.exponential import Exponential
from core.distributions.gamma import Gamma
from core.distributions.gumbel import Gumbel
from core.distributions.kl import register_kl
from core.distributions.kl_mixed import _inf_where, _infinite_like, _x_log_x
from core.distributions.laplace import Laplace
from core.distributions.normal import Normal
from core.distributions.pareto import Pareto
from core.distributions.uniform import Uniform

__all__ = []


@register_kl(Pareto, Pareto)
def _kl_pareto_pareto(p, q):
    alpha_ratio = q.alpha / p.alpha
    result = q.alpha * (p.scale / q.scale).log() - alpha_ratio.log() + alpha_ratio - 1
    return _inf_where(p.scale < q.scale, result)


@register_kl(Pareto, Exponential)
def _kl_pareto_exponential(p, q):
    prod = p.scale * q.rate
    result = (p.alpha / prod).log() - p.alpha.reciprocal() + p.alpha * prod / (p.alpha - 1) - 1
    return _inf_where(p.alpha <= 1, result)


@register_kl(Pareto, Gamma)
def _kl_pareto_gamma(p, q):
    common = p.scale.log() + p.alpha.reciprocal()
    t2 = q.concentration.lgamma() - q.concentration * q.rate.log()
    t4 = q.rate * p.alpha * p.scale / (p.alpha - 1)
    result = p.alpha.log() - common + t2 + (1 - q.concentration) * common + t4 - 1
    return _inf_where(p.alpha <= 1, result)


@register_kl(Pareto, Normal)
def _kl_pareto_normal(p, q):
    var_normal = 2 * q.scale.pow(2)
    common = p.scale / (p.alpha - 1)
    t1 = (math.sqrt(2 * math.pi) * q.scale * p.alpha / p.scale).log()
    t3 = p.alpha * common.pow(2) / (p.alpha - 2)
    t4 = (p.alpha * common - q.loc).pow(2)
    return _inf_where(p.alpha <= 2, t1 - p.alpha.reciprocal() + (t3 + t4) / var_normal - 1)


@register_kl(Uniform, Pareto)
def _kl_uniform_pareto(p, q):
    width = p.high - p.low
    t1 = (q.alpha * q.scale.pow(q.alpha) * width).log()
    t2 = (_x_log_x(p.high) - _x_log_x(p.low) - width) / width
    return _inf_where(p.low < q.scale, t2 * (q.alpha + 1) - t1)


for _q in (Beta, Uniform):
    register_kl(Pareto, _q)(lambda p, q: _infinite_like(p.scale))
for _p, _param in ((Beta, "concentration1"), (Exponential, "rate"), (Gamma, "concentration"), (Gumbel, "loc"),
                   (Laplace, "loc"), (Normal, "loc")):
    register_kl(_p, Pareto)(lambda p, q, _param=_param: _infinite_like(getattr(p, _param)))
