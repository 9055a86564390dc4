"""Oracle tests for what Torch-Pruning and geoopt (tests/external/recipes_pruning.py) found different in core."""

from __future__ import annotations

import inspect

import pytest
import torch

import core


def test_serialization_exports_default_protocol_as_save_default():
    assert core.serialization.DEFAULT_PROTOCOL == torch.serialization.DEFAULT_PROTOCOL
    core_default = inspect.signature(core.save).parameters["pickle_protocol"].default
    torch_default = inspect.signature(torch.save).parameters["pickle_protocol"].default
    assert core_default == torch_default == torch.serialization.DEFAULT_PROTOCOL


def _subclass_with_extra_argument(lib, base):
    class Extra(base):
        def __new__(cls, data=None, manifold=None, requires_grad=True):
            instance = lib.Tensor._make_subclass(cls, data, requires_grad)
            instance.manifold = manifold
            return instance

    return Extra


def test_parameter_subclass_new_may_take_arguments_parameter_does_not():
    for name in ("Parameter", "Buffer"):
        got = {}
        for lib in (core, torch):
            cls = _subclass_with_extra_argument(lib, getattr(lib.nn, name))
            p = cls(lib.ones(2), manifold="sphere", requires_grad=False)
            got[lib.__name__] = (p.manifold, p.requires_grad, p.tolist(), isinstance(p, getattr(lib.nn, name)))
        assert got["core"] == got["torch"]


def _manifold_parameter_case(lib):
    class ManifoldTensor(lib.Tensor):
        def __new__(cls, *args, manifold="euclidean", requires_grad=False, **kwargs):
            data = args[0].data if len(args) == 1 and isinstance(args[0], lib.Tensor) else lib.Tensor(*args)
            instance = lib.Tensor._make_subclass(cls, data, requires_grad)
            instance.manifold = manifold
            return instance

    class ManifoldParameter(ManifoldTensor, lib.nn.Parameter):
        def __new__(cls, data=None, manifold=None, requires_grad=True):
            data = ManifoldTensor(data, manifold=manifold or "euclidean")
            instance = ManifoldTensor._make_subclass(cls, data, requires_grad)
            instance.manifold = data.manifold
            return instance

    p = ManifoldParameter(lib.arange(3.0), manifold="sphere")
    module = lib.nn.Linear(1, 1)
    module.w = p
    return p.manifold, p.requires_grad, p.tolist(), sorted(dict(module.named_parameters())), type(p).__mro__[1].__name__


def test_manifold_parameter_pattern_subclassing_tensor_and_parameter():
    """geoopt's ManifoldParameter: a Tensor subclass with a keyword-only ``manifold`` mixed into Parameter."""
    assert _manifold_parameter_case(core) == _manifold_parameter_case(torch)


def _parameter_reprs(lib):
    class Plain(lib.nn.Parameter):
        pass

    class Own(lib.nn.Parameter):
        def __repr__(self):
            return "on a manifold:\n" + lib.Tensor.__repr__(self)

    data = lib.arange(4.0).reshape(2, 2)
    return [repr(Plain(data)), str(Plain(data)), lib.Tensor.__repr__(Plain(data)), str(Own(data)),
            repr(Own(data, requires_grad=False)), str(lib.nn.Parameter(data))]


def test_parameter_subclass_repr_and_str_follow_the_subclass():
    """str() of a Parameter subclass calls its own __repr__ (torch's Parameter has no __str__), and
    Tensor.__repr__ of a Parameter subclass wraps it as Parameter(Sub([...]))."""
    assert _parameter_reprs(core) == _parameter_reprs(torch)


def _graph(fn) -> list:
    """The autograd graph under ``fn`` as (depth, node name) pairs, the way Torch-Pruning walks it."""
    out, stack = [], [(fn, 0)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            continue
        out.append((depth, type(node).__name__))
        stack.extend((nxt, depth + 1) for nxt, _ in reversed(node.next_functions))
    return out


@pytest.mark.parametrize("shape, weights", [((4, 6), 1), ((4, 6), 6), ((2, 6, 3, 3), 6), ((2, 6, 3, 3), 1),
                                            ((6,), 1), ((), 1), ((2, 6, 5), 6), ((6,), 0)])
def test_prelu_views_its_weight_whenever_the_ranks_differ(shape, weights):
    """ATen's prelu reshapes the weight to the input's rank (ViewBackward0 under PreluKernelBackward0), for a
    one-element weight too: Torch-Pruning's dependency graph follows that node."""
    got = {}
    for lib in (core, torch):
        lib.manual_seed(0)
        weight = lib.nn.Parameter(lib.full((weights,) if weights else (), 0.25))
        x = lib.randn(shape, requires_grad=True)
        y = lib.nn.functional.prelu(x, weight)
        y.sum().backward()
        got[lib.__name__] = (_graph(y.grad_fn), y.shape, weight.grad.tolist())
    assert got["core"] == got["torch"]


@pytest.mark.parametrize("shape, weight_shape", [((), (3,)), ((2, 4), (2, 2)), ((2, 6), (2, 3))])
def test_prelu_checks_in_atens_order(shape, weight_shape):
    errors = {}
    for lib in (core, torch):
        with pytest.raises(RuntimeError) as info:
            lib.nn.functional.prelu(lib.ones(shape), lib.ones(weight_shape))
        errors[lib.__name__] = str(info.value)
    assert errors["core"] == errors["torch"]


_SAVED_CASES = {
    "split_sizes": lambda lib, x: x.split((4, 6), 1)[0],
    "split_int": lambda lib, x: x.split(3, dim=1)[1],
    "chunk": lambda lib, x: x.chunk(2, 1)[0],
    "tensor_split": lambda lib, x: x.tensor_split(3, 1)[2],
    "unbind": lambda lib, x: x.unbind(1)[0],
    "cat": lambda lib, x: lib.cat([x, x], 1),
    "stack": lambda lib, x: lib.stack([x, x], 2),
    "slice_step": lambda lib, x: x[:, 2:8:2],
    "slice_open": lambda lib, x: x[..., 1:],
    "slice_negative": lambda lib, x: x[:, -3:],
    "slice_head": lambda lib, x: x[:, :4],
    "narrow": lambda lib, x: x.narrow(1, 2, 3),
    "select": lambda lib, x: x[:, 3],
    "select_negative": lambda lib, x: x[:, :, -1],
    "cat_negative_dim": lambda lib, x: lib.cat([x, x], -3),
    "split_negative_dim": lambda lib, x: x.split(2, -2)[0],
    "split_sizes_negative_dim": lambda lib, x: lib.split(x, [1, 2], -1)[1],
    "chunk_negative_dim": lambda lib, x: x.chunk(3, -1)[2],
    "stack_negative_dim": lambda lib, x: lib.stack([x, x], -2),
    "unbind_negative_dim": lambda lib, x: x.unbind(-3)[1],
    "view": lambda lib, x: x.view(2, -1),
    "flatten": lambda lib, x: x.flatten(1),
    "expand": lambda lib, x: x[:, :1].expand(2, 4, 3, 3),
}


def _saved_values(lib, make):
    x = lib.randn(2, 10, 3, 3, requires_grad=True)
    node = make(lib, x).grad_fn
    names = sorted(n for n in dir(node) if n.startswith("_saved_"))
    return type(node).__name__, {n: getattr(node, n) for n in names}


@pytest.mark.parametrize("case", sorted(_SAVED_CASES))
def test_view_nodes_keep_torchs_saved_sizes(case):
    """grad_fn._saved_dim / _saved_split_sizes / _saved_start... of the shape ops, which Torch-Pruning reads to map
    channels through splits, slices and concatenations (a negative saved int shows wrapped to 64 bits)."""
    assert _saved_values(core, _SAVED_CASES[case]) == _saved_values(torch, _SAVED_CASES[case])


def _parameter_of_subclass(lib):
    class Plain(lib.Tensor):
        pass

    class Disabled(lib.Tensor):
        __torch_function__ = lib._C._disabled_torch_function_impl

    out = []
    for cls in (Plain, Disabled):
        try:
            p = lib.nn.Parameter(lib.arange(3.0).as_subclass(cls))
            module = lib.nn.Linear(1, 1)
            module.extra = p
            out.append((type(p).__name__, isinstance(p, lib.nn.Parameter), p.requires_grad, repr(p),
                        sorted(dict(module.named_parameters()))))
        except RuntimeError as exc:
            out.append(("RuntimeError", str(exc)[:90]))
    return out


def test_parameter_of_a_tensor_subclass_keeps_the_subclass():
    """torch's Parameter(custom subclass instance) is the subclass marked as a parameter (geoopt's ManifoldTensor
    wrapped in nn.Parameter); a subclass whose detach() leaves it is refused."""
    assert _parameter_of_subclass(core) == _parameter_of_subclass(torch)


def _buffers(lib):
    b = lib.nn.Buffer(lib.ones(2))
    module = lib.nn.Linear(1, 1)
    module.kept = lib.nn.Buffer(lib.zeros(2), persistent=False)
    module.saved = lib.nn.Buffer(lib.arange(2.0))
    grad = lib.nn.Buffer(lib.ones(1, requires_grad=True))
    return [type(b).__name__, repr(b), isinstance(b, lib.nn.Buffer), b.persistent, sorted(module.state_dict()),
            type(module.kept).__name__, isinstance(module.kept, lib.nn.Buffer), isinstance(lib.ones(1), lib.nn.Buffer),
            grad.requires_grad, grad.is_leaf, sorted(dict(module.named_buffers()))]


def test_buffer_is_a_marked_tensor_as_torchs():
    """torch's nn.Buffer(data) is data detached, a plain tensor marked ``_is_buffer`` (its repr is tensor(...)), and
    a module keeps it as given, so isinstance(module.buf, nn.Buffer) holds."""
    assert _buffers(core) == _buffers(torch)
