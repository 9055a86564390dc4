"""``core._mkl_tanh``'s steps with one gather by x's own bits give the bits of the steps they replaced (issue #23).

The references below are ``_steps`` as it stood before the cut (commit 2e8bf282), kept verbatim: |x|, its key, the
interval, then the coefficients; and as it stood before its scratch was kept per thread (d30c5504), whose table
negated the coefficients of x < 0 and ran Horner's steps on |x| (since then on x, the table's signs alternating,
NaN for the rare keys). hypothesis draws float32 bit patterns (every sign, exponent and special value), sizes
(0, 1, 7, 8, 9, 16, 1600, 1e5 among them, through ``vtanh``'s blocks) and block sizes, and both must agree bit for
bit; the torch oracle tests are ``test_mkl_tanh_oracle.py``."""

import contextlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _mkl_tanh

_U32 = np.uint32


def _old_steps(x, out):
    ax = np.abs(x)
    bits = ax.view(_U32)
    c = _mkl_tanh._rows().take(_mkl_tanh._interval().take(np.right_shift(bits, _mkl_tanh._SHIFT)), axis=1)
    a = ax.astype(np.float64)
    rare = bits.max() >= _mkl_tanh._RARE
    with np.errstate(invalid="ignore") if rare else contextlib.nullcontext():
        p = np.multiply(c[0], a)
        for j in range(1, 6):
            np.add(p, c[j], out=p)
            np.multiply(p, a, out=p)
        np.add(p, c[6], out=p)
        np.copysign(p, x, out=p)
        out[...] = p
    if rare:
        at = bits >= _mkl_tanh._RARE
        xr = x[at]
        out[at] = np.where(np.isnan(xr), xr + xr, np.copysign(np.float32(1), xr))


def _both(x):
    old, new = np.empty_like(x), np.empty_like(x)
    _old_steps(x, old)
    _mkl_tanh._steps(x, new)
    return old.view(_U32), new.view(_U32)


_SPECIAL = [0x00000000, 0x00000001, 0x00800000, 0x3DFFFFFF, 0x3E000000, 0x41200000, 0x7F1FFFFF, 0x7F200000,
            0x7F7FFFFF, 0x7F800000, 0x7FC00000, 0x7F800001]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 2 ** 32 - 1), st.sampled_from(_SPECIAL + [b | 0x80000000 for b in _SPECIAL])),
                min_size=1, max_size=300))
def test_the_steps_give_the_old_steps_bits_on_any_bit_patterns(patterns):
    x = np.array(patterns, np.uint32).view(np.float32)
    old, new = _both(x)
    np.testing.assert_array_equal(new, old)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9000), st.floats(0.01, 30), st.integers(0, 2 ** 32 - 1))
def test_the_steps_give_the_old_steps_bits_on_blocks_of_ordinary_values(n, scale, seed):
    x = (np.random.default_rng(seed).standard_normal(n) * scale).astype(np.float32)
    old, new = _both(x)
    np.testing.assert_array_equal(new, old)


def test_every_key_of_every_sign_gives_the_old_steps_bits():
    keys = np.arange(1 << 11, dtype=np.uint32) << 21
    x = (keys[:, None] + np.array([0, 1, 0x0FFFFF, 0x1FFFFF], np.uint32)).reshape(-1).view(np.float32)
    old, new = _both(x)
    np.testing.assert_array_equal(new, old)


def _old_by_key():
    """``_by_key`` as it stood at commit d30c5504: the upper half (x < 0) the lower half's coefficients negated."""
    table = _mkl_tanh._rows()[:, np.tile(_mkl_tanh._interval(), 2)]
    table[:, 1 << 10:] *= -1
    return np.ascontiguousarray(table)


_FAR = np.array(np.float64(np.uint32(0x7F200000).view(np.float32)))  # |x| from here (and NaN): MKL's scalar path


def _previous_steps(x, out):
    """``_steps`` as it stood before its scratch was kept per thread (commit d30c5504), verbatim but for
    ``_old_by_key`` and ``_FAR`` (since then the signed table and the NaN check of p)."""
    c = _old_by_key().take(np.right_shift(x.view(_U32), _mkl_tanh._SHIFT), axis=1, mode="clip")
    a = np.absolute(x, dtype=np.float64)
    rare = not np.maximum.reduce(a) < _FAR
    with np.errstate(invalid="ignore") if rare else contextlib.nullcontext():  # (inf * 0 in inf's lanes)
        p = np.multiply(c[0], a)
        for j in range(1, 6):
            np.add(p, c[j], out=p)
            np.multiply(p, a, out=p)
        np.add(p, c[6], out=p)
        np.copyto(out, p, casting="same_kind")  # (p carries x's sign: MKL's or of it onto p >= 0)
    if rare:
        at = (x.view(_U32) & _U32(0x7FFFFFFF)) >= _mkl_tanh._RARE
        xr = x[at]
        out[at] = np.where(np.isnan(xr), xr + xr, np.copysign(np.float32(1), xr))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([1, 2, 7, 200, 1600, 2048, 5000, 8192, 9000]), st.integers(0, 2 ** 32 - 1),
                          st.sampled_from([0.1, 2.0, 12.0]), st.lists(st.sampled_from(_SPECIAL), max_size=3)),
                min_size=1, max_size=6))
def test_the_kept_scratch_gives_the_previous_steps_bits_call_after_call(calls):
    """Calls of kept and fresh sizes one after another (a kept scratch reused with other values, special values
    among them) each give the bits of the steps before the scratch was kept."""
    for n, seed, scale, specials in calls:
        rng = np.random.default_rng(seed)
        x = (rng.standard_normal(n) * scale).astype(np.float32)
        for bits in specials:
            x.view(_U32)[rng.integers(n)] = bits | (0x80000000 if rng.random() < 0.5 else 0)
        before, old, new = x.copy(), np.empty_like(x), np.empty_like(x)
        _previous_steps(x, old)
        _mkl_tanh._steps(x, new)
        np.testing.assert_array_equal(new.view(_U32), old.view(_U32))
        np.testing.assert_array_equal(x.view(_U32), before.view(_U32))


def test_threads_with_their_own_scratch_give_the_previous_steps_bits():
    from concurrent.futures import ThreadPoolExecutor

    xs = [(np.random.default_rng(i).standard_normal(1600) * 3).astype(np.float32) for i in range(16)]

    def run(x):
        out = np.empty_like(x)
        for _ in range(20):
            _mkl_tanh._steps(x, out)
        return out
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(run, xs))
    for x, out in zip(xs, outs):
        old = np.empty_like(x)
        _previous_steps(x, old)
        np.testing.assert_array_equal(out.view(_U32), old.view(_U32))


_BOUNDARIES = [0x3DE00000, 0x3E000000, 0x3F800000, 0x41200000, 0x7F1FFFFF, 0x7F200000, 0x00000000, 0x00000001,
               0x007FFFFF]  # 0.109375 (interval 0's end), 0.125, 1, 10 (the last interval), the rare bound, subnormals


@settings(max_examples=120, deadline=None)
@given(st.sampled_from([0, 1, 7, 8, 9, 16, 1600, 8192, 8193, 100_000]), st.integers(0, 2 ** 32 - 1),
       st.sampled_from([0.05, 1.0, 4.0, 30.0]), st.lists(st.sampled_from(_SPECIAL + _BOUNDARIES), max_size=4),
       st.booleans())
def test_vtanh_of_any_size_gives_the_previous_steps_bits(n, seed, scale, specials, negative):
    """``vtanh`` over sizes from 0 to 1e5 (one block, several, a last short one), ordinary values with special ones
    and the intervals' boundaries (and their neighbours) of either sign, against the previous steps block by block."""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(n) * scale).astype(np.float32)
    for bits in specials:
        if n:
            at = rng.integers(n)
            x.view(_U32)[at] = bits | (0x80000000 if negative else 0)
            x.view(_U32)[(at + 1) % n] = (bits + 1) & 0xFFFFFFFF
    old = np.empty_like(x)
    for start in range(0, n, _mkl_tanh._BLOCK):
        _previous_steps(x[start:start + _mkl_tanh._BLOCK], old[start:start + _mkl_tanh._BLOCK])
    np.testing.assert_array_equal(_mkl_tanh.vtanh(x).view(_U32), old.view(_U32))
