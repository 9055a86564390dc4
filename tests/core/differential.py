"""Differential testing against PyTorch: one line of user code, run with ``torch`` bound to ``core`` and to PyTorch.

The ``tests/core/test_differential_*.py`` files are tables of such lines (the test id is the line itself). A line
is an expression over ``torch`` and ``np``; :func:`same_call` evaluates it in both libraries and compares what
comes out with :func:`same_result`: tensors by dtype, shape, values and ``requires_grad`` (strides on request),
containers item by item, Python numbers by type and value, dtypes, sizes and strings exactly. When PyTorch raises,
core must raise the same exception type (``check_error``'s rule: the type, or one with its name in core's MRO).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

import core
from tests.core.oracle import assert_same

__all__ = ["evaluate", "lines", "same_call", "same_result"]


def lines(text: str) -> list:
    """The code lines of a table: one call a line; blank lines and ``#`` comments left out."""
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def evaluate(lib, code: str, names=None):
    """``code`` evaluated with ``torch`` bound to ``lib``; ``(value, None)`` or ``(None, exception)``."""
    scope = {"torch": lib, "np": np, "math": math, **(names or {})}
    with warnings.catch_warnings():  # (torch warns once per process: the warnings are not compared)
        warnings.simplefilter("ignore")
        try:
            return eval(code, scope), None  # (the tables are this repository's own test lines)
        except Exception as exc:  # the type is compared with PyTorch's
            return None, exc


def _is_tensor(x) -> bool:
    return isinstance(x, core.Tensor) or (type(x).__module__.startswith("torch") and hasattr(x, "grad_fn"))


def same_result(ours, theirs, path: str = "result", check_stride: bool = False, rtol=1e-5, atol=1e-6) -> None:
    """Assert that core's ``ours`` is what PyTorch's ``theirs`` is (recursively)."""
    if _is_tensor(theirs):
        assert isinstance(ours, core.Tensor), f"{path}: core gave {type(ours).__name__}, torch a tensor"
        assert ours.requires_grad == theirs.requires_grad, f"{path}: requires_grad {ours.requires_grad}"
        if str(theirs.dtype) == "torch.bfloat16":  # (torch's numpy() refuses bfloat16: compared widened, exactly)
            assert str(ours.dtype) == str(theirs.dtype), f"{path}: dtype {ours.dtype} != {theirs.dtype}"
            assert_same(ours.detach().float(), theirs.detach().float(), rtol=0, atol=0, check_stride=check_stride,
                        path=path)
        else:
            assert_same(ours, theirs, rtol=rtol, atol=atol, check_stride=check_stride, path=path)
    elif isinstance(theirs, (tuple, list)) and not hasattr(theirs, "numel"):
        assert isinstance(ours, (tuple, list)), f"{path}: core gave {type(ours).__name__}, torch {theirs!r}"
        assert len(ours) == len(theirs), f"{path}: {len(ours)} items, torch {len(theirs)}"
        for i, (o, t) in enumerate(zip(ours, theirs)):
            same_result(o, t, f"{path}[{i}]", check_stride, rtol, atol)
    elif isinstance(theirs, (bool, int, float, complex)):
        assert type(ours).__name__ == type(theirs).__name__, f"{path}: {ours!r} is not a {type(theirs).__name__}"
        if isinstance(theirs, float) and math.isnan(theirs):
            assert math.isnan(ours), f"{path}: {ours!r}, torch nan"
        else:
            assert ours == theirs or abs(ours - theirs) <= atol + rtol * abs(theirs), f"{path}: {ours!r} != {theirs!r}"
    elif theirs is None or isinstance(theirs, str):
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"
    else:  # dtypes, devices, Size, layouts: by their text
        assert str(ours) == str(theirs), f"{path}: {ours!r} != {theirs!r}"


def same_call(torch, code: str, names=None, check_stride: bool = False, **tolerance):
    """Run ``code`` in both libraries and assert the same result or the same exception type; core's result."""
    theirs, their_error = evaluate(torch, code, names)
    ours, our_error = evaluate(core, code, names)
    if their_error is not None:
        assert our_error is not None, f"core did not raise; torch raised {type(their_error).__name__}: {their_error}"
        names_ = {c.__name__ for c in type(our_error).__mro__}
        assert type(their_error).__name__ in names_, \
            f"core raised {type(our_error).__name__}: {our_error}; torch {type(their_error).__name__}: {their_error}"
        return our_error
    assert our_error is None, f"core raised {type(our_error).__name__}: {our_error}; torch gave {theirs!r}"
    same_result(ours, theirs, check_stride=check_stride, **tolerance)
    return ours
