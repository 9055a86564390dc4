"""Forward-mode AD (``core.autograd.forward_ad``) against PyTorch: dual tensors, tangent rules, errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
import core.autograd.forward_ad as fwAD
from tests.core.oracle import assert_same, to_numpy

_RNG = np.random.default_rng(3)
A = _RNG.standard_normal((3, 4))
B = _RNG.standard_normal((3, 4))
TA = _RNG.standard_normal((3, 4))
TB = _RNG.standard_normal((3, 4))
POS = np.abs(A) + 0.5
V4 = _RNG.standard_normal(4)
M43 = _RNG.standard_normal((4, 3))
T43 = _RNG.standard_normal((4, 3))
BATCH = _RNG.standard_normal((2, 3, 4))
TBATCH = _RNG.standard_normal((2, 3, 4))


def _fw(lib):
    return lib.autograd.forward_ad


def _dual_run(lib, fn, primals, tangents):
    """``fn(lib, *duals)`` inside a dual level: the output's primal and tangent as arrays (tangent None if none)."""
    fw = _fw(lib)
    with fw.dual_level():
        duals = [fw.make_dual(lib.tensor(p), lib.tensor(t)) if t is not None else lib.tensor(p)
                 for p, t in zip(primals, tangents)]
        primal, tangent = fw.unpack_dual(fn(lib, *duals))
        return primal, tangent


def _check_tangent(torch, fn, primals, tangents):
    cp, ct = _dual_run(core, fn, primals, tangents)
    tp, tt = _dual_run(torch, fn, primals, tangents)
    assert_same(cp, tp, path="primal")
    assert (ct is None) == (tt is None), f"tangent: core {ct is not None}, torch {tt is not None}"
    if tt is not None:
        assert_same(ct, tt, path="tangent")


OPS = {
    "add": (lambda lib, a, b: a + b, (A, B), (TA, TB)),
    "add_alpha_one_dual": (lambda lib, a, b: lib.add(a, b, alpha=2.5), (A, B), (None, TB)),
    "add_number": (lambda lib, a: 3.0 + a, (A,), (TA,)),
    "add_broadcast": (lambda lib, a, v: a + v, (A, V4), (None, V4 * 2)),
    "sub": (lambda lib, a, b: a - b, (A, B), (TA, TB)),
    "sub_alpha": (lambda lib, a, b: lib.sub(a, b, alpha=3), (A, B), (TA, TB)),
    "number_sub": (lambda lib, a: 1.5 - a, (A,), (TA,)),
    "rsub": (lambda lib, a, b: lib.rsub(a, b, alpha=2), (A, B), (TA, TB)),
    "mul": (lambda lib, a, b: a * b, (A, B), (TA, TB)),
    "mul_one_dual": (lambda lib, a, b: a * b, (A, B), (TA, None)),
    "div": (lambda lib, a, b: a / b, (A, POS), (TA, TB)),
    "rdiv_number": (lambda lib, a: 2.0 / a, (POS,), (TA,)),
    "neg": (lambda lib, a: -a, (A,), (TA,)),
    "pow_number": (lambda lib, a: a ** 3, (A,), (TA,)),
    "pow_tensor": (lambda lib, a, b: a ** b, (POS, B), (TA, TB)),
    "number_pow": (lambda lib, b: 2.0 ** b, (B,), (TB,)),
    "exp": (lambda lib, a: a.exp(), (A,), (TA,)),
    "log": (lambda lib, a: lib.log(a), (POS,), (TA,)),
    "sin": (lambda lib, a: lib.sin(a), (A,), (TA,)),
    "cos": (lambda lib, a: a.cos(), (A,), (TA,)),
    "tanh": (lambda lib, a: lib.tanh(a), (A,), (TA,)),
    "sigmoid": (lambda lib, a: lib.sigmoid(a), (A,), (TA,)),
    "relu": (lambda lib, a: lib.relu(a), (A,), (TA,)),
    "functional_relu": (lambda lib, a: lib.nn.functional.relu(a), (A,), (TA,)),
    "sqrt": (lambda lib, a: a.sqrt(), (POS,), (TA,)),
    "abs": (lambda lib, a: a.abs(), (A,), (TA,)),
    "sum": (lambda lib, a: a.sum(), (A,), (TA,)),
    "sum_dim": (lambda lib, a: a.sum(1, keepdim=True), (A,), (TA,)),
    "mean": (lambda lib, a: a.mean(), (A,), (TA,)),
    "mean_dim": (lambda lib, a: a.mean(0), (A,), (TA,)),
    "mm": (lambda lib, a, m: lib.mm(a, m), (A, M43), (TA, T43)),
    "matmul_matrix_vector": (lambda lib, a, v: a @ v, (A, V4), (TA, V4)),
    "matmul_vectors": (lambda lib, v, w: v @ w, (V4, V4 + 1), (V4, None)),
    "matmul_batched": (lambda lib, x, m: x @ m, (BATCH, M43), (TBATCH, T43)),
    "mv": (lambda lib, a, v: lib.mv(a, v), (A, V4), (None, V4)),
    "linear": (lambda lib, a, w, b: lib.nn.functional.linear(a, w, b), (A, M43.T.copy(), V4[:3]),
               (TA, T43.T.copy(), V4[:3])),
    "linear_no_bias": (lambda lib, a, w: lib.nn.functional.linear(a, w), (A, M43.T.copy()), (None, T43.T.copy())),
    "view": (lambda lib, a: a.view(4, 3), (A,), (TA,)),
    "reshape": (lambda lib, a: a.reshape(-1), (A,), (TA,)),
    "transpose": (lambda lib, a: a.transpose(0, 1), (A,), (TA,)),
    "t_then_view_needs_reshape": (lambda lib, a: a.t().reshape(12), (A,), (TA,)),
    "permute": (lambda lib, x: x.permute(2, 0, 1), (BATCH,), (TBATCH,)),
    "expand": (lambda lib, v: v.expand(3, 4), (V4,), (V4,)),
    "unsqueeze_squeeze": (lambda lib, a: a.unsqueeze(0).squeeze(0), (A,), (TA,)),
    "index_int": (lambda lib, a: a[1], (A,), (TA,)),
    "index_slice": (lambda lib, a: a[:, 1:3], (A,), (TA,)),
    "index_list": (lambda lib, a: a[[2, 0]], (A,), (TA,)),
    "index_mask": (lambda lib, a: a[a > 0], (A,), (TA,)),
    "softmax": (lambda lib, a: lib.softmax(a, 1), (A,), (TA,)),
    "log_softmax": (lambda lib, a: lib.nn.functional.log_softmax(a, dim=0), (A,), (TA,)),
    "cat": (lambda lib, a, b: lib.cat([a, b], 0), (A, B), (TA, None)),
    "stack": (lambda lib, a, b: lib.stack([a, b], 1), (A, B), (None, TB)),
    "chain": (lambda lib, a, w: lib.tanh(a @ w).sum(0).exp(), (A, M43), (TA, T43)),
}


@pytest.mark.parametrize("name", list(OPS))
def test_tangent_of_op_matches_torch(torch, name):
    fn, primals, tangents = OPS[name]
    _check_tangent(torch, fn, primals, tangents)


def test_unpack_dual_returns_a_named_pair_with_the_given_tangent():
    x, t = core.tensor([1.0, 2.0]), core.tensor([0.5, -1.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, t)
        unpacked = fwAD.unpack_dual(dual)
        assert type(unpacked).__name__ == "UnpackedDualTensor"
        assert unpacked.primal is not dual and unpacked.tangent is t
        assert np.array_equal(to_numpy(unpacked.primal), [1.0, 2.0])
        primal, tangent = unpacked
        assert tangent is t


def test_plain_tensors_and_comparisons_have_no_tangent():
    x = core.tensor([1.0, -2.0])
    with fwAD.dual_level():
        dual = fwAD.make_dual(x, core.ones(2))
        assert fwAD.unpack_dual(x).tangent is None
        assert fwAD.unpack_dual(dual > 0).tangent is None
        assert fwAD.unpack_dual(x + x).tangent is None
        assert fwAD.unpack_dual(dual.detach()).tangent is None


def test_tangents_are_dropped_when_the_level_exits():
    with fwAD.dual_level():
        dual = fwAD.make_dual(core.tensor([1.0]), core.tensor([2.0]))
        out = dual * 3
    assert fwAD.unpack_dual(out).tangent is None
    assert fwAD.unpack_dual(dual).tangent is None
    with fwAD.dual_level():
        assert fwAD.unpack_dual(out).tangent is None


def test_forward_ad_works_under_no_grad(torch):
    def fn(lib, a):
        with lib.no_grad():
            return (a * a).sum()
    _check_tangent(torch, fn, (A,), (TA,))


def test_dual_level_works_as_a_decorator():
    @fwAD.dual_level()
    def tangent_of_square(x, t):
        return fwAD.unpack_dual(fwAD.make_dual(x, t) ** 2).tangent

    assert np.allclose(to_numpy(tangent_of_square(core.tensor([3.0]), core.tensor([1.0]))), [6.0])


@pytest.mark.parametrize("case", ["nested_level", "outside_level", "int_primal", "int_tangent", "shape",
                                  "already_dual", "exit_without_level"])
def test_misuse_raises_like_torch(torch, case):
    errors = []
    for lib in (torch, core):
        fw = _fw(lib)
        x, t = lib.tensor([1.0, 2.0]), lib.tensor([1.0, 1.0])
        try:
            if case == "outside_level":
                fw.make_dual(x, t)
            elif case == "exit_without_level":
                fw.exit_dual_level()
            else:
                with fw.dual_level():
                    if case == "nested_level":
                        fw.enter_dual_level()
                    elif case == "int_primal":
                        fw.make_dual(lib.tensor([1, 2]), t)
                    elif case == "int_tangent":
                        fw.make_dual(x, lib.tensor([1, 2]))
                    elif case == "shape":
                        fw.make_dual(x, lib.tensor([1.0]))
                    else:
                        fw.make_dual(fw.make_dual(x, t), t)
        except Exception as exc:  # the type and message are compared
            errors.append(exc)
    assert len(errors) == 2, errors
    theirs, ours = errors
    assert type(ours) is type(theirs)
    assert str(ours).split(".")[0] == str(theirs).split(".")[0]


def test_an_op_without_a_tangent_rule_gets_its_tangent_from_its_backward_as_torchs(torch):
    tangents = []
    for lib in (core, torch):
        fw = _fw(lib)
        with fw.dual_level():
            dual = fw.make_dual(lib.tensor([1.0, 2.0]), lib.tensor([0.5, -1.0]))
            tangents.append(fw.unpack_dual(lib.maximum(dual, lib.tensor([0.0, 3.0]))).tangent)
    assert tangents[0].tolist() == tangents[1].tolist() == [0.5, 0.0]
    assert fwAD._state.token is None  # the level was left cleanly


def test_an_in_place_op_on_a_dual_tensor_updates_its_tangent_in_place_as_torch(torch):
    seen = []
    for lib in (core, torch):
        fw = _fw(lib)
        with fw.dual_level():
            tangent = lib.ones(3)
            dual = fw.make_dual(lib.tensor([1.0, 2.0, 3.0]), tangent)
            same = dual.mul_(2) is dual
            dual[:1].mul_(3)  # through a view: the base's tangent changes too
            seen.append((same, fw.unpack_dual(dual).tangent.tolist(), tangent.tolist(), repr(dual)))
    assert seen[0] == seen[1]


def test_reverse_mode_differentiates_a_tangent(torch):
    grads = []
    for lib in (core, torch):
        fw = _fw(lib)
        x = lib.tensor(A, requires_grad=True)
        t = lib.tensor(TA, requires_grad=True)
        with fw.dual_level():
            out = lib.tanh(fw.make_dual(x, t) * x).sum()
            primal, tangent = fw.unpack_dual(out)
        (tangent * 2 + primal).backward()
        grads.append((x.grad, t.grad))
    assert_same(grads[0], grads[1], path="grads of x and t")


def test_plain_ops_inside_a_level_give_plain_results(torch):
    x, y = core.tensor(A), core.tensor(B)
    with fwAD.dual_level():
        fwAD.make_dual(x, core.tensor(TA))
        out = (x + y) * y @ core.tensor(M43)
    assert_same(out, (torch.tensor(A) + torch.tensor(B)) * torch.tensor(B) @ torch.tensor(M43))


def test_a_gradient_taken_inside_a_level_carries_its_tangent(torch):
    results = []
    for lib in (core, torch):
        fw = _fw(lib)
        x = lib.tensor(A, requires_grad=True)
        with fw.dual_level():
            dual = fw.make_dual(x, lib.tensor(TA))
            y = (dual.exp() * lib.sigmoid(dual)).sum() + lib.log_softmax(lib.tanh(dual), 1).sum()
            (g,) = lib.autograd.grad(y, dual, create_graph=True)
            results.append(fw.unpack_dual(g))  # the tangent is the Hessian-vector product H @ TA
    assert_same(tuple(results[0]), tuple(results[1]))
