"""Float32 and float64 sums, means and 2-norms and float16/bfloat16 sums add in PyTorch's order
(``core._cascade_sum``, ``core._norm_order``): equal to torch's bit for bit over random shapes, dims, values and
keepdim; and the NumPy behaviour every order is built on (``in_order`` adds slices one after another, for every
float dtype and layout)."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import core
from core._cascade_sum import in_order

# lengths around every branch of the orders: fewer than 4, the 8-lane vectors and their tails, groups of 4
# vectors, the first carry of a row (64 vectors) and of a column (64 rows), a second cascade level
SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 31, 32, 33, 40, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 511, 512,
         513, 1000, 2049, 4100, 16500, 70000]
MAX_ELEMENTS = 1 << 18


@st.composite
def _shapes(draw, max_dims=4):
    shape: list[int] = []
    for _ in range(draw(st.integers(1, max_dims))):
        room = MAX_ELEMENTS // max(1, math.prod(shape))
        shape.append(draw(st.sampled_from([s for s in SIZES if s <= room])))
    return tuple(shape)


def _values(shape, seed: int, kind: str, dtype=np.float32) -> np.ndarray:
    """Values whose sums round differently in every order: magnitudes over 8 decades, or mostly (signed) zeros."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 5, shape)
    if kind == "zeros":
        x = np.where(rng.random(shape) < 0.9, np.copysign(0.0, rng.standard_normal(shape)), x)
    return x.astype(dtype)


def _assert_same_bits(ours: np.ndarray, theirs: np.ndarray) -> None:
    np.testing.assert_array_equal(ours, theirs)
    assert ours.shape == theirs.shape
    assert np.array_equal(np.signbit(ours), np.signbit(theirs))  # a zero sum is +0 in both


@given(shape=_shapes(), data=st.data(), seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["wide", "zeros"]),
       op=st.sampled_from(["sum", "mean"]), keepdim=st.booleans(), dtype=st.sampled_from([np.float32, np.float64]))
def test_float32_and_float64_sum_and_mean_equal_torchs_bit_for_bit(torch, one_thread, shape, data, seed, kind, op,
                                                                   keepdim, dtype):
    """float32 vectors hold 8 lanes, float64 ones 4: the same order with other widths."""
    nd = len(shape)
    dims = data.draw(st.one_of(st.none(), st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True)))
    x = _values(shape, seed, kind, dtype)
    dim = None if dims is None else tuple(dims)
    ours = getattr(core.tensor(x), op)(dim=dim, keepdim=keepdim).numpy()
    theirs = getattr(torch.tensor(x), op)(dim=dim, keepdim=keepdim).numpy()
    _assert_same_bits(ours, theirs)


@given(shape=_shapes(max_dims=3), data=st.data(), seed=st.integers(0, 2**32 - 1), keepdim=st.booleans(),
       dtype=st.sampled_from(["float32", "float64", "float16", "bfloat16"]))
def test_sums_of_transposed_and_sliced_views_equal_torchs_bit_for_bit(torch, one_thread, shape, data, seed, keepdim,
                                                                     dtype):
    """``x.T.sum(0)``, ``x.permute(...)[..., ::2].sum(dims)``: PyTorch's iterator reorders and merges the dims of the
    view before its kernel adds (``core._strided_sum``)."""
    nd = len(shape)
    perm = data.draw(st.permutations(range(nd)))
    step = data.draw(st.sampled_from([1, 2, 3]))
    dims = data.draw(st.one_of(st.none(), st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True)))
    dim = None if dims is None else tuple(dims)
    x = _values(shape, seed, "wide") / np.float32(1e3)
    views = [lib.tensor(x).to(getattr(lib, dtype)).permute(*perm)[..., ::step] for lib in (core, torch)]
    ours, theirs = (v.sum(dim=dim, keepdim=keepdim).float().numpy() for v in views)
    _assert_same_bits(ours, theirs)


@given(shape=_shapes(), data=st.data(), seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["wide", "zeros"]),
       dtype=st.sampled_from(["float16", "bfloat16"]), keepdim=st.booleans())
def test_float16_and_bfloat16_sums_equal_torchs_bit_for_bit(torch, one_thread, shape, data, seed, kind, dtype,
                                                            keepdim):
    """Added in float32 with 16-element vector loads (two halves of 8 lanes added first), rounded once."""
    nd = len(shape)
    dims = data.draw(st.one_of(st.none(), st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True)))
    x = _values(shape, seed, kind) / np.float32(1e3)  # sums that stay finite in float16
    dim = None if dims is None else tuple(dims)
    ours = core.tensor(x).to(getattr(core, dtype)).sum(dim=dim, keepdim=keepdim).float().numpy()
    theirs = torch.tensor(x).to(getattr(torch, dtype)).sum(dim=dim, keepdim=keepdim).float().numpy()
    _assert_same_bits(ours, theirs)


@given(shape=_shapes(max_dims=3), data=st.data(), seed=st.integers(0, 2**32 - 1), keepdim=st.booleans(),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_float32_and_float64_norms_over_trailing_dims_equal_torchs_bit_for_bit(torch, one_thread, shape, data, seed,
                                                                               keepdim, dtype):
    """Each lane adds its squares (8 lanes of float32, 4 of float64), the tail in fused multiply-adds."""
    trailing = data.draw(st.integers(1, len(shape)))
    dim = tuple(range(len(shape) - trailing, len(shape)))
    x = _values(shape, seed, "wide", dtype) / dtype(1e4)  # squares that stay finite
    ours = core.linalg.vector_norm(core.tensor(x), dim=dim, keepdim=keepdim).numpy()
    theirs = torch.linalg.vector_norm(torch.tensor(x), dim=dim, keepdim=keepdim).numpy()
    _assert_same_bits(ours, theirs)


@given(shape=_shapes(max_dims=4).filter(lambda s: math.prod(s) <= 1 << 15), data=st.data(),
       seed=st.integers(0, 2**32 - 1), dtype=st.sampled_from(["float32", "float64", "float16", "bfloat16"]),
       layout=st.sampled_from(["contiguous", "transposed", "sliced"]))
def test_in_order_adds_one_slice_after_another_for_every_float_dtype_and_layout(shape, data, seed, dtype, layout):
    """The NumPy behaviour every emulated order relies on: ``in_order`` equals a loop of elementwise adds."""
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    block = _values(shape, seed, "wide").astype(np_dtype)
    if layout == "transposed":
        block = block.T
    elif layout == "sliced":
        block = block[(slice(None),) * (block.ndim - 1) + (slice(None, None, 2),)]
    axis = data.draw(st.integers(-block.ndim, block.ndim - 1))
    moved = np.moveaxis(block, axis, 0)
    expected = moved[0].copy() if moved.shape[0] else np.zeros(moved.shape[1:], np_dtype)
    for i in range(1, moved.shape[0]):
        expected = expected + moved[i]
    ours = np.asarray(in_order(block, axis))
    assert ours.dtype == np_dtype
    np.testing.assert_array_equal(ours.astype(np.float64), np.asarray(expected).astype(np.float64))


def test_float64_fused_square_plus_rounds_the_exact_value_once():
    """The float64 norm's tail needs fma(t, t, acc) without an fma in NumPy: the split-and-two-sum form, with the
    rare inexact cases done in exact arithmetic, equals the exactly rounded value."""
    from fractions import Fraction

    from core._norm_order import _square_plus

    rng = np.random.default_rng(0)
    t = rng.standard_normal(4000) * 10.0 ** rng.integers(-150, 150, 4000)
    acc = np.abs(rng.standard_normal(4000)) * 10.0 ** rng.integers(-300, 300, 4000)
    acc[:1000] = t[:1000] * t[:1000] * (1 + rng.integers(-4, 5, 1000) * 2.0**-52)  # near-ties with the square
    expected = [float(Fraction(a) * Fraction(a) + Fraction(c)) for a, c in zip(t, acc)]
    np.testing.assert_array_equal(_square_plus(t, acc.copy()), expected)


def test_a_big_expanded_view_sums_without_being_materialised():
    """A sum of a view expanded from one number (stride 0) over more than EXPANDED_LIMIT elements takes NumPy's
    sum, which walks the view: torch's order would first copy it (64 MB here), on one thread as on several."""
    import tracemalloc

    threads = core.get_num_threads()
    core.set_num_threads(1)
    try:
        x = core.full((), 0.5).expand(4000, 4000)
        tracemalloc.start()
        total, column = x.t().sum(), x.sum(0)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        core.set_num_threads(threads)
    assert total.item() == 0.5 * 4000 * 4000 and column.shape == (4000,) and column[0].item() == 2000.0
    assert peak < 2 * 1024 ** 2
