"""``remainder`` (and ``%``) on floats follows PyTorch's ``fmod``-based rule: an exact multiple gives a zero with the
dividend's sign (``-3. % 3`` prints ``-0.``), and a nonzero result takes the divisor's sign; oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

import core

DIVIDENDS = [-0.0, 0.0, -3.0, 3.0, -6.0, 4.0, -1.5, 1.5, -7.25, 7.25]


def _both(torch, fn):
    return [fn(lib) for lib in (core, torch)]


def _signed(t):
    a = t.detach().numpy()
    return a.tolist(), np.signbit(a).tolist()


@pytest.mark.parametrize("divisor", [3.0, -3.0, 2.5])
def test_a_float_remainder_keeps_the_dividends_sign_on_zero_results(torch, divisor):
    ours, theirs = _both(torch, lambda lib: _signed(lib.remainder(lib.tensor(DIVIDENDS), divisor)))
    assert ours == theirs


def test_the_percent_operator_and_remainder_in_place_print_as_torchs(torch):
    def printed(lib):
        x = lib.tensor(DIVIDENDS, dtype=lib.float64)
        in_place = x.clone().remainder_(lib.tensor(-3.0, dtype=lib.float64))
        return repr(-x % 3), repr(in_place), repr(lib.remainder(5.0, x[2:4]))
    ours, theirs = _both(torch, printed)
    assert ours == theirs


def test_a_float_remainder_by_infinity_or_zero_matches_torch(torch):
    def special(lib):
        x = lib.tensor([-3.0, 3.0, 0.0, -0.0])
        return _signed(lib.remainder(x, float("inf"))), _signed(lib.remainder(x, float("-inf"))), _signed(x % 0.0)
    ours, theirs = _both(torch, special)
    assert str(ours) == str(theirs)  # nan == nan as text
