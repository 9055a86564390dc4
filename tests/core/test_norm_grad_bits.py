"""The 2-norm's gradient bit for bit as PyTorch's ``norm_backward``: ``grad * (self / norm)`` (masked where the
norm is 0). Core multiplied ``grad * self / norm``: a third of the gradients of ``x.norm(dim=1)`` and of
``pairwise_distance`` (and through them of ``cosine_similarity`` and ``normalize``) differed by an ulp."""

from __future__ import annotations

import numpy as np
import pytest

import core

OPS = {"norm_dim": lambda L, t: t.reshape(-1, 7).norm(dim=1), "norm_all": lambda L, t: t.norm(),
       "vector_norm_keep": lambda L, t: L.linalg.vector_norm(t.reshape(-1, 7), dim=1, keepdim=True),
       "pairwise_distance": lambda L, t: L.nn.functional.pairwise_distance(t.reshape(-1, 7), t.reshape(-1, 7).flip(0)),
       "dist": lambda L, t: L.dist(t, t.flip(0)),
       "cosine_similarity": lambda L, t: L.nn.functional.cosine_similarity(t.reshape(-1, 7), t.reshape(-1, 7).flip(0)),
       "normalize": lambda L, t: L.nn.functional.normalize(t.reshape(-1, 7), dim=1)}


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("n", [7, 700, 21000])
def test_two_norm_gradients_match_torch_bit_for_bit(torch, name, n):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 2).astype(np.float32)
    x[:7] = 0  # a zero row: the masked gradient

    def grad(lib):
        t = lib.tensor(x, requires_grad=True)
        y = OPS[name](lib, t)
        y.backward(lib.tensor(np.random.default_rng(1).standard_normal(tuple(y.shape)).astype(np.float32)))
        return t.grad.numpy().view(np.uint32)
    np.testing.assert_array_equal(grad(core), grad(torch))
