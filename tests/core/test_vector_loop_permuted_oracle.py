"""Elementwise kernels on a permuted view of a whole tensor vectorise as PyTorch's TensorIterator does.

TensorIterator sorts an operand's dims by stride and coalesces them, so a permuted view whose elements still fill
one block of memory (attention's queries after ``rearrange('b n (h d) -> b h n d')`` and a transpose) runs as one
loop over memory: SLEEF's vector forms on whole pairs of vectors, the C library's for the last ``n % 32``, and a
result in the operand's layout. Core's ``vector_loop`` saw rows of 8 contiguous elements (the head dim) and took
glibc's scalar forms for all of them: x-transformers' polar positional embedding (``F.softplus`` of the permuted
queries) differed from torch in the last bit of ~15% of its values, with C-order strides where torch's follow the
input's. Values are compared bit for bit, and the strides."""

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

RNG = np.random.default_rng(11)
PERMUTED = [((2, 10, 2, 8), (0, 2, 1, 3)), ((3, 5, 7), (2, 0, 1)), ((2, 3, 4, 8), (3, 1, 0, 2)),
            ((4, 40), (1, 0)), ((6, 4, 9), (2, 1, 0))]


def _both(torch, shape, perm, fn):
    base = (RNG.standard_normal(shape) * 3).astype(np.float32)
    return [fn(lib, lib.tensor(base).permute(*perm)) for lib in (core, torch)]


def _same(ours, theirs):
    assert ours.stride() == theirs.stride()
    assert np.array_equal(to_numpy(ours), to_numpy(theirs))


@pytest.mark.parametrize("shape, perm", PERMUTED)
@pytest.mark.parametrize("name", ["softplus", "silu", "mish", "elu"])
def test_activation_of_permuted_view_rounds_as_torch(torch, shape, perm, name):
    _same(*_both(torch, shape, perm, lambda lib, t: getattr(lib.nn.functional, name)(t)))


@pytest.mark.parametrize("shape, perm", PERMUTED)
def test_softplus_with_beta_and_gradient_of_permuted_view_round_as_torch(torch, shape, perm):
    def run(lib, t):
        t.requires_grad_()
        out = lib.nn.functional.softplus(t, beta=2.0, threshold=5.0)
        out.backward(lib.ones_like(out))
        return out, t.grad
    (ours, ours_grad), (theirs, theirs_grad) = _both(torch, shape, perm, run)
    _same(ours, theirs)
    assert np.array_equal(to_numpy(ours_grad), to_numpy(theirs_grad))


def test_polar_embedding_of_permuted_queries_rounds_as_torch(torch):
    """x-transformers' ``apply_polar_pos_emb``: softplus of the (b, h, n, d) queries, times cos and sin of the
    position frequencies, concatenated."""
    q = RNG.standard_normal((2, 10, 16)).astype(np.float32)
    freqs = RNG.standard_normal((1, 10, 8)).astype(np.float32)
    outs = []
    for lib in (core, torch):
        t = lib.nn.functional.softplus(lib.tensor(q).view(2, 10, 2, 8).transpose(1, 2))
        f = lib.tensor(freqs)
        outs.append(lib.cat((t * f.cos(), t * f.sin()), dim=-1))
    _same(*outs)
