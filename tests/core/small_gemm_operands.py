"""Operands of the small-GEMM "unchanged" tests (``test_small_gemm_*_unchanged.py``), which check a route of
``core._small_gemm`` against the route it replaced, bit for bit: the special values, layouts and value kinds they
draw with hypothesis, made once here so each test states only its route, its shapes and its reference."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

# a few values each test writes at random places: signed zeros, infinities, NaN, the largest and smallest float32s
SPECIALS = st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 3e38, -3e38, 1e-45, -1e-45, 1e-30])
SEEDS = st.integers(0, 2**32 - 1)
LAYOUTS = st.sampled_from(["rows", "transposed", "strided"])  # how A lies in memory (``layout_operands``)
FILLS = st.sampled_from(["normal", "zeros", "scaled"])  # what A holds (``layout_operands``)


def scatter(rng, specials, odd, even, columns=None) -> None:
    """Write ``specials`` at random places, in turn into ``even`` (the first) and ``odd``, within their first
    ``columns`` columns (all by default)."""
    for i, value in enumerate(specials):
        target = odd if i % 2 else even
        target[rng.integers(target.shape[0]), rng.integers(columns or target.shape[1])] = value


def values(rng, shape, kind: int) -> np.ndarray:
    """float32 values of ``shape``: normal (0), small integers with signed zeros, whose sums are exact, tie and give
    -0 (1), or normal ones scaled over 2^+-30, whose partial sums round at every step (2)."""
    if kind == 0:
        return rng.standard_normal(shape).astype(np.float32)
    if kind == 1:
        return (rng.integers(-3, 4, shape) * rng.choice([1.0, -0.0], shape)).astype(np.float32)
    return (rng.standard_normal(shape) * 2.0 ** rng.integers(-30, 30, shape)).astype(np.float32)


def layout_operands(m, k, n, layout, fill, seed, specials, dtype=np.float32):
    """``(a, b, rng)``: A (m, k) laid out as ``layout`` says (its own rows, a transposed (k, m) array as a weight
    gradient's g.T, or every other column of a wider one) and filled as ``fill`` says (normal values, signed zeros
    only, or values scaled over 2^+-30), B (k, n) normal, ``specials`` scattered in both; ``rng`` for what else the
    test draws."""
    rng = np.random.default_rng(seed)
    if layout == "rows":
        a = rng.standard_normal((m, k))
    elif layout == "transposed":
        a = rng.standard_normal((k, m)).T
    else:
        a = rng.standard_normal((m, 2 * k + 1))[:, 1::2]
    a, b = a.astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    if fill == "zeros":  # every product a signed zero
        a[...] = np.where(rng.random(a.shape) < 0.5, -0.0, 0.0)
    elif fill == "scaled":  # partial sums that round at every step
        a *= np.exp2(rng.integers(-30, 30, a.shape)).astype(dtype)
    scatter(rng, specials, a, b)
    return a, b, rng
