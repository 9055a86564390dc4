"""An in-place op whose ``self`` has no tangent but whose operand does (``y.mul_(dual)``, ``w.add_(dual).sigmoid_()``)
gives PyTorch's primal and tangent: the rule's rerun reads ``self``'s old value and writes into a copy. Core wrote
``self`` twice (``y.mul_(d)`` held y * d * d), took the tangent from the new value and left a reverse-mode
``grad_fn`` on the primal; ATen's GRUCell runs such steps on a zero initial state under ``jvp``. A view of such
a tensor written in place gives the tensor a tangent too (zero outside the view), as PyTorch's; core gave none."""

from __future__ import annotations

import numpy as np
import pytest

import core

X = np.array([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]])
Y = np.array([[1.5, 0.2, -0.3], [-2.0, 0.9, 0.25]])
T = np.array([[1.0, -0.5, 2.0], [0.25, 3.0, -1.0]])


def _steps(y, d, op):
    if op == "mul_":
        return y.mul_(d)
    if op == "add_sigmoid_":
        return y.add_(d).sigmoid_()
    if op == "sub_tanh_":
        return y.sub_(d, alpha=2).tanh_()
    if op == "div_":
        return y.div_(d + 3)
    if op == "view_mul_":  # a view of self written in place: self's tangent holds the view's
        return y.unsqueeze(0).mul_(d).squeeze(0)
    return y[1].add_(d[0])  # a row of self: the other row's tangent is zero


def _run(lib, op):
    fwAD = lib.autograd.forward_ad
    with fwAD.dual_level():
        d = fwAD.make_dual(lib.tensor(X), lib.tensor(T))
        y = lib.tensor(Y)
        out = _steps(y, d, op)
        primal, tangent = fwAD.unpack_dual(out)
        return primal.numpy(), tangent.numpy(), primal.grad_fn is None, fwAD.unpack_dual(y).tangent.numpy()


@pytest.mark.parametrize("op", ["mul_", "add_sigmoid_", "sub_tanh_", "div_", "view_mul_", "row_add_"])
def test_in_place_op_on_a_plain_tensor_with_a_dual_operand_is_torchs(torch, op):
    ours, theirs = _run(core, op), _run(torch, op)
    assert ours[2] == theirs[2]
    for a, b in (ours[0], theirs[0]), (ours[1], theirs[1]), (ours[3], theirs[3]):
        np.testing.assert_allclose(a, b, rtol=1e-15, atol=0)
