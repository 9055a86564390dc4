"""What a user types into a parameter field is read by numtext.parse without eval and without letting a typo
through: nesting deeper than Python's recursion limit, ``1e999`` (infinity) and 5000-digit numbers are refused
with a ParamError naming the parameter, in bounded time."""

import ast

import pytest

from core.nodegraph.model.numtext import MAX_NESTING, parse
from core.nodegraph.model.spec import Param, ParamError

TENSOR, SHAPE, SEED = Param("tensor", "tensor", 0.0), Param("shape", "shape", (1,)), Param("seed", "seed", None)


@pytest.mark.parametrize("param, text, value", [
    (TENSOR, "[1.5, -2]", [1.5, -2]), (TENSOR, "[[1, 2], [3, 4]]", [[1, 2], [3, 4]]), (SHAPE, "(2, 3)", [2, 3]),
    (SEED, "", None), (SEED, "18446744073709551615", 2 ** 64 - 1), (TENSOR, "1e308", 1e308),
])
def test_numbers_and_lists_read_as_typed(param, text, value):
    assert parse(param, text) == value


@pytest.mark.parametrize("param, text, value", [
    (SHAPE, "2, 3", [2, 3]), (SHAPE, " 2 , 3 ", [2, 3]), (SHAPE, "(2,)", [2]), (SHAPE, "2,", [2]),
    (SHAPE, "[1, 2,]", [1, 2]), (TENSOR, "1.5, -2", [1.5, -2]), (TENSOR, "[[1, 2,], [3, 4,],]", [[1, 2], [3, 4]]),
])
def test_a_shape_or_tensor_reads_as_python_reads_it_in_a_call(param, text, value):
    """``randn(2, 3)`` and ``(2,)``: bare values with commas between are a list, and a trailing comma is dropped."""
    assert parse(param, text) == value
    assert param.validate(parse(param, text)) == param.validate(value)


@pytest.mark.parametrize("text, value", [
    ("[[1., 2.], [3., 4.]]", [[1.0, 2.0], [3.0, 4.0]]), ("2., 3.", [2.0, 3.0]), (".5", 0.5),
    ("[-.5, 1.e-3]", [-0.5, 1e-3]), ("[True, False]", [True, False]),
])
def test_numbers_as_pytorch_prints_them_read_back(text, value):
    """The canvas writes x as ``[2., 3.]``, as print(x) does; typed back into a tensor field that was refused
    (JSON wants 2.0). The values are torch's for the same literal."""
    torch = pytest.importorskip("torch")
    got = parse(TENSOR, text)
    assert got == value
    python = ast.literal_eval(text if text.startswith("[") or "," not in text else f"[{text}]")  # as a call reads it
    assert torch.tensor(got).tolist() == torch.tensor(python).tolist()
    assert torch.tensor(got).dtype == torch.tensor(python).dtype


@pytest.mark.parametrize("text", ["[nan, inf]", "[NAN, -Inf]", "[nan, -infinity]"])
def test_nan_and_inf_as_print_writes_them_are_tensor_values(text):
    nan, inf = parse(TENSOR, text)
    assert nan != nan and abs(inf) == float("inf")


def test_nan_and_infinity_written_out_are_tensor_values():
    nan, inf = parse(TENSOR, "[NaN, Infinity]")
    assert nan != nan and inf == float("inf")


@pytest.mark.parametrize("param, text, message", [
    (TENSOR, "[" * 100_000, f"lists nested deeper than {MAX_NESTING} levels"),
    (TENSOR, "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1), "lists nested deeper"),
    (TENSOR, "1e999", "holds a number too large"),
    (TENSOR, "[1, -1e999]", "holds a number too large"),
    (SEED, "9" * 5000, "holds a number too large"),
    (SHAPE, "[NaN]", "can't read '[NaN]'"), (SHAPE, "[nan]", "can't read '[nan]'"), (TENSOR, "1..", "can't read '1..'"),
    (TENSOR, "[1. 2.]", "can't read '[1. 2.]'"), (TENSOR, "nanx", "can't read 'nanx'"),
    (TENSOR, "abc", "can't read 'abc'"),
    (SHAPE, "3,,4", "can't read '3,,4'"), (SHAPE, "[3,,]", "can't read '[3,,]'"), (SHAPE, "(,)", "can't read '(,)'"),
    (SHAPE, ",", "can't read ','"), (TENSOR, "[" + "1,],[" * 200_000 + "]", "can't read '[1,],[1,],"),
    (TENSOR, "[1" + " " * 1_000_000 + ",,]", "can't read '[1 "),
])
def test_text_that_is_no_value_is_refused_naming_the_parameter(param, text, message):
    with pytest.raises(ParamError) as info:  # a megabyte of text is refused too (linear-time reading)
        parse(param, text)
    assert str(info.value).startswith(f"parameter '{param.name}': ") and message in str(info.value)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("param, wanted", [
    (Param("n", "int", 3), "(type a whole number)"), (Param("lr", "float", 0.1), "(type a number)"),
    (SEED, "(type a whole number, or nothing for the session's seed)"),
    (SHAPE, "(type a number or a list like [1, 2])"),
])
def test_an_unreadable_value_is_refused_with_what_the_field_takes(param, wanted):
    """A number field's refusal asks for a number, not for a list it could never take."""
    with pytest.raises(ParamError, match="can't read 'abc'") as info:
        parse(param, "abc")
    assert str(info.value).endswith(wanted)
