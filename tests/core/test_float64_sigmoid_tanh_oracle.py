"""float64 ``sigmoid`` and ``tanh``'s gradient round as PyTorch 2.13's AVX-512 CPU kernels do, bit for bit.

sigmoid's vector loop is ``1 / (1 + exp(-x))`` with SLEEF's ``expd_u10`` two 8-double vectors at a time, its scalar
loop (the last ``n % 16`` elements, a short or strided tensor) glibc's ``exp``; NumPy's exp differed in ~3% of the
results. ``tanh_backward``'s ``1 - y * y`` is one fused multiply-add in float64 as in float32 (two roundings
differed in ~55% of the gradients).
"""

import numpy as np
import pytest

import core

RNG = np.random.default_rng(28)
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e300, 1e-300, -1e-300, 5e-324, 709.0, -709.0, 745.2,
            -745.2, 36.7, -36.7, 20.0, -20.0]
VALUES = np.concatenate([SPECIALS, RNG.normal(0, 4, 10007), RNG.uniform(-1e-3, 1e-3, 500)])
SIZES = [1, 7, 16, 17, 100, 10007, VALUES.size]

pytestmark = pytest.mark.skipif(core._cpu.capability() != "AVX512", reason="float64 steps of ATen's AVX-512 build")


def _bits_equal(ours, theirs):
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    return bool(((ours.view(np.uint64) == theirs.view(np.uint64)) | (np.isnan(ours) & np.isnan(theirs))).all())


def _sigmoid(lib, x, grad, view=lambda t: t):
    t = lib.tensor(x, requires_grad=True)
    y = view(t).sigmoid()
    y.backward(view(lib.tensor(grad)))
    return y.detach().numpy(), t.grad.numpy()


@pytest.mark.parametrize("size", SIZES)
def test_sigmoid_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size):
    x = VALUES[:size]
    grad = RNG.normal(size=size)
    (y, g), (ty, tg) = _sigmoid(core, x, grad), _sigmoid(torch, x, grad)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


@pytest.mark.parametrize("view", [lambda t: t[::3], lambda t: t.reshape(50, 80)[:, :37],
                                  lambda t: t.reshape(80, 50).T], ids=["stepped", "rows", "transposed"])
def test_sigmoid_of_a_view_equals_torchs(torch, one_thread, view):
    x, grad = VALUES[:4000], RNG.normal(size=4000)
    (y, g), (ty, tg) = _sigmoid(core, x, grad, view), _sigmoid(torch, x, grad, view)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


def test_the_sigmoid_module_and_function_and_a_zero_dim_input(torch, one_thread):
    x = VALUES[:333]
    for c_fn, t_fn in [(core.nn.Sigmoid(), torch.nn.Sigmoid()), (core.nn.functional.sigmoid, torch.sigmoid),
                       (core.special.expit, torch.special.expit)]:
        assert _bits_equal(c_fn(core.tensor(x)).numpy(), t_fn(torch.tensor(x)).numpy())
    for v in VALUES[:40]:
        assert _bits_equal(core.tensor(v).sigmoid().numpy(), torch.tensor(v).sigmoid().numpy())


def test_in_place_sigmoid_equals_torchs(torch, one_thread):
    x = VALUES[:1001]
    assert _bits_equal(core.tensor(x).sigmoid_().numpy(), torch.tensor(x).sigmoid_().numpy())


@pytest.mark.parametrize("size", SIZES)
def test_tanh_backward_fuses_one_minus_y_squared_as_torch(torch, one_thread, size):
    """Given torch's tanh output, the gradient equals torch's (the forward is MKL's vmdTanh: not yet core's bits)."""
    y = torch.tanh(torch.tensor(VALUES[:size])).numpy()
    grad = RNG.normal(size=size)
    ours = core.ops.activation_backward.tanh_backward(core.tensor(grad), core.tensor(y)).numpy()
    assert _bits_equal(ours, torch.ops.aten.tanh_backward(torch.tensor(grad), torch.tensor(y)).numpy())


def test_tanh_backward_of_a_strided_output_and_create_graph(torch, one_thread):
    y = torch.tanh(torch.tensor(VALUES[:4000])).numpy()
    grad = RNG.normal(size=4000)
    ours = core.ops.activation_backward.tanh_backward(core.tensor(grad)[::2], core.tensor(y)[::2]).numpy()
    assert _bits_equal(ours, torch.ops.aten.tanh_backward(torch.tensor(grad)[::2], torch.tensor(y)[::2]).numpy())
    results = []
    for lib in (core, torch):
        x = lib.tensor(VALUES[20:120], requires_grad=True)
        (g,) = lib.autograd.grad(lib.tanh(x).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        results.append(gg.detach().numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12, atol=1e-15)  # (tanh itself: an ulp apart)


def test_sigmoid_of_a_large_strided_view_takes_glibcs_exp_throughout(torch, one_thread):
    x = np.concatenate([VALUES, RNG.normal(0, 4, 20000)])
    for step in (2, 3):
        assert _bits_equal(core.tensor(x)[::step].sigmoid().numpy(), torch.tensor(x)[::step].sigmoid().numpy())
