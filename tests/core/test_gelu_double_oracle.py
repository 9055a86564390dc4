"""float64 ``gelu(approximate='tanh')`` and its gradient round as PyTorch 2.13's AVX-512 ``GeluKernel`` does, bit for
bit: SLEEF's ``tanhd_u10`` on the 16-double vector steps, glibc's ``tanh`` for the rest, and the compiled loops'
fused multiply-adds (``core.nn.functional._gelu_double``). Core's composite formula differed in ~13% of outputs and
~50% of gradients.
"""

import numpy as np
import pytest

import core

RNG = np.random.default_rng(2812)
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-300, -1e-300, 5e-324, 5.0, -5.0, 8.0, -8.0, 3.5,
            -3.5, 1e8, -1e8]
VALUES = np.concatenate([SPECIALS, RNG.normal(0, 3, 10007), RNG.uniform(-1e-3, 1e-3, 500)])
SIZES = [1, 7, 16, 17, 100, 10007, VALUES.size]

pytestmark = pytest.mark.skipif(core._cpu.capability() != "AVX512", reason="float64 steps of ATen's AVX-512 build")


def _bits_equal(ours, theirs):
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    return bool(((ours.view(np.uint64) == theirs.view(np.uint64)) | (np.isnan(ours) & np.isnan(theirs))).all())


def _gelu(lib, x, grad, view=lambda t: t):
    t = lib.tensor(x, requires_grad=True)
    y = lib.nn.functional.gelu(view(t), approximate="tanh")
    y.backward(view(lib.tensor(grad)))
    return y.detach().numpy(), t.grad.numpy()


@pytest.mark.parametrize("size", SIZES)
def test_gelu_tanh_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size):
    x, grad = VALUES[:size], RNG.normal(size=size)
    (y, g), (ty, tg) = _gelu(core, x, grad), _gelu(torch, x, grad)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


@pytest.mark.parametrize("view", [lambda t: t[::3], lambda t: t.reshape(50, 80)[:, :37],
                                  lambda t: t.reshape(80, 50).T], ids=["stepped", "rows", "transposed"])
def test_gelu_tanh_of_a_view_equals_torchs(torch, one_thread, view):
    x, grad = VALUES[:4000], RNG.normal(size=4000)
    (y, g), (ty, tg) = _gelu(core, x, grad, view), _gelu(torch, x, grad, view)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


def test_the_gelu_module_and_a_zero_dim_input(torch, one_thread):
    x = VALUES[:333]
    ours = core.nn.GELU(approximate="tanh")(core.tensor(x)).numpy()
    assert _bits_equal(ours, torch.nn.GELU(approximate="tanh")(torch.tensor(x)).numpy())
    for v in VALUES[:40]:
        assert _bits_equal(core.nn.functional.gelu(core.tensor(v), approximate="tanh").numpy(),
                           torch.nn.functional.gelu(torch.tensor(v), approximate="tanh").numpy())


def test_double_backward_still_differentiates_the_formula(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(VALUES[20:120], requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.gelu(x, approximate="tanh").sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        results.append(gg.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-10, atol=1e-15)


def test_gelu_tanh_of_a_large_strided_view_takes_glibcs_tanh_throughout(torch, one_thread):
    x = np.concatenate([VALUES, RNG.normal(0, 3, 20000)])
    grad = RNG.normal(size=x.size)
    view = lambda t: t[::3]  # noqa: E731
    (y, g), (ty, tg) = _gelu(core, x, grad, view), _gelu(torch, x, grad, view)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)
