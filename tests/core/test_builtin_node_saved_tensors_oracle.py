"""A built-in grad_fn has no ``saved_tensors`` (nor ``saved_variables``), as PyTorch's C++ nodes; a custom
Function's node has them, a torch.library custom op's too (its generated Function is a Python one in torch).
torchviz's ``make_dot`` asks ``hasattr(fn, 'saved_tensors')`` to draw a custom Function's saved tensors; on core's
built-in nodes it found an attribute and drew None (#19)."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _double(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 2 + x * 0

    return Double


def _graph_nodes(lib):
    """Every node of a small graph: a Linear, tanh, a custom Function, a view, a sum; with their names."""
    x = lib.tensor(np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 8), requires_grad=True)
    w = lib.tensor(np.linspace(0, 1, 128, dtype=np.float32).reshape(16, 8), requires_grad=True)
    b = lib.zeros(16, requires_grad=True)
    y = _double(lib).apply(lib.nn.functional.linear(x, w, b).tanh()).view(4, 4).sum()
    seen, order, stack = set(), [], [y.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        order.append(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return y, order, (x, w, b)


@pytest.mark.parametrize("attr", ["saved_tensors", "saved_variables"])
def test_only_a_custom_functions_node_has_saved_tensors_as_in_torch(torch, attr):
    (_, ours, _), (_, theirs, _) = _graph_nodes(core), _graph_nodes(torch)
    assert [type(f).__name__ for f in ours] == [type(f).__name__ for f in theirs]
    assert [hasattr(f, attr) for f in ours] == [hasattr(f, attr) for f in theirs]


def test_builtin_node_says_it_has_no_saved_tensors_and_backward_still_reads_them(torch):
    results = []
    for lib in (core, torch):
        y, nodes, leaves = _graph_nodes(lib)
        tanh = next(f for f in nodes if type(f).__name__ == "TanhBackward0")
        with pytest.raises(AttributeError) as info:
            _ = tanh.saved_tensors
        custom = next(f for f in nodes if type(f).__name__ == "DoubleBackward")
        saved = custom.saved_tensors[0].detach().numpy().tolist()
        y.backward()
        results.append((str(info.value), saved, [t.grad.numpy().tolist() for t in leaves]))
    assert results[0] == results[1]


def _custom_op_node(lib, name: str):
    """The grad_fn of a torch.library custom op with a registered backward that reads ``ctx.saved_tensors``."""
    def sine(x):
        return x.sin()

    sine.__annotations__ = {"x": lib.Tensor, "return": lib.Tensor}  # (this module's annotations are strings)
    sine = lib.library.custom_op(f"saved_oracle::{name}", mutates_args=())(sine)
    def setup(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()

    sine.register_autograd(backward, setup_context=setup)
    x = lib.tensor([0.5, 1.0, 2.0], requires_grad=True)
    y = sine(x)
    return x, y


@pytest.mark.parametrize("lib_name", ["core", "torch"])
def test_a_custom_ops_node_is_a_custom_functions_as_torchs(torch, lib_name):
    lib = core if lib_name == "core" else torch
    x, y = _custom_op_node(lib, f"sine_{lib_name}")
    node = y.grad_fn
    seen = (type(node).__name__, callable(node), hasattr(node, "saved_tensors"), hasattr(node, "apply"),
            type(node).__mro__[1].__name__)
    y.sum().backward()
    assert seen == ("GeneratedBackwardFor_saved_oracle_sine_" + lib_name + "_defaultBackward", False, True, True,
                    "BackwardCFunction")
    assert x.grad.numpy().tolist() == torch.tensor([0.5, 1.0, 2.0]).cos().numpy().tolist()
