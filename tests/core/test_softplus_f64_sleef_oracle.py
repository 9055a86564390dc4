"""float64 ``F.softplus``, ``F.silu``, ``F.logsigmoid``, ``F.mish`` and their gradients round as PyTorch 2.13's CPU
kernels do, bit for bit.

softplus's forward kernel is ``x beta > threshold ? x : log1p(exp(x beta)) / beta``: SLEEF's ``expd_u10`` and
``log1pd_u10`` two vectors (16 doubles) at a time, glibc's ``exp`` and ``log1p`` for the last ``n % 16`` elements
and for a strided input; the backward is ``g z / (z + 1)`` with ``z = exp(x beta)``, the same split. With NumPy's
exp and log1p, core's forward differed from torch's in the last bit in about 1 element in 10.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core._sleef_logd import log1pd_u10

SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 20.0, -20.0, 19.999999999999996, 20.000000000000004, 700.0,
                    -745.0, -800.0, 709.7, 1e-300, -1e-300, 5e-324, 36.7, -36.7])


def _bits_equal(ours, theirs):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    return bool(((ours.view(np.uint64) == theirs.view(np.uint64)) | (np.isnan(ours) & np.isnan(theirs))).all())


def _softplus(lib, x, grad, beta, threshold, view=None):
    t = lib.tensor(x, requires_grad=True)
    inp = view(t) if view else t
    y = lib.nn.functional.softplus(inp, beta, threshold)
    y.backward(lib.tensor(grad))
    return y.detach().numpy(), t.grad.numpy()


def _compare(torch, x, grad, beta, threshold, view=None):
    (y, g), (ty, tg) = (_softplus(lib, x, grad, beta, threshold, view) for lib in (core, torch))
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(1, 5000), seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([0.5, 4.0, 30.0, 300.0]),
       params=st.sampled_from([(1.0, 20.0), (2.0, 20.0), (0.5, 5.0), (1.0, 1000.0), (-1.0, 20.0), (3.0, -1.0),
                               (1e-3, 20.0), (10, 0.0)]),
       specials=st.booleans())
def test_softplus_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size, seed, scale, params, specials):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, scale, size)
    if specials:
        x[rng.integers(0, size, min(size, SPECIAL.size))] = SPECIAL[:min(size, SPECIAL.size)]
    grad = rng.normal(0, 1, size)
    _compare(torch, x, grad, *params)


@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(2, 90), seed=st.integers(0, 2**32 - 1))
def test_strided_and_row_views_equal_torchs(torch, one_thread, rows, cols, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 6, (rows, cols))
    views = ((lambda t: t[:, : cols // 2 + 1], (rows, cols // 2 + 1)), (lambda t: t[:, ::2], (rows, (cols + 1) // 2)),
             (lambda t: t.T, (cols, rows)))
    for view, shape in views:
        _compare(torch, x, rng.normal(0, 1, shape), 1.0, 20.0, view)


def test_log1pd_u10_is_torchs_vectorised_log1p(torch, one_thread):
    """The vector loop's log1p alone: torch's float64 log1p of 16k elements (no tail), special values included."""
    rng = np.random.default_rng(5)
    x = np.concatenate([np.exp(rng.uniform(-40, 709.7, 8192)), rng.uniform(-1, 1, 8176),
                        [-1.0, -2.0, -0.0, 0.0, np.inf, -np.inf, np.nan, 1e307, 1.1e307, 1.7e308, 5e-324, -5e-324,
                         1e-310, -0.5, 3.0, np.nextafter(-1.0, 0.0)]])
    assert _bits_equal(log1pd_u10(x), torch.from_numpy(x).log1p().numpy())


@settings(max_examples=25, deadline=None)
@given(size=st.integers(1, 5000), seed=st.integers(0, 2**32 - 1), specials=st.booleans())
def test_float64_silu_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size, seed, specials):
    """silu's kernels, ``x / (1 + exp(-x))`` and ``dy s (1 + x (1 - s))`` (the sum an fma), with the same split of
    SLEEF's ``expd_u10`` and glibc's ``exp``."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 8, size)
    if specials:
        x[rng.integers(0, size, min(size, SPECIAL.size))] = SPECIAL[:min(size, SPECIAL.size)]
    grad = rng.normal(0, 1, size)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.silu(t)
        y.backward(lib.tensor(grad))
        results.append((y.detach().numpy(), t.grad.numpy()))
    assert _bits_equal(results[0][0], results[1][0])
    assert _bits_equal(results[0][1], results[1][1])


@settings(max_examples=25, deadline=None)
@given(size=st.integers(1, 5000), seed=st.integers(0, 2**32 - 1), specials=st.booleans())
def test_float64_logsigmoid_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size, seed, specials):
    """log_sigmoid's kernel, ``min(x, 0) - log1p(exp(-|x|))``, SLEEF's on every element (its tail a partially
    loaded vector); the backward's ``(max_deriv - sign b / (1 + b)) g`` with that buffer ``b = exp(-|x|)``."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 8, size)
    if specials:
        x[rng.integers(0, size, min(size, SPECIAL.size))] = SPECIAL[:min(size, SPECIAL.size)]
    grad = rng.normal(0, 1, size)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.logsigmoid(t)
        y.backward(lib.tensor(grad))
        results.append((y.detach().numpy(), t.grad.numpy()))
    assert _bits_equal(results[0][0], results[1][0])
    assert _bits_equal(results[0][1], results[1][1])


def test_zero_dimensional_inputs_and_their_gradients(torch):
    results = []
    for lib in (core, torch):
        row = []
        for name in ("softplus", "silu", "logsigmoid", "mish"):
            x = lib.tensor(-1.3, dtype=lib.float64, requires_grad=True)
            y = getattr(lib.nn.functional, name)(x)
            y.backward()
            row += [y.detach().numpy(), x.grad.numpy()]
        results.append(row)
    for ours, theirs in zip(*results):
        assert ours.shape == theirs.shape == ()
        assert _bits_equal(ours, theirs)


@settings(max_examples=20, deadline=None)
@given(size=st.integers(1, 5000), seed=st.integers(0, 2**32 - 1), weighted=st.booleans(),
       reduction=st.sampled_from(["none", "mean", "sum"]))
def test_float64_bce_with_logits_loss_equals_torchs(torch, one_thread, size, seed, weighted, reduction):
    """The loss subtracts log_sigmoid(x) (SLEEF's, as ``F.logsigmoid``) from ``(1 - t) x``."""
    rng = np.random.default_rng(seed)
    x, t, pw = rng.normal(0, 5, size), rng.uniform(0, 1, size), rng.uniform(0.5, 2, size)
    losses = [lib.nn.functional.binary_cross_entropy_with_logits(
        lib.tensor(x), lib.tensor(t), reduction=reduction, pos_weight=lib.tensor(pw) if weighted else None).numpy()
        for lib in (core, torch)]
    assert _bits_equal(*losses)


@settings(max_examples=25, deadline=None)
@given(size=st.integers(1, 5000), seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([1.0, 8.0, 40.0]),
       specials=st.booleans())
def test_float64_mish_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size, seed, scale, specials):
    """mish's kernels, ``x tanh(log1p(exp x))`` with SLEEF's ``tanhd_u10`` (``core._sleef_tanhd``) and the rest on
    the vector steps, glibc's for the last ``n % 16``; the backward's two fmas as float32's."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, scale, size)
    if specials:
        x[rng.integers(0, size, min(size, SPECIAL.size))] = SPECIAL[:min(size, SPECIAL.size)]
    grad = rng.normal(0, 1, size)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.mish(t)
        y.backward(lib.tensor(grad))
        results.append((y.detach().numpy(), t.grad.numpy()))
    assert _bits_equal(results[0][0], results[1][0])
    assert _bits_equal(results[0][1], results[1][1])
