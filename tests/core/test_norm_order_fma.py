"""The float64 2-norm's fused multiply-adds (``core._norm_order._square_plus``) round ``t * t + acc`` exactly once
in NumPy, near-halfway sums included, so norms of float64 rows keep torch's bits without Python fractions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import core
import core._norm_order as norm_order


def _exact(t: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """``t * t + acc`` rounded once from the exact value (IEEE's result where an input is not finite)."""
    out = []
    for a, c in zip(t.tolist(), acc.tolist()):
        if not (np.isfinite(a) and np.isfinite(c)):
            out.append(a * a + c)
            continue
        try:
            out.append(float(Fraction(a) * Fraction(a) + Fraction(c)))
        except OverflowError:
            out.append(np.inf)
    return np.array(out)


def _halfway_inputs(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Squares of about an odd number of half ulps of ``acc``: ``acc + t * t`` lies a hair off a halfway point,
    where rounding the square first (or the two-sum's remainder) picks the wrong neighbour."""
    rng = np.random.default_rng(seed)
    acc = np.abs(rng.standard_normal(n)) * 2.0 ** rng.integers(-900, 900, n)
    t = np.sqrt((2 * rng.integers(0, 50, n) + 1) * np.spacing(acc) / 2) * rng.choice([-1.0, 1.0], n)
    return t, acc


def test_halfway_sums_round_as_the_exact_value():
    t, acc = _halfway_inputs(6000, 1)
    expected = _exact(t, acc)
    assert np.count_nonzero(t * t + acc != expected) > 1000  # the inputs are hard: NumPy's two roundings differ
    np.testing.assert_array_equal(norm_order._square_plus(t, acc.copy()), expected)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_magnitudes_and_special_values_round_as_the_exact_value(seed):
    rng = np.random.default_rng(seed)
    n = 6000
    t = rng.standard_normal(n) * 2.0 ** rng.integers(-480, 500, n)
    acc = np.abs(rng.standard_normal(n)) * 2.0 ** rng.integers(-1074, 1000, n)
    acc[:1500] = t[:1500] * t[:1500] * (1 + rng.integers(-4, 5, 1500) * 2.0**-52)  # near-ties with the square
    t[1500:1510], acc[1510:1520], t[1520:1530] = np.inf, np.inf, 0.0
    t[1530:1540] = 1e300  # the square overflows
    t[1540:1550] = np.nan
    with np.errstate(over="ignore", invalid="ignore"):
        ours = norm_order._square_plus(t, acc.copy())
    np.testing.assert_array_equal(ours, _exact(t, acc))


def test_ordinary_rows_never_fall_back_to_fractions(monkeypatch):
    """The float64 norms of cdist's differences of GP inputs (few columns: all fused multiply-adds) stay in NumPy."""
    calls = []
    monkeypatch.setattr(norm_order, "_exact_square_plus", lambda t, acc: calls.append(t) or t * t + acc)
    x = np.random.default_rng(3).standard_normal((20000, 7))
    norm_order.two_norm(x, (-1,), False)
    assert calls == []


@pytest.mark.parametrize("width", [1, 2, 3, 5, 7, 9, 13])
@pytest.mark.parametrize("scale", [1e-3, 1.0, 1e100])
def test_float64_row_norms_equal_torch_bit_for_bit(torch, width, scale):
    array = np.random.default_rng(width).standard_normal((2000, width)) * scale
    np.testing.assert_array_equal(core.linalg.vector_norm(core.tensor(array), dim=-1).numpy(),
                                  torch.linalg.vector_norm(torch.tensor(array), dim=-1).numpy())
    np.testing.assert_array_equal(core.tensor(array).norm(dim=1).numpy(), torch.tensor(array).norm(dim=1).numpy())


@pytest.mark.parametrize("width", [1, 3, 6])
def test_float64_rows_with_inf_nan_and_overflow_equal_torch(torch, width):
    """Width 1 included: torch's norm of one element is its absolute value, 1e300 and 1e-200 too."""
    rng = np.random.default_rng(width)
    array = rng.standard_normal((3000, width)) * 2.0 ** rng.integers(-400, 400, (3000, width))
    array.flat[::31], array.flat[1::37], array.flat[2::41], array.flat[3::43] = np.nan, np.inf, -np.inf, 1e300
    with np.errstate(over="ignore", invalid="ignore"):
        ours = core.linalg.vector_norm(core.tensor(array), dim=-1).numpy()
    np.testing.assert_array_equal(ours, torch.linalg.vector_norm(torch.tensor(array), dim=-1).numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_norm_of_one_element_is_its_absolute_value_as_in_torch(torch, dtype):
    values = [[3e30], [1e-30], [-2.5], [0.0]] if dtype == "float32" else [[1e300], [-1e-200], [5e-324], [-3.0]]
    array = np.array(values, dtype)
    ours, theirs = core.tensor(array), torch.tensor(array)
    np.testing.assert_array_equal(core.linalg.vector_norm(ours, dim=-1).numpy(),
                                  torch.linalg.vector_norm(theirs, dim=-1).numpy())
    np.testing.assert_array_equal(ours[:1].norm(dim=(0, 1), keepdim=True).numpy(),
                                  theirs[:1].norm(dim=(0, 1), keepdim=True).numpy())
    np.testing.assert_array_equal(core.nn.functional.normalize(ours, dim=1).numpy(),
                                  torch.nn.functional.normalize(theirs, dim=1).numpy())
    assert ours[0].norm().item() == theirs[0].norm().item()
