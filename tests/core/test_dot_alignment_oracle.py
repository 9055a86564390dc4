"""``torch.dot``, ``Tensor.dot``, ``matmul`` of two vectors and ``torch.inner`` of float32 vectors bit for bit as
PyTorch's MKL sdot adds them: the order follows each vector's address mod 16 bytes (views at offsets 0..7 floats),
a strided vector is the in-order chain, and two threads split a dot of 8192 or more elements in two halves."""

import numpy as np
import pytest

import core
from core import _small_gemm

pytestmark = pytest.mark.skipif(not _small_gemm.ACTIVE, reason="MKL's sdot order was measured on AMD Zen 4 and "
                                "Zen 3 only; on other CPUs core keeps NumPy's dot (core/_small_gemm.py)")
LENGTHS = [1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 24, 31, 40, 100, 257, 1000, 4099, 8191, 8192, 8193, 30001]


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype == np.float32 and c.shape == t.shape == ()
    assert c.view(np.uint32) == t.view(np.uint32), (c, t)


def _vectors(torch, n, seed, step=1):
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal(n * step + 8).astype(np.float32) for _ in range(2))
    return (core.tensor(a), core.tensor(b)), (torch.tensor(a), torch.tensor(b))


@pytest.fixture(params=[1, 2], ids=["1 thread", "2 threads"])
def threads(request, torch):
    before = core.get_num_threads(), torch.get_num_threads()
    core.set_num_threads(request.param)
    torch.set_num_threads(request.param)
    yield request.param
    core.set_num_threads(before[0])
    torch.set_num_threads(before[1])


@pytest.mark.parametrize("n", LENGTHS)
def test_dot_of_views_at_every_pair_of_offsets_matches_torch_bitwise(torch, threads, n):
    (ca, cb), (ta, tb) = _vectors(torch, n, n)
    for ox in range(8):
        for oy in range(8) if n <= 300 else (0, 1, 2, 3, 6):
            x, y, tx, ty = ca[ox:ox + n], cb[oy:oy + n], ta[ox:ox + n], tb[oy:oy + n]
            _same_bits(core.dot(x, y), torch.dot(tx, ty))
            if n <= 300:
                _same_bits(x.dot(y), tx.dot(ty))
                _same_bits(x @ y, tx @ ty)
                _same_bits(core.inner(x, y), torch.inner(tx, ty))


@pytest.mark.parametrize("n", [5, 13, 100, 1000, 8192, 20001])
@pytest.mark.parametrize(("sx", "sy"), [(2, 1), (1, 3), (2, 2)])
def test_dot_of_strided_vectors_matches_torch_bitwise(torch, threads, n, sx, sy):
    (ca, cb), (ta, tb) = _vectors(torch, n, 7, step=3)
    _same_bits(core.dot(ca[1:1 + n * sx:sx], cb[:n * sy:sy]), torch.dot(ta[1:1 + n * sx:sx], tb[:n * sy:sy]))


@pytest.mark.parametrize("n", [6, 40, 785])
def test_dot_with_grad_and_fresh_tensors_matches_torch_bitwise(torch, n):
    rng = np.random.default_rng(n)
    a, b = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    results = []
    for lib in (core, torch):
        x, y = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = lib.dot(x, y)
        out.backward()
        results.append((out, x.grad, y.grad, lib.inner(x, y)))
    for c, t in zip(*results, strict=True):
        np.testing.assert_array_equal(c.detach().numpy(), t.detach().numpy())
    assert type(results[0][3].grad_fn).__name__ == type(results[1][3].grad_fn).__name__ == "ViewBackward0"
    assert results[0][3].grad_fn.next_functions[0][0].name() == results[1][3].grad_fn.next_functions[0][0].name()
