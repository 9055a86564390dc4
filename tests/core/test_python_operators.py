"""Tensor's Python protocol methods against torch: unary +, ``in``, shifts, in-place bitwise operators, reversed(),
Python 2's names, and the accelerators a CPU build refuses."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

INTS = np.array([[1, 2], [3, 4]], dtype=np.int64)


def _both(torch, fn, array=INTS):
    return fn(core, core.tensor(array.copy())), fn(torch, torch.tensor(array.copy()))


@pytest.mark.parametrize("element", [2, 5, 2.0, 3.5, True, np.int64(4)])
def test_in_looks_at_every_element_as_torch_does(torch, element):
    ours, theirs = _both(torch, lambda lib, t: element in t)
    assert ours is theirs


def test_in_takes_a_tensor_and_compares_elementwise(torch):
    for value in (4, 7):
        ours, theirs = _both(torch, lambda lib, t, v=value: lib.tensor(v) in t)
        assert ours is theirs
    assert (core.tensor([1, 9]) in core.tensor([[0, 9], [1, 2]])) is \
        (torch.tensor([1, 9]) in torch.tensor([[0, 9], [1, 2]]))


def test_in_on_an_empty_tensor_is_false(torch):
    assert (2 in core.tensor([])) is (2 in torch.tensor([])) is False


@pytest.mark.parametrize("element", ["a", None, [1, 2]])
def test_in_refuses_what_is_neither_tensor_nor_number(torch, element):
    with pytest.raises(RuntimeError) as theirs:
        torch.tensor([1, 2]).__contains__(element)
    with pytest.raises(RuntimeError) as ours:
        core.tensor([1, 2]).__contains__(element)
    assert str(ours.value) == str(theirs.value)


def test_unary_plus_gives_the_same_values_and_refuses_bool(torch):
    ours, theirs = _both(torch, lambda lib, t: +t)
    assert_same(ours, theirs)
    x = core.tensor([1.5, -2.0], requires_grad=True)
    (+x).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="bool tensor is not supported"):
        +core.tensor([True])


@pytest.mark.parametrize("op", [lambda t: t << 1, lambda t: t >> 1, lambda t: 1 << t, lambda t: 64 >> t,
                                lambda t: t << t, lambda t: t >> (t - 1)])
def test_shift_operators_match_torch(torch, op):
    ours, theirs = _both(torch, lambda lib, t: op(t))
    assert_same(ours, theirs)


def test_shifting_a_float_tensor_raises_as_torch_does(torch):
    with pytest.raises(NotImplementedError) as theirs:
        torch.tensor([1.5]) << 1
    with pytest.raises(NotImplementedError) as ours:
        core.tensor([1.5]) << 1
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("name", ["__ilshift__", "__irshift__", "__iand__", "__ior__", "__ixor__"])
def test_in_place_bitwise_operators_change_the_tensor_itself(torch, name):
    def run(lib, t):
        before = t
        t = getattr(t, name)(3)
        assert t is before
        return t
    ours, theirs = _both(torch, run)
    assert_same(ours, theirs)


def test_augmented_bitwise_assignment_keeps_views_in_step(torch):
    def run(lib, t):
        row = t[0]
        row &= 1
        row |= 4
        row ^= 2
        row <<= 1
        return t
    ours, theirs = _both(torch, run)
    assert_same(ours, theirs)


def test_reversed_flips_dim_zero_and_keeps_a_scalar(torch):
    ours, theirs = _both(torch, lambda lib, t: reversed(t))
    assert_same(ours, theirs)
    assert [r.tolist() for r in reversed(core.tensor(INTS))] == [r.tolist() for r in reversed(torch.tensor(INTS))]
    scalar = core.tensor(3)
    assert reversed(scalar) is scalar


def test_python2_names_give_division_truth_and_int(torch):
    x = np.array([1.0, 3.0], dtype=np.float32)
    for fn in (lambda lib, t: t.__div__(2), lambda lib, t: t.__rdiv__(2), lambda lib, t: t.clone().__idiv__(4)):
        ours, theirs = _both(torch, fn, x)
        assert_same(ours, theirs)
    assert core.tensor(3.7).__long__() == torch.tensor(3.7).__long__() == 3
    assert core.tensor(1).__nonzero__() is torch.tensor(1).__nonzero__() is True


@pytest.mark.parametrize("name", ["xpu", "mtia", "ipu"])
def test_other_accelerators_raise_what_a_cpu_build_of_torch_raises(torch, name):
    with pytest.raises(Exception) as theirs:
        getattr(torch.ones(2), name)()
    with pytest.raises(Exception) as ours:
        getattr(core.ones(2), name)()
    assert type(ours.value) is type(theirs.value)
    assert str(ours.value) == str(theirs.value)


BINARY_OPS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and_", "or_", "xor", "lshift",
              "lt", "ge"]
ODD_OPERANDS = [("tensor-list", lambda lib: (lib.tensor([1, 2]), [1, 2])),
                ("list-tensor", lambda lib: ([1, 2], lib.tensor([1, 2]))),
                ("tensor-str", lambda lib: (lib.tensor([1, 2]), "x")),
                ("tensor-None", lambda lib: (lib.tensor([1, 2]), None)),
                ("array-tensor", lambda lib: (np.array([1, 2]), lib.tensor([1, 2])))]


@pytest.mark.parametrize("op", BINARY_OPS)
@pytest.mark.parametrize("case, operands", ODD_OPERANDS, ids=[c for c, _ in ODD_OPERANDS])
def test_an_operand_of_another_type_gets_pythons_answer_as_with_torch(torch, op, case, operands):
    import operator

    fn = getattr(operator, op)
    outcomes = []
    for lib in (core, torch):
        try:
            result = fn(*operands(lib))
            outcomes.append(("ok", type(result).__name__, str(getattr(result, "dtype", ""))))
        except Exception as error:  # the exception is the outcome compared
            outcomes.append((type(error).__name__, str(error).replace("core.", "torch.")))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("name", ["__radd__", "__rsub__", "__iadd__", "__imul__", "__rpow__", "__and__", "__rmatmul__"])
def test_a_binary_dunder_answers_not_implemented_to_an_operand_it_cannot_take(torch, name):
    assert getattr(core.tensor([1.0, 2.0]), name)(None) is NotImplemented
    assert getattr(torch.tensor([1.0, 2.0]), name)(None) is NotImplemented


def test_an_array_divided_by_a_tensor_is_the_tensors_reciprocal_times_the_array(torch):
    a = np.array([1.0, 3.0, 7.0])
    ours, theirs = a / core.tensor([3.0, 7.0, 9.0]), a / torch.tensor([3.0, 7.0, 9.0])
    assert_same(ours, theirs)
    ours, theirs = 1.0 / core.tensor([3.0, 7.0, 9.0]), 1.0 / torch.tensor([3.0, 7.0, 9.0])
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
