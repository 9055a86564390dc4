"""``core._sleef_logd``'s steps with OpenBLAS's fused ``daxpy`` for the fmas with a constant multiplier give the bits
of the steps they replaced (issue #23; ``core._daxpy`` probes the kernel before it is used).

The reference below is ``_steps`` as it stood before the cut (commit 2e8bf282), every fma Dekker's product and
TwoSum, kept verbatim. Random positive normals over the whole exponent range, values near 1 (a tiny ``m - 1``),
at the mantissa's 0.75 and 1.5 edges, and hypothesis's draws must agree bit for bit; the torch oracle tests are
``test_log_softmax_f64_oracle.py``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _sleef_logd
from core._sleef_logd import _LN2_HI, _LN2_LO, _POLY, _fma, _two_sum


def _old_steps(x):
    c6, c5, c4, c3, c2, c1, c0 = _POLY
    with np.errstate(over="ignore"):  # (getexp of an overflowed x / 0.75, x above 1.35e308: SLEEF's 1024)
        e = np.where(x * (1.0 / 0.75) == np.inf, 1024.0, (np.frexp(x * (1.0 / 0.75))[1] - 1).astype(np.float64))
    bits = x.view(np.uint64) & np.uint64(0x000FFFFFFFFFFFFF)
    top = bits >= np.uint64(0x0008000000000000)
    bits |= np.where(top, np.uint64(1022 << 52), np.uint64(1023 << 52))
    m = bits.view(np.float64)
    nx, ny = _two_sum(m, -1.0)
    dx, dy = _two_sum(m, 1.0)
    t = 1.0 / dx
    s = nx * t
    u = _fma(t, nx, -s)
    v = _fma(-dy, t, _fma(-dx, t, 1.0))
    hx = s
    hy = _fma(s, v, _fma(ny, t, u))
    x2 = hx * hx
    x4 = x2 * x2
    x8 = x4 * x4
    poly = _fma(x8, _fma(x4, c6, _fma(x2, c5, c4)), _fma(x4, _fma(x2, c3, c2), _fma(x2, c1, c0)))
    sx = _LN2_HI * e
    sy = _fma(np.full_like(e, _LN2_LO), e, _fma(np.full_like(e, _LN2_HI), e, -sx))
    ax, ay = hx * 2, hy * 2
    r = sx + ax
    sy = (((sx - r) + ax) + sy) + ay
    sx = r
    w = (x2 * hx) * poly
    r = sx + w
    sy = ((sx - r) + w) + sy
    return r + sy


def _assert_same(x):
    x = np.ascontiguousarray(x, np.float64)
    np.testing.assert_array_equal(_sleef_logd._steps(x).view(np.uint64), _old_steps(x).view(np.uint64))


def test_random_normals_over_every_exponent_give_the_old_bits():
    rng = np.random.default_rng(0)
    bits = rng.integers(0x0010000000000000, 0x7FF0000000000000, 400_000, dtype=np.uint64)
    _assert_same(bits.view(np.float64))


def test_values_near_one_and_at_the_mantissas_edges_give_the_old_bits():
    rng = np.random.default_rng(1)
    near_one = 1 + rng.uniform(-1e-3, 1e-3, 50_000)
    ulps = np.arange(-2000, 2001, dtype=np.int64)
    edges = [(np.float64(v).view(np.int64) + ulps).view(np.float64) for v in (1.0, 0.75, 1.5, 0.5, 2.0, 3.0)]
    sums = rng.uniform(1, 10, 50_000)  # (a log_softmax's row sums)
    _assert_same(np.concatenate([near_one, *edges, sums]))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=2.3e-308, max_value=1.7e308, allow_nan=False, allow_infinity=False),
                min_size=1, max_size=70))
def test_any_positive_normals_give_the_old_bits(values):
    _assert_same(np.array(values))


def test_the_largest_doubles_log_as_torchs(torch):
    """x above 2^1024 * 0.75 (x / 0.75 overflows): SLEEF's getexp gives 1024 there, as torch's log."""
    x = np.random.default_rng(2).uniform(1.3e308, 1.79e308, 4096)
    np.testing.assert_array_equal(_sleef_logd.logd_u10(x).view(np.uint64),
                                  torch.from_numpy(x).log().numpy().view(np.uint64))


def test_a_zero_dimensional_value_gives_the_old_bits():
    x = np.array(2.5)
    assert np.float64(_sleef_logd._steps(x)).view(np.uint64) == np.float64(_old_steps(x)).view(np.uint64)
