"""``LKJCholesky(dim, concentration)``: the LKJ distribution over Cholesky factors of correlation matrices,
drawn by the onion method (Lewandowski, Kurowicka & Joe, 2009) in PyTorch's order (a Beta draw per row, then
normal draws for the directions), so seeded draws are PyTorch's; its log-density is PyTorch's."""

from __future__ import annotations

import math

import core
from core.distributions import constraints
from core.distributions.beta import Beta
from core.distributions.distribution import Distribution
from core.distributions.utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution over the lower Cholesky factors of ``dim`` x ``dim`` correlation matrices, with
    ``concentration`` eta (1 is uniform over correlation matrices), sampled by the onion method."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        marginal = self.concentration + 0.5 * (self.dim - 2)
        offset = core.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = core.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal.unsqueeze(-1) - 0.5 * offset)
        super().__init__(self.concentration.size(), core.Size((dim, dim)), validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = core.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=()):
        with core.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u_normal = core.randn(self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(-1)
            u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
            u_hypersphere[..., 0, :].fill_(0.0)  # the first row's 0/0
            w = core.sqrt(y) * u_hypersphere
            diag = core.clamp(1 - core.sum(w ** 2, dim=-1), min=core.finfo(w.dtype).tiny).sqrt()
            return w + core.diag_embed(diag)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        diag = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = core.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = core.sum(order * diag.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalizer = 0.5 * dm1 * math.log(math.pi) + core.mvlgamma(alpha - 0.5, dm1) - core.lgamma(alpha) * dm1
        return unnormalized - normalizer
