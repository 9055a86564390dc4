"""Binary ops whose operands share a leaf (``atan2(x, x)``, ``x - x * x`` with alpha...) under create_graph: the
gradient's recorded graph (names and order of next_functions, as torch.autograd.graph walks it) and the
second-order gradient's bits are torch's. The graph decides the order the next backward runs its nodes in, and so
the order second-order contributions add up in.

A broadcast gradient summed back to a 0-d operand is at::sum_to's ``tensor.sum()`` (SumBackward0, not a sum over
dims and a view), and dist's two formulas are two norm_backward graphs, the other's first."""

import numpy as np
import pytest

import core


def _walk(fn, out, seen):
    if fn is None:
        out.append("None")
        return out
    if fn in seen:
        out.append(("seen", seen.index(fn)))
        return out
    seen.append(fn)
    out.append(fn.name())
    out.append([nr for _, nr in fn.next_functions])
    for child, _ in fn.next_functions:
        _walk(child, out, seen)
    return out


OPS = {
    "atan2": lambda m, x: m.atan2(x, x * 0.5 + 1.3), "atan2 same": lambda m, x: m.atan2(x, x),
    "hypot": lambda m, x: m.hypot(x, x * x), "fmod": lambda m, x: m.fmod(x, x * 0.3 + 2),
    "fmod same": lambda m, x: m.fmod(x * 3, x), "remainder": lambda m, x: m.remainder(x * 3, x),
    "maximum": lambda m, x: m.maximum(x, x * x), "minimum": lambda m, x: m.minimum(x, x * x),
    "maximum same": lambda m, x: m.maximum(x, x), "copysign": lambda m, x: m.copysign(x, x - 0.2),
    "div trunc": lambda m, x: m.div(x, x + 3, rounding_mode="trunc"),
    "div floor": lambda m, x: m.div(x, x + 3, rounding_mode="floor"),
    "sub alpha": lambda m, x: m.sub(x, x * x, alpha=2.5), "add alpha": lambda m, x: m.add(x, x * x, alpha=2.5),
    "sub same alpha": lambda m, x: m.sub(x, x, alpha=2.5), "mul": lambda m, x: m.mul(x, x.exp()),
    "mul same": lambda m, x: x * x, "rsub": lambda m, x: m.rsub(x, x * x, alpha=3),
    "logaddexp": lambda m, x: m.logaddexp(x, x * 2), "dist": lambda m, x: m.dist(x, x * x),
    "dist broadcast": lambda m, x: m.dist(x.reshape(5, 1), x * x.sum()),
    "mul by a 0-d tensor": lambda m, x: x * x.sum(),
}


def _run(lib, name, dtype):
    x = lib.tensor([0.3, -1.2, 2.5, 0.7, -0.4], dtype=getattr(lib, dtype), requires_grad=True)
    w = lib.tensor([1.5, -0.5, 2.0, 0.25, -1.0], dtype=getattr(lib, dtype))
    y = OPS[name](lib, x)
    (g,) = lib.autograd.grad((y * (w if y.ndim else w[0])).sum(), x, create_graph=True)
    graph = _walk(g.grad_fn, [], [])
    if not g.requires_grad:  # (maximum(x, x): a gradient of constants, so no second order; torch's error)
        with pytest.raises(RuntimeError, match="does not require grad"):
            lib.autograd.grad((g * g).sum(), x)
        return graph, g.detach().numpy()
    (g2,) = lib.autograd.grad((g * g).sum(), x)
    return graph, g.detach().numpy(), g2.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(OPS))
def test_twice_used_binary_op_records_torchs_graph_and_second_order_bits(torch, name, dtype):
    ours, theirs = _run(core, name, dtype), _run(torch, name, dtype)
    assert ours[0] == theirs[0]
    assert len(ours) == len(theirs)
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))
