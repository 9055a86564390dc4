"""``vector_norm(y, ord=0)`` counts nonzeros: its backward sends an undefined gradient, and PyTorch's generated nodes
pass an undefined gradient on as undefined (``any_grad_defined``), so the leaf behind a non-leaf ``y`` keeps
``.grad`` None and ``autograd.grad`` answers None, while a custom Function still gets zeros (materialize_grads)."""

import pytest

import core
from tests.core.oracle import assert_same


def _graph(lib, make):
    x = lib.tensor([1.0, 0.0, -2.0, 3.0], requires_grad=True)
    y = x * 2
    return x, y, make(lib, y)


_NORMS = {
    "vector_norm": lambda lib, y: lib.linalg.vector_norm(y, ord=0),
    "norm_p0": lambda lib, y: lib.norm(y, p=0),
    "method_norm": lambda lib, y: y.norm(0),
    "dim_keepdim_times_3": lambda lib, y: (lib.linalg.vector_norm(y, ord=0, dim=0, keepdim=True) * 3).sum(),
}


def _names(node):
    """The graph below ``node``: each node's name and its next_functions' names, depth first."""
    if node is None:
        return None
    return (node.name(), tuple((_names(n), nr) for n, nr in node.next_functions))


@pytest.mark.parametrize("case", sorted(_NORMS))
def test_backward_through_a_zero_order_norm_leaves_the_leaf_grad_none(case, torch):
    for lib in (core, torch):
        x, _, z = _graph(lib, _NORMS[case])
        z.backward()
        assert x.grad is None, lib.__name__
    (_, _, zc), (_, _, zt) = _graph(core, _NORMS[case]), _graph(torch, _NORMS[case])
    assert _names(zc.grad_fn) == _names(zt.grad_fn)


@pytest.mark.parametrize("case", sorted(_NORMS))
def test_autograd_grad_of_a_zero_order_norm_is_none_or_materialized_zeros(case, torch):
    got = {}
    for lib in (core, torch):
        x, y, z = _graph(lib, _NORMS[case])
        unused = lib.autograd.grad(z, (x, y), allow_unused=True, retain_graph=True)
        zeros = lib.autograd.grad(z, (x, y), allow_unused=True, materialize_grads=True)
        got[lib] = unused, zeros
    assert got[core][0] == (None, None) and got[torch][0] == (None, None)
    assert_same(got[core][1], got[torch][1], rtol=0, atol=0)


def test_a_custom_function_below_a_zero_order_norm_still_gets_zeros(torch):
    def run(lib):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, t):
                return t * 2

            @staticmethod
            def backward(ctx, g):
                seen.append(g.clone())
                return g * 2

        seen = []
        x = lib.tensor([1.0, 0.0, -2.0], requires_grad=True)
        lib.linalg.vector_norm(Twice.apply(x), ord=0).backward()
        return seen, x.grad

    (core_seen, core_grad), (torch_seen, torch_grad) = run(core), run(torch)
    assert_same(core_seen, torch_seen, rtol=0, atol=0)
    assert_same(core_grad, torch_grad, rtol=0, atol=0)
