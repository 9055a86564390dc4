"""``torch._higher_order_ops``' control flow operators (the control flow operators tutorial imports them from their
modules): ``scan``, ``map``, ``associative_scan``, ``while_loop`` and ``cond`` give torch's values (PyTorch compiles
the functions they take, core runs them as Python), gradients through ``scan``, and ``associative_scan``'s refusals."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

RNG = np.random.default_rng(0)
A = RNG.standard_normal((5, 3)).astype(np.float32)
XS = np.arange(12.0, dtype=np.float32).reshape(3, 4)


def _op(lib, name):
    return getattr(importlib.import_module(f"{lib.__name__}._higher_order_ops.{name}"), name)


def test_scan_carries_and_stacks_along_dim_and_in_reverse_as_torch(torch):
    def run(lib):
        scan, xs = _op(lib, "scan"), lib.tensor(XS)
        carry, ys = scan(lambda c, x: (c + x, c * 2), lib.zeros(3), xs, dim=1)
        back = scan(lambda c, x: (c + x, (c * 2, x.clone())), lib.zeros(4), xs, reverse=True)
        return carry, ys, back
    assert_same(run(core), run(torch))


def test_gradients_flow_through_scan_as_torchs(torch):
    def run(lib):
        x = lib.tensor(A[:3, :2], requires_grad=True)
        carry, ys = _op(lib, "scan")(lambda c, step: (c * step, c.clone()), lib.ones(2), x)
        (carry.sum() + ys.sum()).backward()
        return carry, ys, x.grad
    assert_same(run(core), run(torch))


def test_map_applies_a_function_to_each_slice_of_a_pytree_and_stacks_as_torch(torch):
    def run(lib):
        mapped, xs = _op(lib, "map"), lib.tensor(XS)
        return (mapped(lambda x, y: (x * y, x.sum()), xs, lib.tensor(2.0)),
                mapped(lambda d: d["a"] + d["b"], {"a": xs, "b": xs * 2}))
    assert_same(run(core), run(torch))


def test_associative_scan_in_generic_mode_rounds_as_torchs(torch):
    """The S5 state space kernel of the tutorial (a pytree of two leaves) and a reversed scan along dim 1."""
    def run(lib):
        scan, a = _op(lib, "associative_scan"), lib.tensor(A)
        return (scan(lambda p, q: (p[0] * q[0], q[0] * p[1] + q[1]), (a, a * 2), 0, combine_mode="generic"),
                scan(lambda p, q: p * q + 0.5 * q, a, 0, combine_mode="generic"),
                scan(lambda p, q: p + q, a, 1, reverse=True, combine_mode="generic"))
    ours, theirs = run(core), run(torch)
    assert_same(ours, theirs, rtol=0, atol=0)


@pytest.mark.parametrize("call", [
    lambda scan, a: scan(lambda p, q: p + q, a, 0),  # pointwise mode: CUDA or XPU only
    lambda scan, a: scan(lambda p, q: p + q, a, 0, combine_mode="x"),
    lambda scan, a: scan(lambda p, q: p + q, a, 3, combine_mode="generic"),
    lambda scan, a: scan(lambda p, q: p + q, a, 0, reverse=1, combine_mode="generic"),
], ids=["pointwise-on-cpu", "unknown-mode", "dim-out-of-range", "int-reverse"])
def test_associative_scan_refuses_what_torch_refuses(torch, call):
    theirs = raised(lambda: call(_op(torch, "associative_scan"), torch.tensor(A)))
    assert theirs is not None and raised(lambda: call(_op(core, "associative_scan"), core.tensor(A))) == theirs


def test_while_loop_and_cond_from_their_modules_compute_as_torch(torch):
    def run(lib):
        loop = _op(lib, "while_loop")(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2), (lib.tensor(0), lib.ones(2)))
        chosen = _op(lib, "cond")(lib.tensor(True), lambda t: t + 1, lambda t: t - 1, (lib.tensor(XS),))
        return loop, chosen
    assert_same(run(core), run(torch))
    assert core._higher_order_ops.scan is _op(core, "scan")  # (the package names the function, as torch's)


def test_a_cond_records_one_cond_autograd_op_node_as_torchs(torch):
    """Its outputs' grad_fn is ``CondAutogradOpBackward`` over pred and the operands, as in torch (core recorded the
    branch's own nodes); gradients flow through the branch."""
    def run(lib):
        x = lib.tensor(A[0], requires_grad=True)
        y = lib.cond(x.sum() > 0, lambda t: (t * t, t.sin()), lambda t: (t.sin(), t * 2), (x,))
        nodes = [(type(n).__name__ if n is not None else None) for n, _ in y[0].grad_fn.next_functions]
        (y[0].sum() + y[1].sum()).backward()
        z = lib.tensor(A[1], requires_grad=True)
        g = lib.autograd.grad(lib.cond(z.sum() > 0, lambda t: (t ** 3).sum(), lambda t: (t ** 2).sum(), (z,)), z)[0]
        return (y[0].grad_fn.name(), nodes, repr(y[0]).split("grad_fn=")[1]), (y, x.grad, g)
    (our_names, ours), (their_names, theirs) = run(core), run(torch)
    assert our_names == their_names
    assert_same(ours, theirs)
