"""``x.float()``, ``x.long()``, ``x.half()``... take PyTorch's keyword-only ``memory_format`` (found by the OpInfo
sweep): the cast lays its result out in that format, and refuses what torch's methods refuse; oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check, check_error

METHODS = ["float", "double", "half", "bfloat16", "long", "int", "short", "char", "byte", "bool", "cfloat",
           "cdouble"]
FORMATS = ["contiguous_format", "preserve_format", "channels_last"]


def _cast(lib, x, method, fmt):
    out = getattr(x.permute(0, 2, 3, 1), method)(memory_format=getattr(lib, fmt))  # (from a channels-last view)
    return out.float() if method in ("half", "bfloat16") else out  # (NumPy has no bfloat16: compared as float32)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("fmt", FORMATS)
def test_cast_method_lays_out_its_result_in_the_memory_format(torch, method, fmt):
    x = np.arange(120, dtype=np.float64).reshape(2, 4, 5, 3) % 7
    check(lambda lib, t: _cast(lib, t, method, fmt), [x], torch, check_stride=True)


@pytest.mark.parametrize("call", [lambda t: t.float(2), lambda t: t.long(memory_format=2)])
def test_cast_method_refuses_a_positional_or_non_format_argument(torch, call):
    check_error(lambda lib, t: call(t), [np.zeros(3, dtype=np.float32)], torch)
