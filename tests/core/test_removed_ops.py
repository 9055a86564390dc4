"""torch.range and triangular_solve work (with their warnings); the removed solve, lstsq, symeig, eig and
matrix_rank raise PyTorch's RuntimeError naming their replacements, as functions and as Tensor methods."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from core import _warn_once
from tests.core.oracle import assert_same

A = np.array([[2.0, 1.0], [0.0, 3.0]])
B = np.array([[1.0], [2.0]])


@pytest.mark.parametrize(("args", "kw"), [((1, 4), {}), ((0, 1, 0.25), {}), ((1, 4), {"dtype": "int64"}),
                                          ((5, 1, -2), {}), ((0, 0.3, 0.1), {"dtype": "float64"})])
def test_range_includes_its_end_in_torchs_dtype_and_warns(torch, args, kw):
    results = []
    for lib in (core, torch):
        options = {k: getattr(lib, v) for k, v in kw.items()}
        with pytest.warns(UserWarning, match="torch.range is deprecated"):
            results.append(lib.range(*args, **options))
    assert_same(results[0], results[1])


@pytest.mark.parametrize(("upper", "transpose", "unitriangular"), [(True, False, False), (True, True, False),
                                                                  (False, False, True)])
def test_triangular_solve_returns_torchs_solution_and_coefficient(torch, upper, transpose, unitriangular, monkeypatch):
    results = []
    for lib in (core, torch):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            a = lib.tensor(A if upper else A.T)
            out = lib.tensor(B).triangular_solve(a, upper=upper, transpose=transpose, unitriangular=unitriangular)
        results.append((type(out).__name__, out.solution, out.cloned_coefficient))
    assert results[0][0] == results[1][0] == "triangular_solve"
    assert_same(results[0][1:], results[1][1:])


def test_triangular_solve_warns_once(monkeypatch):
    monkeypatch.setattr(_warn_once, "_warned", set())  # (as in a fresh process)
    with pytest.warns(UserWarning, match="triangular_solve is deprecated"):
        core.triangular_solve(core.tensor(B), core.tensor(A))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        core.triangular_solve(core.tensor(B), core.tensor(A))


def removed_messages(lib, name: str, nargs: int) -> list:
    """The messages of ``lib.<name>(...)`` and, where torch has one, of the Tensor method."""
    callers = [lambda: getattr(lib, name)(*[lib.eye(2)] * nargs)]
    if name != "matrix_rank":  # torch.Tensor has no matrix_rank method
        callers.append(lambda: getattr(lib.eye(2), name)(*[lib.eye(2)] * (nargs - 1)))
    messages = []
    for call in callers:
        with pytest.raises(RuntimeError) as info:
            call()
        messages.append(str(info.value))
    return messages


@pytest.mark.parametrize(("name", "nargs"), [("solve", 2), ("lstsq", 2), ("symeig", 1), ("eig", 1),
                                             ("matrix_rank", 1)])
def test_removed_function_raises_torchs_message(torch, name, nargs):
    ours, theirs = removed_messages(core, name, nargs), removed_messages(torch, name, nargs)
    assert ours == theirs
    assert "This function was deprecated since version 1.9 and is now removed." in ours[0]
