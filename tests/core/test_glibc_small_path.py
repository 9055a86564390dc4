"""A few elements go to the C library's own expf/expm1f (ctypes, on glibc), more to core's port of them: the two
give the same bits, special values and NaN signs included, so a tensor's size never changes its values."""

from __future__ import annotations

import numpy as np
import pytest

from core import _glibc

SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 88.8, -104.0, 1e-30, -1e-30, 89.0, -89.0],
                   dtype=np.float32)


@pytest.mark.parametrize("name", ["expf", "expm1f"])
def test_few_elements_equal_the_port(name):
    function = getattr(_glibc, name)
    values = np.concatenate([SPECIAL, (np.random.default_rng(0).standard_normal(4000) * 30).astype(np.float32)])
    ported = function(np.tile(values, 2)[: values.size + _glibc._FEW + 1])[: values.size]  # above _FEW: the port
    few = np.concatenate([function(chunk) for chunk in np.array_split(values, values.size // 8)])
    assert np.array_equal(few, ported, equal_nan=True)
    assert np.array_equal(np.signbit(few), np.signbit(ported))


def test_shapes_are_kept():
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 7
    assert _glibc.expf(x).shape == (2, 3) and _glibc.expm1f(x[:, :2]).shape == (2, 2)
