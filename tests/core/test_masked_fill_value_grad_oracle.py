"""``masked_fill(mask, value)`` with a 0-d tensor ``value``: its gradient is FunctionsManual's
``masked_fill_backward``, ``grad.masked_select(mask).sum()``, in torch's graph (SumBackward0 on
MaskedSelectBackward0) and bits (the sum over the selected elements only: a ``where``'s zeros summed in place
changed the float32 and float64 bits)."""

import numpy as np
import pytest

import core


def _graph(fn, depth=0, out=None):
    """Node names with their input numbers, depth first: what torch.autograd.graph traversal sees."""
    out = [] if out is None else out
    out.append((depth, None if fn is None else fn.name()))
    if fn is not None and depth < 6:
        for child, nr in fn.next_functions:
            out.append((depth, nr))
            _graph(child, depth + 1, out)
    return out


def _value_grads(lib, dtype, shape, mask_shape, inplace):
    rng = np.random.default_rng(sum(shape))
    x = lib.tensor(rng.standard_normal(shape), dtype=getattr(lib, dtype), requires_grad=True)
    v = lib.tensor(0.7, dtype=getattr(lib, dtype), requires_grad=True)
    mask = lib.tensor(rng.random(mask_shape) < 0.6)
    y = (x * 1).masked_fill_(mask, v * 2) if inplace else x.masked_fill(mask, v * 2)
    w = lib.tensor(rng.standard_normal(y.shape) * 3, dtype=getattr(lib, dtype))
    _, gv = lib.autograd.grad((y * y * w).sum(), (x, v), create_graph=True)
    (gv2,) = lib.autograd.grad(gv * gv, (v,))
    return _graph(gv.grad_fn), gv.detach().numpy(), gv2.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape, mask_shape, inplace", [
    ((5, 7), (5, 7), False), ((300, 301), (300, 301), False), ((64, 1000), (1000,), False),
    ((7,), (5, 7), False), ((40, 50), (40, 50), True)])
def test_masked_fill_value_gradient_has_torchs_graph_and_bits(torch, dtype, shape, mask_shape, inplace):
    ours, theirs = (_value_grads(lib, dtype, shape, mask_shape, inplace) for lib in (core, torch))
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_array_equal(np.atleast_1d(a).view(np.uint8), np.atleast_1d(b).view(np.uint8))
