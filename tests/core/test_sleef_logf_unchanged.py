"""SLEEF's float32 log of positive normal values (``core._sleef_logf.logf_normal``: the exponent by a shift, one
table lookup, m = d 2^-e in one exact product, the rows in scratch) gives the bits of the route it replaced (#23).

The reference below is ``core._sleef._logf_normal`` and ``_log_finish`` as they stood before the cut (commit
fd5497b3), verbatim but for their names (``_old`` in front). hypothesis draws sizes (0, 1, 7, 8, 9, 16, 64, 1600,
up to 1e5 and past the 8192-element block) and values from every range the route tells apart (its bounds, the
smallest normal and 2^127, the d where d / 0.75 crosses a power of two, the mantissas around 1.5 where vgetmant
halves, their neighbours) and, through ``logf_u10``, special values that send an array to the general route (zeros,
negatives, subnormals, infinities, NaN); and every mantissa of 1's binade goes through both: old and new agree
bit for bit. torch's oracle tests of these bits are in ``test_blocked_exp_kernels.py`` (log_softmax and logsumexp)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._sleef import _K_ONE, _LN2_E, _LN2_E_AT, logf_u10
from core._sleef_logf import logf_normal
from tests.core.sleef_log_reference import SEEDS, bits, old_log_finish, sizes

_F32, _F64 = np.float32, np.float64
_R_075 = _F32(1 / 0.75)
_K_075, _K_ONE64 = np.array(0.75, _F32), np.array(1, _F64)
_K_MINUS_PLUS_ONE = np.array([[-1], [1]], _F32)
_K_LOG_POLY = [np.array(c) for c in (_F32(0.3027294874), _F32(0.3996108174), _F32(0.6666694880))]
_TINY, _TOP = np.finfo(_F32).tiny, _F32(2.0 ** 127)


def _old_logf_normal(d: np.ndarray) -> np.ndarray:
    """``logf_u10`` of positive normal float32 values below ``_NO_SCALED_OVERFLOW``: the same float32 operations
    on the same values, in fewer NumPy calls (~40 against ~50), no NaN, infinity or zero to mend, so no floating-
    point flags to silence either.

    NOTE: a hot path (the log of log_softmax's row sums: a training step's loss takes it on a batch of 64 values,
    where each NumPy call costs more than its elements). The calls are cut by laying operands that take the same
    operation side by side: ``m - 1`` and ``m + 1`` as one broadcast add into rows of one array, with ``dy`` in a
    third row, so one float64 multiply gives ``t nx``, ``t dx`` and ``t dy`` (the products of float32 values,
    exact in float64 either way); ``s`` and its error part ``xy`` in two rows doubled by one multiply; the table's
    ``(sx, sy)`` by one ``take`` along its columns; ``m``'s doubling below 0.75 as ``ldexp`` by 1 (exact)."""
    shape, flat = d.shape, d.reshape(-1)
    n = flat.size
    _, ex = np.frexp(np.multiply(flat, _R_075))  # vgetexp(d / 0.75) is ex - 1
    frac, _ = np.frexp(flat)  # vgetmant(d) into [0.75, 1.5): frac in [0.5, 1), doubled below 0.75 (exact)
    m = np.ldexp(frac, np.less(frac, _K_075).view(np.int8))
    ex += _LN2_E_AT  # (ln 2 hi, lo) * e, looked up (``_LN2_E``)
    sx, sy = _LN2_E.take(ex, axis=1)
    rows = np.empty((3, n), _F32)  # m - 1, m + 1, and dy (see logf_u10's NOTE on these shortcuts)
    np.add(m, _K_MINUS_PLUS_ONE, out=rows[:2])
    nx, dx, dy = rows
    np.subtract(dx, _K_ONE, out=dy)
    np.subtract(m, dy, out=dy)
    t = np.divide(_K_ONE, dx)
    pair = np.empty((2, n), _F32)  # s and xy, doubled together below
    s = np.multiply(nx, t, out=pair[0])
    products = np.multiply(rows, t, dtype=_F64)  # t nx, t dx, t dy: exact
    u = np.subtract(products[0], s)
    c = np.subtract(_K_ONE64, products[1])
    np.subtract(c, products[2], out=c)
    v = c.astype(_F32)  # fnma(dy, t, fnma(dx, t, 1))
    w64 = np.multiply(s, v, dtype=_F64)
    w64 += u
    np.copyto(pair[1], w64, casting="same_kind")  # xy
    xx, xy = pair
    x2 = xx * xx
    p64 = np.multiply(_K_LOG_POLY[0], x2, dtype=_F64)
    p64 += _K_LOG_POLY[1]
    poly = p64.astype(_F32)
    np.multiply(poly, x2, out=p64, dtype=_F64)
    p64 += _K_LOG_POLY[2]
    poly = p64.astype(_F32)
    return old_log_finish(pair, sx, sy, xx, x2, poly).reshape(shape)


def _boundaries() -> np.ndarray:
    """The route's ends and, in every binade, 0.75 2^e (where d / 0.75 crosses 2^e) and 1.5 2^e (where vgetmant
    halves the mantissa), with their float32 neighbours."""
    e = np.arange(-126, 127)
    edges = np.concatenate([[_TINY, np.nextafter(_TOP, _F32(0)), 1.0, 0.75, 1.5], 0.75 * 2.0 ** e, 1.5 * 2.0 ** e])
    edges = edges.astype(_F32)
    wide = np.concatenate([np.nextafter(edges, _F32(0)), edges, np.nextafter(edges, _F32(np.inf))])
    return wide[(wide >= _TINY) & (wide < _TOP)]


_EDGES = _boundaries()
_SPECIAL = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, 1e-40, 2.0 ** 127, 3e38], _F32)


def _normal_values(rng, n):
    """n positive normal float32 values below 2^127 (uniform bit patterns), some of ``_EDGES`` mixed in."""
    x = rng.integers(int(bits(_TINY)), int(bits(_TOP)), n, dtype=np.uint32).view(_F32)
    if n:
        at = rng.integers(0, n, max(1, n // 8))
        x[at] = rng.choice(_EDGES, at.size)
    return x


_SIZES = sizes(64)


@settings(max_examples=120, deadline=None)
@given(_SIZES, SEEDS)
def test_logf_normal_gives_the_old_bits(n, seed):
    x = _normal_values(np.random.default_rng(seed), n)
    assert np.array_equal(bits(logf_normal(x)), bits(_old_logf_normal(x)))


@settings(max_examples=80, deadline=None)
@given(_SIZES, SEEDS, st.lists(st.sampled_from(list(_SPECIAL)), max_size=3),
       st.sampled_from([(64,), (8, 8), (4, 5, 3)]))
def test_logf_u10_routes_as_before(n, seed, specials, shape):
    """Arrays with a special value take the general route (unchanged); the others the normal one; a shaped array
    keeps its shape."""
    x = _normal_values(np.random.default_rng(seed), n)
    if specials and n:
        x[: len(specials)] = specials[:n]
    new = logf_u10(x)
    if n and x.min() >= _TINY and x.max() < _TOP:
        assert np.array_equal(bits(new), bits(_old_logf_normal(x)))
    shaped = _normal_values(np.random.default_rng(seed), int(np.prod(shape))).reshape(shape)
    assert logf_u10(shaped).shape == shape
    assert np.array_equal(bits(logf_u10(shaped)), bits(_old_logf_normal(shaped)))


def test_every_boundary_and_every_mantissa_of_1s_binade_give_the_old_bits():
    """m = d 2^-e and the table's e depend on d's mantissa alone (d / 0.75 rounds alike in every binade): every
    mantissa of 1's binade, and every 61st of the smallest and the largest (the table's ends: 2^-e = 2^126 there,
    2^-127 a subnormal factor here)."""
    assert np.array_equal(bits(logf_normal(_EDGES)), bits(_old_logf_normal(_EDGES)))
    for biased, step in ((127, 1), (1, 61), (253, 61)):
        x = (np.arange(0, 1 << 23, step, dtype=np.uint32) | np.uint32(biased << 23)).view(_F32)
        assert np.array_equal(bits(logf_normal(x)), bits(_old_logf_normal(x)))
