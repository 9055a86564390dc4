"""float64 ``gelu`` (the exact, erf form) and its gradient round as PyTorch 2.13's AVX-512 ``GeluKernel`` does, bit for
bit: SLEEF's ``erfd_u10`` and ``expd_u10`` on the 16-double vector steps (the gradient's ``cdf + x * pdf`` one fused
multiply-add), glibc's ``erf`` and ``exp`` for the rest, unfused (``core.nn.functional._gelu_double``).
"""

import numpy as np
import pytest

import core
from core._sleef_erfd import erfd_u10

RNG = np.random.default_rng(2913)
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-300, -1e-300, 5e-324, -5e-324, 2.5, -2.5,
            3.5355339059327378, -3.5355339059327378, 8.0, -8.0, 8.49, -8.49, 1e-8, -1e-8, 1.5e-8, 37.0, -37.0, -37.9,
            -38.3, -39.0, 1e8, -1e8]
VALUES = np.concatenate([SPECIALS, RNG.normal(0, 3, 10007), RNG.uniform(-1e-3, 1e-3, 500)])
SIZES = [1, 7, 8, 9, 16, 17, 100, 10007, VALUES.size]

pytestmark = pytest.mark.skipif(core._cpu.capability() != "AVX512", reason="float64 steps of ATen's AVX-512 build")


def _bits_equal(ours, theirs):
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    return bool(((ours.view(np.uint64) == theirs.view(np.uint64)) | (np.isnan(ours) & np.isnan(theirs))).all())


def _gelu(lib, x, grad, view=lambda t: t):
    t = lib.tensor(x, requires_grad=True)
    y = lib.nn.functional.gelu(view(t))
    y.backward(view(lib.tensor(grad)))
    return y.detach().numpy(), t.grad.numpy()


def test_sleefs_erf_is_erf_within_an_ulp():
    import math
    x = np.concatenate([RNG.uniform(-7, 7, 3000), RNG.normal(0, 1e-4, 300), SPECIALS[:5]])
    ours = erfd_u10(x)
    expected = np.array([math.erf(v) for v in x])
    finite = np.isfinite(x)
    assert (np.abs(ours - expected)[finite] <= np.spacing(np.abs(expected))[finite]).all()
    assert np.isnan(ours[~finite & np.isnan(x)]).all() and (ours[np.isinf(x)] == np.sign(x[np.isinf(x)])).all()


def test_sleefs_erf_of_each_element_is_the_same_alone_or_among_others():
    """(core takes the elements up to 2.5 and those above through separate steps: SLEEF's lanes are independent.)"""
    x = np.concatenate([SPECIALS, RNG.uniform(-7, 7, 300)])
    together = erfd_u10(x)
    alone = np.concatenate([erfd_u10(x[i:i + 1]) for i in range(x.size)])
    assert _bits_equal(together, alone)
    assert _bits_equal(erfd_u10(x.reshape(-1, 1)[:, 0]), together)


@pytest.mark.parametrize("size", SIZES)
def test_gelu_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size):
    x, grad = VALUES[:size], RNG.normal(size=size)
    (y, g), (ty, tg) = _gelu(core, x, grad), _gelu(torch, x, grad)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


@pytest.mark.parametrize("k", [1, 5, 20])
def test_normal_samples_of_each_scale_equal_torchs(torch, one_thread, k):
    x, grad = RNG.normal(0, k, 4000), RNG.normal(size=4000)
    (y, g), (ty, tg) = _gelu(core, x, grad), _gelu(torch, x, grad)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


@pytest.mark.parametrize("view", [lambda t: t[::3], lambda t: t.reshape(50, 80)[:, :37],
                                  lambda t: t.reshape(80, 50).T], ids=["stepped", "rows", "transposed"])
def test_gelu_of_a_view_equals_torchs(torch, one_thread, view):
    x, grad = VALUES[:4000], RNG.normal(size=4000)
    (y, g), (ty, tg) = _gelu(core, x, grad, view), _gelu(torch, x, grad, view)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


def test_the_gelu_module_and_a_zero_dim_input(torch, one_thread):
    x = VALUES[:333]
    assert _bits_equal(core.nn.GELU()(core.tensor(x)).numpy(), torch.nn.GELU()(torch.tensor(x)).numpy())
    for v in VALUES[:40]:
        assert _bits_equal(core.nn.functional.gelu(core.tensor(v)).numpy(),
                           torch.nn.functional.gelu(torch.tensor(v)).numpy())


def test_double_backward_still_differentiates_the_formula(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(VALUES[30:130], requires_grad=True)
        (g,) = lib.autograd.grad(lib.nn.functional.gelu(x).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        results.append(gg.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-10, atol=1e-15)
