"""SLEEF's float32 log1p of plain values (``core._sleef_logf``: the exponent by a shift, one table lookup, m in two
float32 steps, the rows in scratch) gives the bits of the route it replaced (issue #23).

The reference below is ``core._sleef._log1pf_plain`` and ``_log_finish`` as they stood before the cut (commit
fd5497b3), verbatim but for their names (``_old`` in front). hypothesis draws sizes (0, 1, 7, 8, 9, 16, 1600, up to
1e5 and past the 8192-element block), values from every range the route tells apart (its bounds 2^-36 and 1e38, the
exponent boundaries of (1 + d) / 0.75 and their neighbours, where 2^-e and 2^-e - 1 change, tiny values whose e is 0,
huge ones) and, through ``log1pf_u10``, special values that sent an array to the general route (zeros of both
signs, -1, below -1, subnormals and values below 2^-36, infinities, NaN: those from 2^-125 to 2^-36 now take the
plain route and come back as themselves); old and new agree bit for bit. torch's oracle tests of these bits
are in ``test_log1p_sleef_oracle.py`` and ``test_bce_logits_kept_exp_oracle.py``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._sleef import _K_ONE, _LN2_E, _LN2_E_AT, _POW2_NEG_E, _log1pf_general, log1pf_u10
from core._sleef_logf import log1pf_plain
from tests.core.sleef_log_reference import SEEDS, bits, old_log_finish, sizes

_F32, _F64 = np.float32, np.float64
_K_R_075 = np.array(_F32(1 / 0.75))
_K_ONE64, _K_TWO = np.array(1, _F64), np.array(2, _F32)
_K_LOG_POLY64 = [np.array(c, _F64) for c in (_F32(0.3027294874), _F32(0.3996108174), _F32(0.6666694880))]


def _old_log1pf_plain(d: np.ndarray) -> np.ndarray:
    """``log1pf_u10`` of float32 values in [2^-36, 1e38]: the same float32 steps on the same values in fewer and
    cheaper NumPy calls (no ufunc mixing dtypes), with no NaN, infinity, zero or -1 to mend and no floating-point flag
    raised.

    NOTE: a hot path (``binary_cross_entropy_with_logits``' ``log1p(exp(-|x|))``: a training step's loss, where
    each NumPy call costs more than its ~200 elements). What makes it cheaper, each giving the same bits:
    ufuncs on one dtype (a float32 operand cast inside a float64 call, ``np.multiply(a, b, dtype=float64)``, costs
    ~3x a float64 call on copies made first: the casts are exact, so the products are too); the constants as 0-d
    arrays; the exponent's ``(sx, sy)``, ``2^-e`` and ``2^-e - 1`` looked up in tables their own float32 steps made
    (``_LN2_E``, ``_POW2_NEG_E``); ``2 + m``'s error by Fast2Sum (|m| < 1 <= 2: exact, as TwoSum's six operations
    are, and both give +0 for an exact sum); the operands that meet the same float64 multiply laid in rows of one
    array; and, as in ``logf_u10``, ``fms(r, m, q)`` (the error of the product q = m r, normal here) and
    ``fnma(dx, r, 1)`` (the residual of the reciprocal r = 1 / dx) exact in float32, so their float64 values go on
    into the next fma without the round trip. All checked against the general route on every float32 in
    [2^-14, 8) (every ``dx`` there is) and on random ones up to 1e38."""
    shape, flat = d.shape, d.reshape(-1)
    n = flat.size
    scaled = np.add(flat, _K_ONE)
    np.multiply(scaled, _K_R_075, out=scaled)
    _, ex = np.frexp(scaled)  # vgetexp((1 + d) / 0.75) is ex - 1
    ex += _LN2_E_AT
    sx, sy = _LN2_E.take(ex, axis=1)
    t, t_less_one = _POW2_NEG_E.take(ex, axis=1)  # (float64: exact)
    wide = flat.astype(_F64)  # m = fma(d, 2^-e, 2^-e - 1)
    np.multiply(wide, t, out=wide)
    np.add(wide, t_less_one, out=wide)
    rows = np.empty((3, n), _F32)  # m, dx = 2 + m and dy = its error
    m, dx, dy = rows
    np.copyto(m, wide, casting="same_kind")
    np.add(m, _K_TWO, out=dx)
    np.subtract(dx, _K_TWO, out=dy)
    np.subtract(m, dy, out=dy)
    r = np.divide(_K_ONE, dx)
    pair = np.empty((2, n), _F32)  # q = m / dx and xy, doubled together below
    q = np.multiply(m, r, out=pair[0])
    products = rows.astype(_F64)  # r m, r dx, r dy: exact
    np.multiply(products, r.astype(_F64), out=products)
    q64 = q.astype(_F64)
    u = np.subtract(products[0], q64)  # fms(r, m, q): a product's error, exact in float32 (see the NOTE)
    c = np.subtract(_K_ONE64, products[1])  # fnma(dx, r, 1): the reciprocal's residual, exact in float32
    np.subtract(c, products[2], out=c)  # v = fnma(dy, r, .), rounded
    w64 = c.astype(_F32).astype(_F64)  # xy = fma(q, v, u)
    np.multiply(w64, q64, out=w64)
    np.add(w64, u, out=w64)
    np.copyto(pair[1], w64, casting="same_kind")
    xx = q
    x2 = xx * xx
    x2_64 = x2.astype(_F64)  # poly = fma(fma(c0, x2, c1), x2, c2)
    p64 = np.multiply(x2_64, _K_LOG_POLY64[0])
    np.add(p64, _K_LOG_POLY64[1], out=p64)
    np.copyto(p64, p64.astype(_F32))
    np.multiply(p64, x2_64, out=p64)
    np.add(p64, _K_LOG_POLY64[2], out=p64)
    poly = p64.astype(_F32)
    return old_log_finish(pair, sx, sy, xx, x2, poly).reshape(shape)


def _boundaries() -> np.ndarray:
    """The plain range's ends and, for every exponent e the range reaches, the d where (1 + d) / 0.75 crosses 2^e
    (d = 0.75 2^e - 1), with their float32 neighbours."""
    edges = [_F32(2.0 ** -36), _F32(1e38), _F32(1), _F32(0.5), _F32(1.5)]
    for e in range(1, 128):
        edges.append(_F32(0.75 * 2.0 ** e - 1))
    edges = np.array(edges, _F32)
    wide = np.concatenate([np.nextafter(edges, _F32(0)), edges, np.nextafter(edges, _F32(np.inf))])
    return wide[(wide >= _F32(2.0 ** -36)) & (wide <= _F32(1e38))]


_EDGES = _boundaries()
_SPECIAL = np.array([0.0, -0.0, -1.0, -1.5, np.inf, -np.inf, np.nan, 1e-45, 1e-40, 2.0 ** -126, 2.0 ** -125, 1e-30,
                     2.0 ** -37, 1e-12, 3e38], _F32)


def _plain_values(rng, n, scale):
    """n float32 values in [2^-36, 1e38]: log-uniform up to e^scale, with some of ``_EDGES`` mixed in."""
    x = np.exp(rng.uniform(-24.9, scale, n)).astype(_F32)
    x = np.clip(x, _F32(2.0 ** -36), _F32(1e38))
    if n:
        at = rng.integers(0, n, max(1, n // 8))
        x[at] = rng.choice(_EDGES, at.size)
    return x


_SIZES = sizes(200)


@settings(max_examples=120, deadline=None)
@given(_SIZES, SEEDS, st.sampled_from([0.0, 3.0, 20.0, 87.5]))
def test_log1pf_plain_gives_the_old_bits(n, seed, scale):
    x = _plain_values(np.random.default_rng(seed), n, scale)
    assert np.array_equal(bits(log1pf_plain(x)), bits(_old_log1pf_plain(x)))


def _old_log1pf_u10(x):
    """``log1pf_u10``'s routing before: the plain route for values in [2^-36, 1e38], else the general one."""
    if x.size and x.min() >= _F32(2.0 ** -36) and x.max() <= _F32(1e38):
        return _old_log1pf_plain(x)
    return _log1pf_general(x)


@settings(max_examples=120, deadline=None)
@given(_SIZES, SEEDS, st.lists(st.sampled_from(list(_SPECIAL)), max_size=3),
       st.sampled_from([(200,), (25, 8), (4, 50, 1)]))
def test_log1pf_u10_routes_as_before(n, seed, specials, shape):
    """Arrays with a special value (a tiny one among them: now the plain route, d itself from 2^-125 to 2^-36) give
    the bits they gave; a shaped array keeps its shape."""
    x = _plain_values(np.random.default_rng(seed), n, 87.5)
    if specials and n:
        x[: len(specials)] = specials[:n]
    assert np.array_equal(bits(log1pf_u10(x)), bits(_old_log1pf_u10(x)))
    shaped = _plain_values(np.random.default_rng(seed), int(np.prod(shape)), 20.0).reshape(shape)
    shaped.reshape(-1)[:: 7] = specials[0] if specials else _F32(1e-20)
    assert log1pf_u10(shaped).shape == shape
    assert np.array_equal(bits(log1pf_u10(shaped)), bits(_old_log1pf_u10(shaped)))


def test_values_below_the_plain_range_give_the_general_routes_bits():
    """Every 997th float32 from 2^-125 to 2^-36 beside plain values: d itself, as the general route gives them (all
    of them were checked once: ``core._sleef``'s NOTE at ``_SELF``); below 2^-125, with zeros, subnormals and the
    first normal binade, the general route (where it is not d itself)."""
    low, high = int(bits(_F32(2.0 ** -125))), int(bits(_F32(2.0 ** -36)))
    tiny = np.arange(low, high, 997, dtype=np.uint32).view(_F32)
    x = np.concatenate([tiny, [2.0 ** -125, np.nextafter(_F32(2.0 ** -36), _F32(0))], _EDGES]).astype(_F32)
    assert np.array_equal(bits(log1pf_u10(x)), bits(_log1pf_general(x)))
    assert np.array_equal(bits(log1pf_u10(x[:-_EDGES.size])), bits(x[:-_EDGES.size]))
    lower = np.concatenate([np.arange(0, low, 4099, dtype=np.uint32).view(_F32), [-0.0, 0.0, 1e-45], _EDGES])
    assert np.array_equal(bits(log1pf_u10(lower.astype(_F32))), bits(_log1pf_general(lower.astype(_F32))))


def test_every_boundary_and_a_dense_sweep_give_the_old_bits():
    """Every exponent boundary, and every 61st float32 bit pattern from 2^-36 to 1e38 (~17 million values)."""
    assert np.array_equal(bits(log1pf_plain(_EDGES)), bits(_old_log1pf_plain(_EDGES)))
    low, high = int(bits(_F32(2.0 ** -36))), int(bits(_F32(1e38)))
    for start in range(low, high, 61 * 1_000_000):
        x = np.arange(start, min(start + 61 * 1_000_000, high + 1), 61, dtype=np.uint32).view(_F32)
        assert np.array_equal(bits(log1pf_plain(x)), bits(_old_log1pf_plain(x)))
