"""core._saxpy: the BLAS's fused saxpy as SGD's float32 update, used only where a probe proved it rounds once.

PyTorch's ``param.add_(grad, alpha=-lr)`` is a fused multiply-add; ``core._fused.scaled_add_f32_`` gives its bits
through the BLAS's ``saxpy`` where that fuses, else in float64 with the ties mended. Both routes must give torch's
bits, on tie-making inputs, every tail length and start offset, and the corner cases the BLAS would skip.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import _cpu, _fused, _saxpy


@pytest.fixture(params=["saxpy", "float64"])
def route(request, monkeypatch):
    """Each test once with the BLAS's saxpy (where this process has a fusing one) and once without it."""
    if request.param == "saxpy":
        if not _saxpy.available():
            pytest.skip("NumPy's BLAS has no saxpy that fuses here: the float64 route is the only one")
    else:
        monkeypatch.setattr(_saxpy, "_state", {"axpy": None, "ready": True})
    return request.param


def _tie_update(n, seed):
    """A parameter, its gradient and a learning rate such that ``param - lr * grad`` computed in float64 lands on
    a float32 halfway point for four elements in five (the exact value a hair inside it): ``lr = (1 + m 2^-23)
    2^-5``, ``grad = ±(1 - m 2^-23) 2^(s + 5)``, so ``lr * grad = ±2^s (1 - m^2 2^-46)``, a hair under half the ulp
    ``2^(s + 1)`` of a parameter in ``[2^(s + 24), 2^(s + 25))``; the rest plain random values."""
    rng = np.random.default_rng(seed)
    m = 77
    lr = float(np.float32((1 + m * 2.0 ** -23) * 2.0 ** -5))
    s = rng.integers(-40, -10, n)
    g = ((1 - m * 2.0 ** -23) * np.exp2(s + 5) * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    c = (rng.uniform(1, 2, n) * np.exp2(s + 24) * rng.choice([-1.0, 1.0], n)).astype(np.float32)
    plain = slice(n - n // 5, n)
    c[plain], g[plain] = (rng.standard_normal((2, n // 5)) * 10).astype(np.float32)
    return c, g, lr


def test_the_updates_do_land_on_float32_ties_in_float64():
    c, g, lr = _tie_update(4000, seed=0)
    t = c - np.float64(np.float32(lr)) * g
    assert ((t.view(np.uint64) & ((1 << 29) - 1)) == (1 << 28)).sum() > 3000  # else the tests prove nothing


@pytest.mark.parametrize("n", [512, 513, 1000, 4099, 32768 + 5, 200704])
def test_sgd_update_of_a_large_parameter_gives_torchs_bits_on_ties(torch, route, n):
    c, g, lr = _tie_update(n, seed=n)
    results = []
    for lib in (core, torch):
        p = lib.tensor(c, requires_grad=True)
        p.grad = lib.tensor(g)
        lib.optim.SGD([p], lr=lr).step()
        results.append(p.detach().numpy())
    np.testing.assert_array_equal(results[0].view(np.uint32), results[1].view(np.uint32))


@pytest.mark.parametrize("offset", [0, 1, 3, 7, 15])
def test_every_tail_length_and_offset_gives_torchs_bits(torch, route, offset):
    c, g, lr = _tie_update(4096, seed=offset)
    alpha = -np.float32(lr)
    for n in (511, 512, 513, 527, 543, 575, 600, 1023, 1031):
        x = np.empty(n + offset, np.float32)[offset:]  # starts ``offset`` floats into an allocation
        x[...] = c[:n]
        _fused.scaled_add_f32_(x, g[:n], np.float64(alpha))
        want = torch.from_numpy(c[:n].copy()).add_(torch.from_numpy(g[:n]), alpha=float(alpha)).numpy()
        np.testing.assert_array_equal(x.view(np.uint32), want.view(np.uint32))


def test_zero_learning_rate_keeps_torchs_signed_zeros_and_nans(torch, route):
    """``alpha == 0``, where a BLAS returns early: torch's fma still turns ``-0 + 0 * -g`` into +0 and inf into NaN."""
    n = 1024
    c = np.where(np.arange(n) % 2 == 0, np.float32(-0.0), np.float32(1.5)).astype(np.float32)
    g = np.full(n, -2.0, np.float32)
    g[5], g[6] = np.inf, np.nan
    results = []
    for lib in (core, torch):
        p = lib.tensor(c, requires_grad=True)
        p.grad = lib.tensor(g)
        lib.optim.SGD([p], lr=0.0).step()
        results.append(p.detach().numpy())
    np.testing.assert_array_equal(results[0].view(np.uint32), results[1].view(np.uint32))


def test_strided_and_overlapping_operands_take_the_float64_route_with_torchs_bits(torch, route):
    c, g, lr = _tie_update(4000, seed=9)
    alpha = np.float64(np.float32(-lr))
    x = c.copy()
    _fused.scaled_add_f32_(x[::2], g[::2], alpha)  # strided: no saxpy
    want = torch.from_numpy(c.copy())
    want[::2].add_(torch.from_numpy(g[::2]), alpha=float(alpha))
    np.testing.assert_array_equal(x, want.numpy())
    shared = c.copy()
    _fused.scaled_add_f32_(shared[:2000], shared[1000:3000], alpha)  # overlapping: computed from a copy
    t = torch.from_numpy(c.copy())
    t[:2000].add_(t[1000:3000].clone(), alpha=float(alpha))
    np.testing.assert_array_equal(shared, t.numpy())


def test_the_probe_refuses_a_saxpy_that_rounds_twice():
    """A kernel that rounds the product and the sum separately, or through float64, fails the probe; a fused one
    (emulated exactly with ``core._fused``) passes."""
    import ctypes

    def emulated(rounding):
        def axpy(n, alpha, px, incx, py, incy):
            x = np.ctypeslib.as_array(ctypes.cast(px, ctypes.POINTER(ctypes.c_float)), (n,))
            y = np.ctypeslib.as_array(ctypes.cast(py, ctypes.POINTER(ctypes.c_float)), (n,))
            a = np.float32(alpha.value)
            y[...] = rounding(a, x, y)
        return axpy

    assert not _saxpy._fuses(emulated(lambda a, x, y: y + a * x))  # float32, two roundings
    assert not _saxpy._fuses(emulated(lambda a, x, y: (np.float64(a) * x + y).astype(np.float32)))  # via float64
    assert _saxpy._fuses(emulated(lambda a, x, y: _fused.fma(np, a, x, y)))


def _emulated_axpy(rounding):
    """A ctypes-style ``axpy(n, alpha, px, incx, py, incy)`` computing ``y = rounding(alpha, x, y)`` in NumPy."""
    import ctypes

    def axpy(n, alpha, px, incx, py, incy):
        px = px if isinstance(px, int) else ctypes.addressof(px._obj)  # (saxpy_ passes byref() of a c_char)
        py = py if isinstance(py, int) else ctypes.addressof(py._obj)
        x = np.ctypeslib.as_array(ctypes.cast(px, ctypes.POINTER(ctypes.c_float)), (n,))
        y = np.ctypeslib.as_array(ctypes.cast(py, ctypes.POINTER(ctypes.c_float)), (n,))
        a = np.float32(alpha.value if hasattr(alpha, "value") else alpha)
        y[...] = rounding(a, x, y)
    return axpy


def _haswell_like(a, x, y):
    """OpenBLAS's Haswell saxpy as measured on the AMD Zen 3: whole blocks of 32 fused, the tail rounded twice."""
    body = x.size // 32 * 32
    out = (y + a * x).astype(np.float32)
    out[:body] = _fused.fma(np, a, x[:body], y[:body])
    return out


def test_a_kernel_that_fuses_only_whole_blocks_of_32_passes_the_block_probe_only():
    """The Zen 3's kernel: fused in its vector body, not in its tail; the whole-length probe refuses it, the probe
    on multiples of 32 accepts it (and refuses a kernel that rounds twice everywhere)."""
    haswell = _emulated_axpy(_haswell_like)
    assert not _saxpy._fuses(haswell)
    assert _saxpy._fuses(haswell, 32)
    assert not _saxpy._fuses(_emulated_axpy(lambda a, x, y: y + a * x), 32)


def _float64_route(x, y, alpha):
    """The reference: ``x + alpha * y`` in float64, the ties mended, rounded once (the callers' own route)."""
    t = y.astype(np.float64) * np.float64(alpha)
    t += x
    return _fused.single_rounding(t, y, np.float64(alpha), x).astype(np.float32)


_SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.1754944e-38, 3.4028235e38, 1.0],
                    np.float32)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 200), offset=st.integers(0, 15), seed=st.integers(0, 2 ** 32 - 1),
       specials=st.integers(0, 8), kernel=st.sampled_from(["loaded", "haswell"]))
def test_saxpy_gives_the_float64_routes_bits_at_every_length_offset_and_special_value(n, offset, seed, specials,
                                                                                     kernel):
    """``saxpy_`` (whole blocks through the kernel, the tail through a padded block, here at any length) against the
    float64 route, bit for bit (NaN where it gives NaN), on tie-making updates with special values mixed in, every
    length and start offset; with this machine's kernel where it fuses, and with the Haswell-like one emulated."""
    if kernel == "loaded":
        if not _saxpy.available():
            return
        state = {"axpy": _saxpy._state["axpy"], "ready": True, "block": _saxpy._state["block"]}
    else:
        state = {"axpy": _emulated_axpy(_haswell_like), "ready": True, "block": 32}
    c, g, lr = _tie_update(n + 5, seed=seed % 1000)
    rng = np.random.default_rng(seed)
    for arr in (c, g):
        arr[rng.integers(0, n + 5, specials)] = rng.choice(_SPECIAL, specials)
    alpha = np.float32(-lr)
    x = np.empty(n + offset, np.float32)[offset:]
    x[...] = c[:n]
    want = _float64_route(c[:n], g[:n], alpha)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_saxpy, "_state", state)
        assert _saxpy.saxpy_(x.copy(), g[:n], alpha) == (n % state["block"] == 0)  # (a short tail: the caller's)
        patch.setattr(_saxpy, "_PADDED_FROM", 0)  # every tail through the padded block, short or long
        assert _saxpy.saxpy_(x, g[:n], alpha)
    assert np.array_equal(np.isnan(x), np.isnan(want))
    keep = ~np.isnan(want)
    np.testing.assert_array_equal(x[keep].view(np.uint32), want[keep].view(np.uint32))


@pytest.mark.parametrize("n", [511, 512, 1000, 70000])
def test_lerp_and_an_fma_with_a_number_give_torchs_bits(torch, route, n):
    """``fma_`` with a number (``lerp_``'s small-weight form: Adam's first moment) takes the saxpy too."""
    c, g, lr = _tie_update(n, seed=n + 1)
    got = c.copy()
    _fused.fma_(np, got, np.float32(lr), g)
    want = torch.from_numpy(c.copy()).add_(torch.from_numpy(g), alpha=float(np.float32(lr))).numpy()
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    for weight in (0.1, 0.3, 0.7):
        got = c.copy()
        _fused.lerp_(np, got, g, weight)
        want = torch.from_numpy(c.copy()).lerp_(torch.from_numpy(g), weight).numpy()
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("name", ["Adam", "AdamW"])
def test_adam_steps_on_a_large_parameter_give_torchs_bits(torch, route, name):
    c, g, _ = _tie_update(256 * 40, seed=5)
    results = []
    for lib in (core, torch):
        p = lib.tensor(c.reshape(256, 40), requires_grad=True)
        opt = getattr(lib.optim, name)([p], lr=1e-3)
        for k in range(3):
            p.grad = lib.tensor(g.reshape(256, 40) * np.float32(k + 1))
            opt.step()
        results.append(p.detach().numpy())
    if not _cpu.mkl_vml_rounds_correctly() and not _cpu.mkl_vml_sse_sqrt():
        # torch's single-tensor Adam takes ``exp_avg_sq.sqrt()``, a float32 sqrt through MKL's vector math, which on
        # an AMD CPU is not correctly rounded (16-17% of the square roots one ulp off NumPy's, at most 0.75 ulp from
        # exact): core reproduces it on AMD Zen 4 (core._mkl_vml), elsewhere on AMD after three steps ~200 of
        # 10,240 parameters differ, by at most 4 ulp. There each parameter within 4 ulp, and at most 3% of them off
        ulps = np.abs(results[0].view(np.int32).astype(np.int64) - results[1].view(np.int32))
        assert ulps.max() <= 4 and np.count_nonzero(ulps) <= 0.03 * ulps.size, (ulps.max(), np.count_nonzero(ulps))
        return
    np.testing.assert_array_equal(results[0].view(np.uint32), results[1].view(np.uint32))


@pytest.mark.parametrize("shapes", [[(3, 5), (7,), (2, 2)], [(8, 2), (8,), (8, 8), (8,), (1, 8), (1,)],
                                    [(300, 5), (64,), (20, 20), (3,)]])
def test_sgd_on_a_group_of_small_parameters_laid_end_to_end_gives_torchs_bits(torch, route, shapes):
    total = sum(int(np.prod(s)) for s in shapes)
    c, g, lr = _tie_update(total, seed=total)
    results = []
    for lib in (core, torch):
        params, start = [], 0
        for s in shapes:
            k = int(np.prod(s))
            p = lib.tensor(c[start:start + k].reshape(s), requires_grad=True)
            p.grad = lib.tensor(g[start:start + k].reshape(s))
            params.append(p)
            start += k
        lib.optim.SGD(params, lr=lr).step()
        results.append(np.concatenate([p.detach().numpy().reshape(-1) for p in params]))
    np.testing.assert_array_equal(results[0].view(np.uint32), results[1].view(np.uint32))


@pytest.mark.parametrize("shape", [(1000,), (40, 30), (30, 40)])
def test_add_and_sub_with_alpha_give_torchs_bits(torch, route, shape):
    """``x.add(y, alpha=a)`` (and sub, add_) of float32 tensors: x copied, then the saxpy; a transposed operand
    takes the float64 route."""
    n = int(np.prod(shape))
    c, g, lr = _tie_update(n, seed=n + 7)
    results = []
    for lib in (core, torch):
        x, y = lib.tensor(c.reshape(shape)), lib.tensor(g.reshape(shape))
        inplace = x.clone()
        inplace.add_(y, alpha=lr)
        out = [x.add(y, alpha=lr), x.sub(y, alpha=-lr), inplace, x.t().add(y.t(), alpha=lr) if len(shape) == 2 else x]
        results.append([o.contiguous().numpy() for o in out])
    for got, want in zip(*results):
        np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))


@pytest.mark.parametrize("options", [dict(momentum=0.9), dict(momentum=0.9, weight_decay=1e-2, nesterov=True),
                                     dict(weight_decay=1e-2, maximize=True)])
def test_sgd_with_momentum_and_weight_decay_gives_torchs_bits(torch, route, options):
    c, g, lr = _tie_update(300 * 40, seed=11)
    results = []
    for lib in (core, torch):
        p = lib.tensor(c.reshape(300, 40), requires_grad=True)
        opt = lib.optim.SGD([p], lr=lr, **options)
        for k in range(3):
            p.grad = lib.tensor(g.reshape(300, 40) * np.float32(1 + k))
            opt.step()
        results.append(p.detach().numpy())
    np.testing.assert_array_equal(results[0].view(np.uint32), results[1].view(np.uint32))


def test_sgd_over_empty_parameters_steps_as_torch(torch, route):
    """Empty parameters laid end to end make an empty update (nothing for the BLAS to do)."""
    results = []
    for lib in (core, torch):
        params = [lib.zeros(0, requires_grad=True), lib.zeros(0, 3, requires_grad=True),
                  lib.ones(2, requires_grad=True)]
        for p in params:
            p.grad = lib.ones(p.shape)
        lib.optim.SGD(params, lr=0.5).step()
        results.append([p.detach().numpy() for p in params])
    for got, want in zip(*results):
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
