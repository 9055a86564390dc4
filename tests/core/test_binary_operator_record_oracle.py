"""``a + b`` / ``a * b`` with a graph to record (``core.autograd.function.apply_pair``, the operators' unrolled
``Function.apply``) against torch: the same values, gradients, graph, saved tensors and version checks as the
general route, for every kind of operand it takes and every one it hands to ``apply``."""

from __future__ import annotations

import operator

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

OPS = [operator.add, operator.mul]
A = np.array([[1.5, -2.0, 0.25], [3.0, 0.5, -1.0]], dtype=np.float32)
B = np.array([0.5, 4.0, -3.0], dtype=np.float32)


def _graph(fn) -> list:
    """Each node's name and its edges' node names and output numbers, breadth first from ``fn``."""
    seen, out, todo = set(), [], [fn]
    while todo:
        node = todo.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        edges = [(None if n is None else type(n).__name__, i) for n, i in node.next_functions]
        out.append((type(node).__name__, edges))
        todo.extend(n for n, _ in node.next_functions)
    return out


def _run(lib, op, make):
    a, b = make(lib)
    z = op(a, b)
    loss = (z * z).sum()
    (loss.real if loss.is_complex() else loss).backward()
    return z, [t.grad for t in (a, b) if isinstance(t, lib.Tensor) and t.is_leaf and t.requires_grad]


CASES = {
    "both leaves": lambda lib: (lib.tensor(A, requires_grad=True), lib.tensor(B, requires_grad=True)),
    "one leaf": lambda lib: (lib.tensor(A, requires_grad=True), lib.tensor(B)),
    "the other leaf": lambda lib: (lib.tensor(A), lib.tensor(B, requires_grad=True)),
    "0-d operands": lambda lib: (lib.tensor(2.5, requires_grad=True), lib.tensor(-0.5, requires_grad=True)),
    "float64 and float32": lambda lib: (lib.tensor(A, dtype=lib.float64, requires_grad=True),
                                        lib.tensor(B, requires_grad=True)),
    "float and int": lambda lib: (lib.tensor(A, requires_grad=True), lib.tensor([1, 2, 3])),
    "a parameter": lambda lib: (lib.nn.Parameter(lib.tensor(A)), lib.tensor(B, requires_grad=True)),
    "a non-leaf": lambda lib: ((lib.tensor(A, requires_grad=True) * 2).tanh(), lib.tensor(B, requires_grad=True)),
    "a view (general route)": lambda lib: (lib.tensor(A, requires_grad=True)[1:], lib.tensor(B, requires_grad=True)),
    "empty (general route)": lambda lib: (lib.zeros(0, 3, requires_grad=True), lib.tensor(B, requires_grad=True)),
    "complex": lambda lib: (lib.tensor(A.astype(np.complex64) * (1 + 1j), requires_grad=True),
                            lib.tensor(B, requires_grad=True)),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("op", OPS, ids=["add", "mul"])
def test_values_gradients_and_graph_match_torch(torch, op, case):
    (z, grads), (tz, tgrads) = _run(core, op, CASES[case]), _run(torch, op, CASES[case])
    assert_same(z, tz)
    assert (z.requires_grad, z.is_leaf) == (tz.requires_grad, tz.is_leaf)
    assert _graph(z.grad_fn) == _graph(tz.grad_fn)
    assert len(grads) == len(tgrads)
    for g, tg in zip(grads, tgrads):
        assert_same(g, tg)


def test_saved_operands_and_their_versions_match_torch(torch):
    def attempt(lib):
        a, b = lib.tensor(A, requires_grad=True), lib.tensor(B, requires_grad=True)
        z = a * b
        saved = (z.grad_fn._saved_self.equal(a), z.grad_fn._saved_other.equal(b))
        with lib.no_grad():
            b.add_(1)  # the saved ``other`` changed after it was saved
        try:
            z.sum().backward()
        except RuntimeError as error:
            return saved, type(error), "modified by an inplace operation" in str(error)
        return saved, None, False

    assert attempt(core) == attempt(torch) == ((True, True), RuntimeError, True)


def test_saved_tensor_hooks_see_the_operands_as_in_torch(torch):
    def packed(lib):
        seen = []
        a, b = lib.tensor(A, requires_grad=True), lib.tensor(B, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: seen.append(tuple(t.shape)) or t, lambda t: t):
            z = a * b
            y = a + b
        (z + y).sum().backward()
        return seen, a.grad, b.grad

    ours, theirs = packed(core), packed(torch)
    assert ours[0] == theirs[0]
    assert_same(ours[1], theirs[1])
    assert_same(ours[2], theirs[2])


def test_anomaly_mode_keeps_the_forward_trace_up_to_the_operator():
    a, b = core.tensor(A, requires_grad=True), core.tensor(B, requires_grad=True)
    with pytest.warns(UserWarning), core.autograd.detect_anomaly():
        z = a * b  # the caller's line
    trace = z.grad_fn._trace
    assert "z = a * b  # the caller's line" in trace
    assert trace.rstrip().splitlines()[-2].endswith("in operator")  # up to apply's caller, as the general route


def test_inference_operand_saved_for_backward_is_refused_as_in_torch(torch):
    def attempt(lib):
        with lib.inference_mode():
            c = lib.tensor(B)
        a = lib.tensor(A, requires_grad=True)
        try:
            a * c
        except RuntimeError as error:
            return "Inference tensors cannot be saved for backward" in str(error)
        return False

    assert attempt(core) is attempt(torch) is True


def test_forward_ad_and_no_grad_take_their_own_routes(torch):
    import core.autograd.forward_ad as fwad

    a, b = core.tensor(A, requires_grad=True), core.tensor(B)
    with fwad.dual_level():
        d = fwad.make_dual(core.tensor(B), core.ones(3))
        z = a * d
        assert_same(fwad.unpack_dual(z).tangent, torch.tensor(A))
    with core.no_grad():
        assert (a * b).grad_fn is None
