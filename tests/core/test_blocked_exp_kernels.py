"""SLEEF's exp (``core._sleef.expf_u10``) and oneDNN's GELU (``core.nn.functional._gelu_onednn``) run blockwise
through preallocated temporaries, with two float64 shortcuts proved exact; their results must stay the bits of
the whole-array formulation they replaced (kept here as the reference) and of torch's kernels, on every size
(blocks of 8192 elements, vector loops of 32) and on the values where the kernels switch branches."""

import numpy as np
import pytest

import core
from core._sleef import expf_u10, logf_u10
from core.nn.functional import _gelu_onednn as onednn
from core.nn.functional._gelu_onednn import _COEFFS, _IDX_BIAS, _RBOUND, gelu_erf_f32, gelu_erf_grad_f32

_F32, _F64 = np.float32, np.float64
_SIZES = [*range(1, 41), 63, 64, 65, 200, 8191, 8192, 8193, 3 * 8192 + 17, 512 * 512]


def _reference_expf_u10(d):
    """The whole-array form: every SLEEF fma one float64 multiply-add rounded to float32 by a cast."""
    r_ln2 = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
    l2u, l2l = _F64(-_F32(0.693145751953125)), _F64(-_F32(1.428606765330187045e-06))
    poly = [_F64(_F32(c)) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                                    0.00833336077630519866943359, 0.0416664853692054748535156,
                                    0.166666671633720397949219, 0.5)]
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.rint(d * r_ln2)
        q64 = q.astype(_F64)
        s = (q64 * l2u + d).astype(_F32)
        s = (q64 * l2l + s).astype(_F32)
        s64 = s.astype(_F64)
        u = (s64 * poly[0] + poly[1]).astype(_F32)
        for c in poly[2:]:
            u = (s64 * u + c).astype(_F32)
        u = ((s * s).astype(_F64) * u + s64).astype(_F32) + _F32(1)
        u = np.ldexp(u, q.astype(np.int32))
        u[d < -104] = 0
        u[d > 100] = np.inf
        nan = np.isnan(d)
        u[nan] = d[nan] + _F32(0)  # (the earlier form wrote +nan: torch carries the input NaN, sign included)
    return u


def _reference_gelu(x):
    """oneDNN's GELU polynomial over the whole array (float64 fma per degree, cast to float32)."""
    pos = np.abs(x)
    idx = ((pos.view(np.int32).astype(np.int64) + _IDX_BIAS).astype(np.int32) >> 21).clip(1, 24)
    idx[_RBOUND < pos] = 23
    pos64 = pos.astype(_F64)
    p = _COEFFS[5][idx].astype(_F32)
    for degree in (4, 3, 2, 1, 0):
        p = (p.astype(_F64) * pos64 + _COEFFS[degree][idx]).astype(_F32)
    p = np.where(np.signbit(x), -p, p)
    return (x * (p + _F32(1))) * _F32(0.5)


def _fma(a, b, c):
    return (np.asarray(a, _F64) * np.asarray(b, _F64) + np.asarray(c, _F64)).astype(_F32)


def _reference_onednn_exp(x):
    underflow = x < onednn._LN_MIN
    x = np.maximum(np.minimum(x, onednn._LN_MAX), onednn._LN_MIN)
    n = np.floor(x * onednn._LOG2E + _F32(0.5))
    r = _fma(-n, onednn._LN2, x)
    scale = np.where(underflow, _F32(0), ((np.rint(n - _F32(1)).astype(np.int32) + 127) << 23).view(_F32))
    p = np.full_like(r, onednn._EXP_POL[4])
    for c in (*onednn._EXP_POL[3::-1], _F32(1)):
        p = _fma(p, r, c)
    return (p * scale) * _F32(2)


def _reference_gelu_grad(x):
    """oneDNN's GELU derivative over the whole array (the form the blockwise one replaced)."""
    with np.errstate(over="ignore", invalid="ignore"):
        u = x * onednn._ONE_OVER_SQRT2
        q = _reference_onednn_exp(-(u * u))
        t = (u * onednn._ONE_OVER_SQRTPI) * q
        w = _F32(1) / _fma(onednn._AS_P, np.abs(u), _F32(1))
        p = np.full_like(w, onednn._AS_POL[4])
        for c in onednn._AS_POL[3::-1]:
            p = _fma(p, w, c)
        erf = _fma(-q * w, p, _F32(1))
        erf = np.where(np.signbit(u), -erf, erf)
        out = _fma(erf, _F32(0.5), t + _F32(0.5))
        nan = np.isnan(x)
        out[nan] = x[nan] + _F32(0)  # (the earlier form set a NaN's sign: torch gives the input's NaN back)
        return out


def _switch_points():
    """Where the kernels change branch, with the float32 neighbours on both sides: SLEEF's range bounds and the
    half-multiples of ln 2 where q steps, the overflow and subnormal edges, oneDNN's table interval ends."""
    centres = [-104.0, 100.0, 88.72283, -87.33654, -103.27893, 5.5438633, *(k * np.log(2) / 2 for k in range(-9, 10))]
    centres += [2.0 ** e for e in range(-20, 4)]
    points = []
    for c in np.array(centres, _F32):
        for sign in (1, -1):
            v = _F32(sign * c)
            points += [np.nextafter(np.nextafter(v, -np.inf), -np.inf), np.nextafter(v, -np.inf), v,
                       np.nextafter(v, np.inf), np.nextafter(np.nextafter(v, np.inf), np.inf)]
    tiny, big = np.finfo(_F32).tiny, np.finfo(_F32).max
    points += [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, -1e-40, tiny, -tiny, big, -big, 1e-8, -1e-8]
    return np.array(points, _F32)


def _values(n, seed):
    """``n`` float32 values: the switch points first, then normal, wide uniform and log-spread samples."""
    rng = np.random.default_rng(seed)
    spread = np.sign(rng.standard_normal(n)) * 2.0 ** rng.uniform(-30, 7, n)
    body = np.where(rng.random(n) < 0.5, rng.standard_normal(n) * 4, rng.uniform(-110, 110, n))
    x = np.where(rng.random(n) < 0.3, spread, body).astype(_F32)
    points = _switch_points()
    x[:min(n, points.size)] = points[:n]
    return x


def _bits_equal(a, b):
    return np.array_equal(np.asarray(a).view(np.uint32), np.asarray(b).view(np.uint32))


def test_expf_u10_keeps_the_whole_array_forms_bits_on_a_million_values():
    x = _values(1 << 20, seed=1)
    assert _bits_equal(expf_u10(x), _reference_expf_u10(x))
    shuffled = np.random.default_rng(2).permutation(x)  # specials scattered among the blocks
    assert _bits_equal(expf_u10(shuffled), _reference_expf_u10(shuffled))


@pytest.mark.parametrize("n", _SIZES)
def test_expf_u10_keeps_the_whole_array_forms_bits_on_every_size(n):
    x = _values(n, seed=n)
    assert _bits_equal(expf_u10(x), _reference_expf_u10(x))
    finite = np.clip(np.nan_to_num(x), -80, 80)  # the range that takes the single-block path for small arrays
    assert _bits_equal(expf_u10(finite), _reference_expf_u10(finite))


def test_expf_u10_keeps_shape_and_takes_strided_input():
    x = _values(3 * 5000, seed=3).reshape(3, 5000)
    assert expf_u10(x).shape == (3, 5000)
    assert _bits_equal(expf_u10(x[:, ::2]), _reference_expf_u10(np.ascontiguousarray(x[:, ::2])))
    assert expf_u10(np.empty((0, 4), _F32)).shape == (0, 4)


def test_gelu_polynomial_and_derivative_keep_the_whole_array_forms_bits():
    for n in (1, 7, 8191, 8193, 1 << 20):
        x = _values(n, seed=n)
        assert _bits_equal(gelu_erf_f32(x), _reference_gelu(x))
        assert _bits_equal(gelu_erf_grad_f32(x), _reference_gelu_grad(x))


def test_gelu_derivative_of_a_nan_is_that_nan_quieted_as_torchs(torch):
    x = np.array([0x7FC00000, 0xFFC00000, 0x7FC12345, 0xFFC12345, 0x7F800001, 0xFF800001], np.uint32).view(_F32)
    t = torch.from_numpy(x.copy())
    assert _bits_equal(gelu_erf_grad_f32(x), torch.ops.aten.gelu_backward(torch.ones_like(t), t).numpy())


def test_zero_dim_arrays_keep_their_shape():
    x = np.array(0.75, _F32)
    for kernel, reference in ((expf_u10, _reference_expf_u10), (gelu_erf_f32, _reference_gelu),
                              (gelu_erf_grad_f32, _reference_gelu_grad)):
        out = kernel(x)
        assert out.shape == () and _bits_equal(out, reference(x.reshape(1))[0])


def _torch_bits(torch, fn, x):
    return fn(torch, torch.tensor(x)).numpy().view(np.uint32)


def _core_bits(fn, x):
    return fn(core, core.tensor(x)).numpy().view(np.uint32)


@pytest.mark.parametrize("n", _SIZES)
def test_sigmoid_is_torchs_bit_for_bit_on_every_size(torch, n):
    x = _values(n, seed=100 + n)

    def sigmoid(lib, t):
        return lib.sigmoid(t)
    assert np.array_equal(_core_bits(sigmoid, x), _torch_bits(torch, sigmoid, x))


@pytest.mark.parametrize("shape", [(1, 1), (3, 7), (200, 1), (4, 50), (7, 8193), (512, 512), (2, 3, 40)])
def test_softmax_log_softmax_and_cross_entropy_are_torchs_bit_for_bit(torch, shape):
    x = np.clip(np.nan_to_num(_values(int(np.prod(shape)), seed=7), posinf=0, neginf=0), -90, 90).reshape(shape)
    for fn in (lambda lib, t: lib.softmax(t, -1), lambda lib, t: lib.log_softmax(t, -1)):
        assert np.array_equal(_core_bits(fn, x), _torch_bits(torch, fn, x))
    target = np.random.default_rng(8).integers(0, shape[-1], int(np.prod(shape[:-1])))

    def loss(lib, t):
        return lib.nn.functional.cross_entropy(t.reshape(-1, shape[-1]), lib.tensor(target))
    assert loss(core, core.tensor(x)).item() == loss(torch, torch.tensor(x)).item()


@pytest.mark.parametrize("n", [2, 3, 31, 32, 33, 200, 8191, 8193, 512 * 512])
def test_gelu_is_torchs_bit_for_bit_on_every_size(torch, n):
    x = _values(n, seed=200 + n)

    def gelu(lib, t):
        return lib.nn.functional.gelu(t)
    assert np.array_equal(_core_bits(gelu, x), _torch_bits(torch, gelu, x))


@pytest.mark.parametrize("n", [2, 16383, 16385, 512 * 512])
def test_gelu_gradient_is_torchs_bit_for_bit_across_blocks(torch, n):
    x = _values(n, seed=300 + n)
    g = np.random.default_rng(n).standard_normal(n).astype(_F32)

    def grad(lib):
        t = lib.tensor(x, requires_grad=True)
        lib.nn.functional.gelu(t).backward(lib.tensor(g))
        return t.grad.numpy()
    assert _bits_equal(grad(core), grad(torch))  # (a NaN input's gradient is that NaN, sign included)


def test_logsigmoid_gradient_of_a_zero_dim_tensor_is_torchs(torch):
    def grad(lib):
        t = lib.tensor(0.7, requires_grad=True)
        lib.nn.functional.logsigmoid(t).backward()
        return t.grad
    ours, theirs = grad(core), grad(torch)
    assert ours.shape == theirs.shape == ()
    assert _bits_equal(ours.numpy(), theirs.numpy())


def test_logf_u10_keeps_shapes_and_takes_numpys_log_off_the_positive_normals():
    odd = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1e-40, 1e-45], _F32)
    with np.errstate(all="ignore"):
        assert _bits_equal(logf_u10(odd), np.log(odd))
    assert logf_u10(np.array(2.0, _F32)).shape == ()
    assert logf_u10(np.ones((2, 0), _F32)).shape == (2, 0)
    assert logf_u10(np.full((2, 3), 4.0, _F32)).shape == (2, 3)


def _torchs_sleef_exp(torch, x):
    """torch's own SLEEF exp of a float32 array: log_softmax's backward over rows [0, x...] with the incoming
    gradient 1 at the 0 gives g - exp(y) * 1 = -exp(y) exactly at every x (+0 where exp underflows; NaN for NaN)."""
    rows = x.reshape(-1, 64)
    y = np.concatenate([np.zeros((rows.shape[0], 1), _F32), rows], axis=1)
    g = np.zeros_like(y)
    g[:, 0] = 1
    out = torch._log_softmax_backward_data(torch.from_numpy(g), torch.from_numpy(y), 1, torch.float32)
    return _F32(0) - out.numpy()[:, 1:].reshape(x.shape)


def test_expf_u10_is_torchs_sleef_exp_bit_for_bit(torch):
    # (with the inputs where float64 lands exactly on a float32 tie in the last fma: 2^-22 - 2^-46 and its doubles)
    ties = np.array([2.3841856e-07, 4.7683713e-07, 9.5367415e-07, 1.9073481e-06, 3.8146948e-06, 7.629385e-06], _F32)
    x = _values(1 << 20, seed=9)
    x[-ties.size:] = ties
    ours, theirs = expf_u10(x), _torchs_sleef_exp(torch, x)
    nan = np.isnan(x)
    assert _bits_equal(ours[~nan], theirs[~nan]) and np.isnan(ours[nan]).all() and np.isnan(theirs[nan]).all()


@pytest.mark.parametrize("n", [1, 31, 32, 200, 8193])
def test_exp_of_the_negated_input_without_its_copy_is_the_reference_of_its_negation(n):
    """``expf_u10(x, negate=True)`` (sigmoid's exp(-x), written into ``out``) is ``exp(-x)`` bit for bit: in range,
    past SLEEF's bounds, at +-0 and at NaN of either sign."""
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(n) * 40).astype(_F32)
    x[: min(n, 4)] = np.array([np.nan, -np.nan, -0.0, 120.0], _F32)[: min(n, 4)]
    for data in (x, np.clip(np.nan_to_num(x), -80, 80)):  # (the second in range: the fused path)
        out = np.empty(n, _F32)
        got = expf_u10(data, negate=True, out=out)
        assert got.tobytes() == _reference_expf_u10(-data).tobytes() == out.tobytes()


def _general_logf_u10(d):
    """``logf_u10`` by its general route (the one that mends zeros, infinities, NaN and subnormals), which the
    positive-normal fast path (``core._sleef._logf_normal``) must match bit for bit."""
    from core import _sleef

    saved = _sleef._NO_SCALED_OVERFLOW
    _sleef._NO_SCALED_OVERFLOW = _F32(0)  # no input passes the fast path's test
    try:
        return logf_u10(d)
    finally:
        _sleef._NO_SCALED_OVERFLOW = saved


def test_logf_u10s_fast_path_for_positive_normals_gives_the_general_routes_bits():
    """The fast path lays operands side by side to make fewer NumPy calls; every 7th float32 in [0.5, 2) (the
    mantissas around the 0.75 and 1.5 switches: m's range, both branches of vgetexp; every float32 in
    [2^-10, 2^20) was checked once, 2026-12-05) and random values over the whole normal range give the general
    route's bits, in the shapes and layouts the callers pass (log_softmax's (rows, 1) sums, a strided column)."""
    from core import _sleef

    every = np.arange(0x3F000000, 0x40000000, 7, dtype=np.uint32).view(_F32)
    assert _bits_equal(logf_u10(every), _general_logf_u10(every))
    rng = np.random.default_rng(0)
    spread = rng.integers(0x00800000, 0x7F000000, 1 << 19, dtype=np.uint32).view(_F32)
    spread[:4] = [np.finfo(_F32).tiny, _sleef._NO_SCALED_OVERFLOW * _F32(0.999), 1.0, 0.75]
    assert _bits_equal(logf_u10(spread), _general_logf_u10(spread))
    sums = np.cumsum(rng.uniform(0, 3, (64, 10)).astype(_F32), axis=-1)[:, -1:]  # (64, 1), not contiguous
    column = rng.uniform(1, 100, (8, 5)).astype(_F32)[:, 2]
    for d in (sums, column, np.array(3.0, _F32), np.ones(1, _F32)):
        out = logf_u10(d)
        assert out.shape == d.shape and out.dtype == _F32
        assert _bits_equal(out, _general_logf_u10(d))
