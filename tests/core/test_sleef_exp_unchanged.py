"""SLEEF's float32 exp (``core._sleef.expf_u10``) with its scratch kept per thread, q and x copied to float64 before
their float64 steps, and 2^q looked up as a float32 factor in place of ``ldexp``, gives the bits of the version it
replaced (issue #23).

The reference below is ``expf_u10`` and its block helpers as they stood before the cut (commit 59b83569), kept
verbatim but for their names (``_old`` in front). hypothesis draws sizes (one block and several, the threaded
split), ``negate``, ``out=``, float32 and float64 inputs, C-contiguous and strided, and values from every range the
kernel tells apart: zeros of both signs, subnormals, values around SLEEF's bounds (-104, 100) and the kernel's own
(-103, 88: where the lookup is taken or not), the exponents whose 2^q is subnormal, infinities and NaNs of both
signs; old and new must agree bit for bit (NaN payloads and signs included). torch's oracle tests of these bits are
``test_blocked_exp_kernels.py`` and the sigmoid/softplus/mish oracles."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._numpy_c import copyto as _copyto
from core._sleef import (
    _BLOCK,
    _HIGH,
    _K_C5,
    _K_C6,
    _K_HORNER,
    _K_LN2_SUM,
    _K_ONE,
    _K_R_LN2,
    _LOW,
    _MAX,
    _MIN,
    _NO_OVERFLOW,
    expf_u10,
)

_F32, _F64 = np.float32, np.float64


def _old_expf_u10(d: np.ndarray, *, negate: bool = False, out: np.ndarray | None = None) -> np.ndarray:
    """SLEEF's ``_old_expf_u10`` of a float32 NumPy array, element for element as its SIMD form computes it.

    ``negate``: of ``-d`` (sigmoid's ``exp(-x)``) without the negated copy; ``out``: a C-contiguous float32 array
    of ``d``'s size that receives the result (returned), ``d`` itself included.

    NOTE: the array goes through ``_BLOCK`` elements at a time with preallocated temporaries (``out=``): the
    float64 steps then run in cache, at two to three times the speed of whole-array temporaries."""
    if type(d) is np.ndarray and d.dtype == _F32 and d.flags.c_contiguous:  # (the usual case: no conversions)
        shape, flat = d.shape, d.reshape(-1)
    else:
        d = np.asarray(d, _F32)
        shape = d.shape  # (``ascontiguousarray`` makes a 0-d array 1-d: the result takes ``shape`` back)
        flat = np.ascontiguousarray(d).reshape(-1)
    n = flat.size
    res = np.empty(n, _F32) if out is None else out.reshape(-1)
    if not n:
        return res.reshape(shape)
    low, high = _MIN(flat), _MAX(flat)
    if negate:
        low, high = -high, -low
    in_range = bool(low >= _LOW and high <= _HIGH)  # (False for a nan too)
    if n <= _BLOCK and in_range and high <= _NO_OVERFLOW:  # (no floating-point flags then but underflow's, ignored)
        _old_exp_block(flat, res, _old_Scratch(n), True, negate)
        return res.reshape(shape)
    if negate:
        flat = -flat
    workers = _old_workers(n)
    if workers == 1:
        _old_exp_blocks(flat, res, in_range)
    else:  # contiguous runs of blocks, one per thread (NumPy's ufuncs release the GIL): the same values
        cuts = [(n // _BLOCK) * i // workers * _BLOCK for i in range(workers)] + [n]
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(lambda i: _old_exp_blocks(flat[cuts[i]:cuts[i + 1]], res[cuts[i]:cuts[i + 1]], in_range),
                          range(workers)))
    return res.reshape(shape)


# NOTE: elements from which the blocks are shared among ``core.get_num_threads()`` threads (as PyTorch's softmax
# splits its rows): 16 blocks (~10 ms of work) or more, where starting the threads costs under 2%
_old_THREADED = 16 * _BLOCK


def _old_workers(n: int) -> int:
    if n < _old_THREADED:
        return 1
    from core._threads import get_num_threads  # (at call time: a set_num_threads applies)

    return max(1, min(get_num_threads(), n // (4 * _BLOCK)))


def _old_exp_blocks(flat: np.ndarray, res: np.ndarray, in_range: bool) -> None:
    """``_old_exp_block`` over ``flat`` a block at a time, into ``res`` (the floating-point flags of out-of-range
    values ignored: the state is per thread)."""
    scratch = _old_Scratch(min(flat.size, _BLOCK))
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, flat.size, _BLOCK):
            _old_exp_block(flat[start:start + _BLOCK], res[start:start + _BLOCK], scratch, in_range)


class _old_Scratch:
    """The temporaries of one block: float32 q and s (s's buffer holds the exponents' bits at the end), float64
    s and the Horner value."""

    def __init__(self, size: int):
        self.narrow, self.wide = np.empty((2, size), _F32), np.empty((2, size), _F64)

    def cut(self, size: int) -> tuple:
        (q, s), (s64, t) = self.narrow, self.wide
        if size == q.size:
            return q, s, s64, t
        return q[:size], s[:size], s64[:size], t[:size]


def _old_exp_block(x: np.ndarray, u: np.ndarray, scratch: _old_Scratch, in_range: bool, negate: bool = False) -> None:
    """SLEEF's steps on one block ``x``, into ``u`` (``negate``: of ``-x``, in range)."""
    q, s, s64, t = scratch.cut(x.size)
    if not in_range:  # (read before ``u`` is written: it may be ``x`` itself)
        low, high, nan = x < -104, x > 100, np.isnan(x)
        carried = x[nan] + _F32(0)  # SLEEF's fmas carry the input's NaN (quieted) through, sign included
    mul, add, sub, copyto = np.multiply, np.add, np.subtract, _copyto  # (copyto without its dispatcher: _numpy_c)
    mul(x, _K_R_LN2, out=q)
    np.rint(q, out=q)  # (vcvtps2dq: round half to even, of the float32 product)
    # NOTE: fma(q, -L2U, d) is exact (Sterbenz) and fma(q, -L2L, .) adds bits down to 2^-43: d - q (L2U + L2L) is
    # exact in float64, so one cast rounds both of SLEEF's fmas. With ``negate`` (d = -x) q is -rint(x / ln 2) (the
    # product and rint are odd functions), so q here is its negation and d - q ln 2 = (-q) ln 2 - x, the same exact
    # value; the exponent at the end takes -q
    mul(q, _K_LN2_SUM, out=t)
    if negate:
        sub(t, x, out=t)
    else:
        sub(x, t, out=t)
    copyto(s, t, casting="same_kind")
    copyto(s64, s)
    mul(s64, _K_C6, out=t)  # u = fma(u, s, c), from the highest degree down
    for shifted, shift in _K_HORNER:
        add(t, shifted, out=t)
        sub(t, shift, out=t)
        mul(t, s64, out=t)
    add(t, _K_C5, out=t)  # (u crosses 0.5 here with s's sign: a cast rounds it)
    copyto(u, t, casting="same_kind")
    mul(s, s, out=s)  # 1 + fma(s * s, u, s): s * s rounded in float32, its product with u exact in float64
    # NOTE: a copy into float64 and a multiply with one float32 operand cost ~20% less than one float32 * float32
    # -> float64 multiply (NumPy casts both operands through its buffers there)
    copyto(t, s)
    mul(t, u, out=t)
    add(t, s64, out=t)
    copyto(u, t, casting="same_kind")
    add(u, _K_ONE, out=u)
    k = s.view(np.int32)
    if negate:
        np.negative(q, out=k, casting="unsafe")
    else:
        copyto(k, q, casting="unsafe")
    np.ldexp(u, k, out=u)  # SLEEF's two exact-then-rounded products: one correctly rounded
    if in_range:
        return
    u[low] = 0
    u[high] = np.inf
    u[nan] = carried


def _old(d, negate=False, out=None):
    return _old_expf_u10(d, negate=negate, out=out)


def _bits(a):
    return np.ascontiguousarray(a, _F32).view(np.uint32)


_EDGES = [0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-40, 1.1754944e-38, -104.0, -103.99999, -103.0, -103.00001, -102.99999,
          -103.6, -103.7, -87.3, -87.4, 88.0, 88.00001, 87.99999, 88.72, 88.73, 100.0, 100.00001, -100.0, 103.0, 104.0,
          -104.00001, 0.34657359, -0.34657359, 1e30, -1e30, np.inf, -np.inf, np.nan, -np.nan]


def _values(draw_sizes, seed, scale, specials, dtype, strided):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(draw_sizes) * scale).astype(dtype)
    for v in specials:
        x.flat[rng.integers(x.size)] = v
    if strided:
        wide = np.empty((x.size * 2,), dtype)
        wide[::2] = x.reshape(-1)
        return wide[::2]
    return x


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.integers(1, 70), st.integers(71, 5000), st.sampled_from([_BLOCK - 1, _BLOCK, _BLOCK + 5])),
       st.integers(0, 2**32 - 1), st.sampled_from([0.5, 3.0, 30.0, 60.0, 200.0]),
       st.lists(st.sampled_from(_EDGES), max_size=5), st.booleans(), st.sampled_from([_F32, _F64]), st.booleans(),
       st.booleans())
def test_expf_u10_gives_the_old_bits(n, seed, scale, specials, negate, dtype, strided, into_out):
    x = _values(n, seed, scale, specials, dtype, strided)
    before = x.copy()
    want = _old(x.copy(), negate=negate)
    if into_out and dtype == _F32 and not strided:
        out = np.empty(n, _F32)
        got = expf_u10(x, negate=negate, out=out)
        assert got.base is out or got is out
    else:
        got = expf_u10(x, negate=negate)
    assert got.shape == want.shape and got.dtype == _F32
    np.testing.assert_array_equal(_bits(got), _bits(want))
    np.testing.assert_array_equal(np.ascontiguousarray(x).view(np.uint8), before.view(np.uint8))


@settings(max_examples=60, deadline=None)
@given(st.integers(-149, 127), st.integers(0, 2**32 - 1), st.integers(1, 400), st.booleans())
def test_every_exponent_of_the_lookup_gives_the_old_bits(q, seed, n, negate):
    """Values whose q = rint(x / ln 2) is each exponent the lookup covers, subnormal results included, and around."""
    rng = np.random.default_rng(seed)
    x = ((q + rng.uniform(-0.5, 0.5, n)) * np.log(2)).astype(_F32)
    if negate:
        x = -x
    np.testing.assert_array_equal(_bits(expf_u10(x, negate=negate)), _bits(_old(x, negate=negate)))


def test_every_float32_near_the_lookup_bounds_gives_the_old_bits():
    """Every float32 in [-104, -102.9] and [87.9, 88.8] (the lookup's bounds and SLEEF's overflow), both signs'
    routes: blocks with and without the lookup."""
    for low, high in ((-104.0, -102.9), (87.9, 88.8)):
        start, stop = np.array([low, high], _F32).view(np.int32)
        bits = np.arange(min(start, stop), max(start, stop) + 1, dtype=np.int32)
        x = bits.view(_F32)
        for chunk in (x, x[:1000], x[-1000:]):
            np.testing.assert_array_equal(_bits(expf_u10(chunk)), _bits(_old(chunk)))
            np.testing.assert_array_equal(_bits(expf_u10(-chunk, negate=True)), _bits(_old(-chunk, negate=True)))


def test_the_threaded_split_gives_the_old_bits():
    """An array past the threaded split (16 blocks) with values in and out of the lookup's range."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(16 * _BLOCK + 99) * 20).astype(_F32)
    np.testing.assert_array_equal(_bits(expf_u10(x)), _bits(_old(x)))
    x[5] = -103.5
    np.testing.assert_array_equal(_bits(expf_u10(x)), _bits(_old(x)))
