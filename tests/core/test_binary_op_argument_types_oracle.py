"""``torch.add``/``sub``/``mul``/``div`` given an argument that is neither a tensor nor a number raise PyTorch's
TypeError naming it (the NumPy-compatibility notes: ``torch.add(ndarray, tensor)``), while numbers, NumPy scalars
and the operators' NumPy fallback (``t + ndarray``) keep working."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

BAD = [np.ones(3), [1.0, 2.0, 3.0], None, "a"]


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div"])
@pytest.mark.parametrize("bad", BAD, ids=["ndarray", "list", "none", "str"])
@pytest.mark.parametrize("first", [True, False], ids=["input", "other"])
def test_a_non_tensor_argument_raises_torchs_type_error(name, bad, first, torch):
    messages = []
    for lib in (core, torch):
        ones = lib.ones(3)
        args = (bad, ones) if first else (ones, bad)
        with pytest.raises(TypeError) as info:
            getattr(lib, name)(*args)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_numbers_numpy_scalars_and_the_operators_numpy_fallback_still_work(torch):
    results = []
    for lib in (core, torch):
        t = lib.arange(1.0, 4.0)
        results.append((lib.add(2, t), lib.mul(np.float64(0.5), t), lib.sub(t, np.int64(1)), lib.add(5, 5),
                        t + np.ones(3), np.add(np.ones(3), t)))
    assert_same(results[0], results[1])
