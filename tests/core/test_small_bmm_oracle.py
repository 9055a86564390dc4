"""Small batched products round as PyTorch's CPU ``bmm`` does: below 400 multiply-adds per matrix (k * n * m) its
kernel adds each element's k products in order, one rounding per product and per sum, not a blocked GEMM.

A transformer with a few tokens and small heads (an attention score ``q @ k^T`` of 7x8 by 8x7) takes that route in
``bmm``, ``baddbmm`` and every ``matmul`` PyTorch turns into ``bmm``; NumPy's BLAS rounded 40% of those scores
differently in the last bit, which a training run at the transformer's learning rate grew into the 4th digit of
its loss (sgrvinod's transformer tutorial). Values are compared bit for bit: the point is the last bit."""

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

RNG = np.random.default_rng(0)
SMALL = [(24, 7, 8, 7), (3, 11, 9, 4), (1, 5, 1, 6), (6, 1, 20, 19), (2, 19, 1, 20)]  # (batch, n, k, m), k*n*m < 400


def _pair(shape_a, shape_b, dtype):
    return RNG.standard_normal(shape_a).astype(dtype), RNG.standard_normal(shape_b).astype(dtype)


def _same_bits(ours, theirs):
    a, b = to_numpy(ours), to_numpy(theirs)
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.array_equal(a, b), f"{(a != b).mean():.0%} of the elements differ, by up to {np.abs(a - b).max()}"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("b, n, k, m", SMALL)
def test_small_bmm_rounds_as_torch(torch, b, n, k, m, dtype):
    x, y = _pair((b, n, k), (b, k, m), dtype)
    _same_bits(core.bmm(core.tensor(x), core.tensor(y)), torch.bmm(torch.tensor(x), torch.tensor(y)))


@pytest.mark.parametrize("b, n, k, m", SMALL)
def test_small_matmul_of_stacks_rounds_as_torch(torch, b, n, k, m):
    x, y = _pair((2, b, n, k), (b, k, m), np.float32)
    for lhs, rhs in ((x, y), (x[0, 0], y), (x[0, 0, 0], y), (x[0], y[:, :, :1].copy())):
        _same_bits(core.tensor(lhs) @ core.tensor(rhs), torch.tensor(lhs) @ torch.tensor(rhs))


def test_attention_scores_of_transposed_keys_round_as_torch(torch):
    q, kv = _pair((6, 4, 7, 8), (6, 4, 7, 8), np.float32)  # (batch, heads, tokens, head size)

    def scores(lib):
        return lib.matmul(lib.tensor(q), lib.tensor(kv).transpose(-2, -1)) / 8 ** 0.5
    _same_bits(scores(core), scores(torch))


@pytest.mark.parametrize("b, n, k, m", SMALL)
def test_small_baddbmm_rounds_as_torch(torch, b, n, k, m):
    x, y = _pair((b, n, k), (b, k, m), np.float32)
    c = RNG.standard_normal((b, n, m)).astype(np.float32)
    for beta, alpha in ((1, 1), (0.5, 1.5), (0, 2)):
        ours = core.baddbmm(core.tensor(c), core.tensor(x), core.tensor(y), beta=beta, alpha=alpha)
        _same_bits(ours, torch.baddbmm(torch.tensor(c), torch.tensor(x), torch.tensor(y), beta=beta, alpha=alpha))


@pytest.mark.parametrize("b, n, k, m", SMALL)
def test_small_batched_product_gradients_round_as_torch(torch, b, n, k, m):
    x, y = _pair((b, n, k), (b, k, m), np.float32)
    g = RNG.standard_normal((b, n, m)).astype(np.float32)
    results = []
    for lib in (core, torch):
        a, w = lib.tensor(x, requires_grad=True), lib.tensor(y, requires_grad=True)
        out = lib.bmm(a, w)
        out.backward(lib.tensor(g))
        assert type(out.grad_fn).__name__ == "BmmBackward0"
        results.append((out, a.grad, w.grad))
    for ours, theirs in zip(*results):
        _same_bits(ours, theirs)


def test_a_product_of_400_multiply_adds_takes_the_gemm_and_still_matches(torch):
    x, y = _pair((4, 8, 10, 5), (4, 8, 5, 10), np.float32)  # 10*5*10 = 500: PyTorch's batched GEMM
    _same_bits(core.tensor(x) @ core.tensor(y), torch.tensor(x) @ torch.tensor(y))


def test_a_small_product_of_negative_zeros_is_positive_zero_as_torchs(torch):
    x = np.zeros((2, 3, 40), np.float32)
    for k in (1, 40):  # a short and a long contraction
        y = -np.ones((2, k, 4), np.float32)
        ours = core.bmm(core.tensor(x[..., :k]), core.tensor(y))
        _same_bits(ours, torch.bmm(torch.tensor(x[..., :k]), torch.tensor(y)))
        assert not np.signbit(ours.numpy()).any()
