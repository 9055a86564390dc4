"""core's float64 softmax over the last dim as PyTorch's AVX-512 kernel computes it, bit for bit.

``_vec_softmax_lastdim`` takes SLEEF's ``expd_u10`` (``Vectorized<double>::exp``), sums each row in
``vec::reduce_all``'s order over 8 lanes and multiplies by the reciprocal of the sum; NumPy's exp, pairwise sum and
division differed from it in about half of the elements (zuko's spline flows). These run where ATen's build is
AVX-512 (``core._cpu.capability()``), where core takes those steps; elsewhere core keeps NumPy's.
"""

import numpy as np
import pytest

import core
from core import _cpu

avx512 = pytest.mark.skipif(_cpu.capability() != "AVX512", reason="core follows PyTorch's float64 softmax "
                            "kernel on its AVX-512 build only (core._softmax_kernels.softmax_double)")


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got.view(np.uint64)[~nan], want.view(np.uint64)[~nan])


@avx512
@pytest.mark.parametrize("shape", [(1,), (5,), (7, 1), (10, 3), (10, 8), (64, 10), (16, 33), (8, 100), (4, 1000),
                                   (2, 3, 17), (3000, 7)])
def test_rows_shorter_and_longer_than_a_vector_give_torchs_bits(torch, shape):
    x = np.random.default_rng(sum(shape)).normal(0, 4, shape)
    _same(core.softmax(core.from_numpy(x), -1).numpy(), torch.softmax(torch.from_numpy(x), -1).numpy())
    _same(core.nn.functional.softmax(core.from_numpy(x), dim=x.ndim - 1).numpy(),
          torch.nn.functional.softmax(torch.from_numpy(x), dim=x.ndim - 1).numpy())


@avx512
def test_a_transposed_input_a_module_and_extreme_values_give_torchs_bits(torch):
    x = np.random.default_rng(0).normal(0, 30, (40, 12))
    _same(core.from_numpy(x).t().softmax(-1).numpy(), torch.from_numpy(x).t().softmax(-1).numpy())
    _same(core.nn.Softmax(dim=1)(core.from_numpy(x)).numpy(), torch.nn.Softmax(dim=1)(torch.from_numpy(x)).numpy())
    edges = np.array([[0.0, -np.inf, 1.0], [np.inf, 1, 2], [np.nan, 1, 2], [-np.inf] * 3, [800, -800, 0],
                      [1e-300, -1e-300, 0.0], [700, 0, -700]])
    _same(core.softmax(core.from_numpy(edges), -1).numpy(), torch.softmax(torch.from_numpy(edges), -1).numpy())


@avx512
def test_the_backward_from_torchs_outputs_gives_torchs_gradient(torch):
    """The gradient uses the forward's outputs: with them as torch's, the float64 gradient follows."""
    x = np.random.default_rng(4).normal(0, 2, (6, 20))
    g = np.random.default_rng(5).normal(0, 1, (6, 20))
    a = core.tensor(x, requires_grad=True)
    b = torch.tensor(x, requires_grad=True)
    ya, yb = core.softmax(a, -1), torch.softmax(b, -1)
    _same(ya.detach().numpy(), yb.detach().numpy())
    ya.backward(core.tensor(g))
    yb.backward(torch.tensor(g))
    np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-12, atol=1e-15)
