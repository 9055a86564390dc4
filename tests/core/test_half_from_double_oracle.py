"""A double stored into a float16, bfloat16 or float8 tensor rounds twice, as PyTorch builds those types from a
float (``c10::Half(float)``): double to float32, then float32 to 16 or 8 bits. Values just above a 16-bit midpoint
(by less than float32 can hold) round up once and to even twice; every way in (``tensor``, ``to``, ``copy_``,
``fill_``, ``full``, ``full_like``, ``new_full``, item assignment) gives torch's values; oracle tests."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import core

DTYPES = ["float16", "bfloat16", "float8_e4m3fn", "float8_e5m2"]


def _just_above_midpoints(dtype: str) -> np.ndarray:
    """Doubles a hair above the midpoint between neighbouring ``dtype`` values (float32 rounds them onto it)."""
    np_dt = np.float16 if dtype == "float16" else getattr(ml_dtypes, dtype)
    bits = np.arange(2 ** (8 * np.dtype(np_dt).itemsize), dtype=np.uint16 if np.dtype(np_dt).itemsize == 2
                     else np.uint8)
    values = np.unique(bits.view(np_dt).astype(np.float64))
    values = values[np.isfinite(values)]
    pick = np.linspace(0, len(values) - 2, 300).astype(int)
    low, high = values[pick], values[pick + 1]
    return (low + high) / 2 + (high - low) * 2.0**-40


PATHS = {
    "tensor_of_list": lambda lib, x, dt: lib.tensor(x.tolist(), dtype=dt),
    "tensor_of_array": lambda lib, x, dt: lib.tensor(x, dtype=dt),
    "to": lambda lib, x, dt: lib.from_numpy(x).to(dt),
    "copy_": lambda lib, x, dt: lib.zeros(len(x), dtype=dt).copy_(lib.from_numpy(x)),
    "fill_": lambda lib, x, dt: lib.zeros(2, dtype=dt).fill_(float(x[1])),
    "full": lambda lib, x, dt: lib.full((2,), float(x[2]), dtype=dt),
    "full_like": lambda lib, x, dt: lib.full_like(lib.zeros(2, dtype=dt), float(x[3])),
    "new_full": lambda lib, x, dt: lib.zeros(1, dtype=dt).new_full((2,), float(x[4])),
    "setitem": lambda lib, x, dt: _set(lib.zeros(3, dtype=dt), float(x[5])),
    "scalar_tensor": lambda lib, x, dt: lib.scalar_tensor(float(x[6]), dtype=dt),
}


def _set(t, value):
    t[1] = value
    return t


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("path", sorted(PATHS))
def test_a_double_stored_into_a_narrow_float_rounds_through_float32_as_torch(torch, dtype, path):
    x = _just_above_midpoints(dtype)
    ours, theirs = (PATHS[path](lib, x, getattr(lib, dtype)).float().numpy() for lib in (core, torch))
    assert np.array_equal(ours, theirs, equal_nan=True)


def test_the_values_are_those_of_a_float32_step(torch):
    x = _just_above_midpoints("float16")
    ours = core.tensor(x.tolist(), dtype=core.float16).numpy()
    assert np.array_equal(ours, x.astype(np.float32).astype(np.float16))
    assert not np.array_equal(ours, x.astype(np.float16))  # the single rounding NumPy does differs
