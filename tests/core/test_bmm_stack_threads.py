"""bmm of a stack of small products splits its batch over threads: the bits stay one matmul's."""

import numpy as np
import pytest

import core


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_bmm_of_a_stack_of_small_products_matches_one_matmul_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((128, 64, 32)).astype(dtype)
    b = rng.standard_normal((128, 32, 64)).astype(dtype)
    got = core.bmm(core.tensor(a), core.tensor(b)).numpy()
    assert got.tobytes() == np.matmul(a, b).tobytes()


def test_bmm_gradients_of_head_split_views_match_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    x = rng.standard_normal((128, 64 * 32)).astype(np.float32)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        q = t.reshape(128, 64, 32).transpose(0, 1)
        out = lib.bmm(q, q.transpose(1, 2))
        out.sum().backward()
        grads.append((out.detach().numpy(), t.grad.numpy()))
    for mine, theirs in zip(*grads):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-4)
