"""``jit.script`` on a function gives PyTorch's ``ScriptFunction``: it computes what the function computes, prints as
torch's, and a call that does not fit the function's schema raises torch's ``RuntimeError`` with torch's text
(a missing argument, too many, an unknown keyword, one given twice); oracle tests against torch."""

from __future__ import annotations

from typing import List, Optional, Tuple

import numpy as np
import pytest

import core
from tests.core.oracle import raised


def _functions(lib):
    Tensor = lib.Tensor  # what the annotations name (TorchScript also knows Tensor by itself)

    def rotate(q, k, cos, sin):
        return q * cos + k * sin, k * cos - q * sin

    def scale(x: Tensor, n: int = 3, s: float = 0.5, t: float = 1.0, b: bool = True,
              o: Optional[Tensor] = None, name: str = "ab", sizes: List[int] = (1, 2)) -> Tensor:
        return x * n * s

    def pair(x: Tensor, y: Tuple[int, float]) -> Tuple[Tensor, int]:
        return x, y[0]

    def plus_one(x):
        return x + 1

    return {f.__name__: lib.jit.script(f) for f in (rotate, scale, pair, plus_one)}


CALLS = {
    "missing_second": lambda lib, f: f["rotate"](lib.ones(2)),
    "missing_all": lambda lib, f: f["plus_one"](),
    "missing_before_keyword": lambda lib, f: f["scale"](n=2),
    "too_many": lambda lib, f: f["rotate"](*[lib.ones(2)] * 5),
    "too_many_with_keyword": lambda lib, f: f["plus_one"](lib.ones(2), y=2),
    "unknown_keyword": lambda lib, f: f["scale"](lib.ones(2), zz=3),
    "positional_and_keyword": lambda lib, f: f["scale"](lib.ones(2), 2, x=lib.ones(2)),
    "tuple_annotations_missing": lambda lib, f: f["pair"](lib.ones(2)),
    "int_for_an_inferred_tensor": lambda lib, f: f["rotate"](1, lib.ones(2), lib.ones(2), lib.ones(2)),
    "float_for_an_inferred_tensor_by_keyword": lambda lib, f: f["plus_one"](x=2.5),
    "list_for_an_annotated_tensor": lambda lib, f: f["scale"]([1, 2]),
    "str_for_an_optional_tensor": lambda lib, f: f["scale"](lib.ones(2), o="ab"),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_call_that_does_not_fit_the_schema_raises_torchs_error(torch, call):
    ours, theirs = (raised(lambda lib=lib: CALLS[call](lib, _functions(lib))) for lib in (core, torch))
    assert theirs is not None and ours == theirs


def test_a_scripted_function_computes_what_the_function_computes(torch):
    results = []
    for lib in (core, torch):
        f = _functions(lib)
        x, c = lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0])
        a, b = f["rotate"](x, x * 2, cos=c, sin=c * 2)
        results.append([a.tolist(), b.tolist(), f["scale"](x, n=2).tolist(), f["plus_one"](x).tolist()])
    assert results[0] == results[1]


def test_a_scripted_function_prints_and_types_as_torchs(torch):
    ours, theirs = ((repr(type(lib.jit.script(_functions(lib)["plus_one"]))).replace("core", "torch"),
                     repr(lib.jit.script(_functions(lib)["plus_one"])).split(" at ")[0].replace("core", "torch"),
                     isinstance(_functions(lib)["plus_one"], lib.jit.ScriptFunction),
                     _functions(lib)["plus_one"].name) for lib in (core, torch))
    assert ours == theirs


def test_a_parameter_is_a_tensor_argument(torch):
    values = []
    for lib in (core, torch):
        p = lib.nn.Parameter(lib.ones(2))
        values.append(_functions(lib)["plus_one"](p).tolist())
    assert values[0] == values[1]


def test_a_scripted_function_runs_on_core_tensors():
    f = _functions(core)["scale"]
    np.testing.assert_allclose(f(core.ones(3), 4).numpy(), np.full(3, 2.0))
