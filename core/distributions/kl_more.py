"""Closed-form KL divergences PyTorch registers for the transformed and discrete families added later:
Binomial, Cauchy, Geometric, Gumbel, HalfNormal, LogNormal and TransformedDistribution pairs.
``core.distributions`` imports this module so the pairs are registered with ``kl_divergence``.
"""

from __future__ import annotations

import math

import core
from core.distributions.binomial import Binomial
from core.distributions.cauchy import Cauchy
from core.distributions.geometric import Geometric
from core.distributions.gumbel import Gumbel
from core.distributions.half_normal import HalfNormal
from core.distributions.kl import kl_divergence, register_kl
from core.distributions.log_normal import LogNormal
from core.distributions.transformed_distribution import TransformedDistribution
from core.distributions.utils import euler_constant

__all__ = []


@register_kl(Binomial, Binomial)
def _kl_binomial_binomial(p, q):
    if bool((p.total_count < q.total_count).any()):
        raise NotImplementedError("KL between Binomials where q.total_count > p.total_count is not implemented")
    kl = p.total_count * (p.probs * (p.logits - q.logits) + (-p.probs).log1p() - (-q.probs).log1p())
    return core.where(p.total_count > q.total_count, math.inf, kl)


@register_kl(Cauchy, Cauchy)
def _kl_cauchy_cauchy(p, q):
    t1 = ((p.scale + q.scale).pow(2) + (p.loc - q.loc).pow(2)).log()
    t2 = (4 * p.scale * q.scale).log()
    return t1 - t2


@register_kl(Geometric, Geometric)
def _kl_geometric_geometric(p, q):
    return -p.entropy() - (-q.probs).log1p() / p.probs - q.logits


@register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(p, q):
    ct1 = p.scale / q.scale
    ct2 = q.loc / q.scale
    ct3 = p.loc / q.scale
    t1 = -ct1.log() - ct2 + ct3
    t2 = ct1 * euler_constant
    t3 = core.exp(ct2 + (1 + ct1).lgamma() - ct3)
    return t1 + t2 + t3 - (1 + euler_constant)


@register_kl(HalfNormal, HalfNormal)
def _kl_halfnormal_halfnormal(p, q):
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(LogNormal, LogNormal)
def _kl_lognormal_lognormal(p, q):
    return kl_divergence(p.base_dist, q.base_dist)


@register_kl(TransformedDistribution, TransformedDistribution)
def _kl_transformed_transformed(p, q):
    if p.transforms != q.transforms:
        raise NotImplementedError
    if p.event_shape != q.event_shape:
        raise NotImplementedError
    return kl_divergence(p.base_dist, q.base_dist)
