"""``reshape``'s three branches and the node each leaves, against PyTorch: a contiguous input is a ``view``
(``ViewBackward0``), a non-contiguous one whose strides allow a view is ``_reshape_alias``
(``ReshapeAliasBackward0``: attention code's ``x.transpose(1, 2).reshape(...)``, and einsum's operands), and one
that needs a copy is ``_unsafe_view`` of a clone (``UnsafeViewBackward0`` over ``CloneBackward0``). Under a
dispatch mode PyTorch takes ``view`` for the alias, and the mode sees ``aten.view``.
"""

import numpy as np
import pytest

import core

X = np.random.default_rng(3).standard_normal((2, 3, 4)).astype(np.float32)

RESHAPES = {
    "contiguous": lambda x: x.reshape(6, 4),
    "transposed_then_split": lambda x: x.transpose(1, 2).reshape(2, 4, 3),
    "sliced_last_dim": lambda x: x[:, :, :2].reshape(6, 2),
    "sliced_same_shape": lambda x: x[:, :, :2].reshape(2, 3, 2),
    "permuted_flatten_copies": lambda x: x.permute(0, 2, 1).flatten(),
    "permuted_merge_copies": lambda x: x.permute(0, 2, 1).reshape(2, 12),
    "size_one_dims_are_contiguous": lambda x: x[:, :1].transpose(0, 1).reshape(2, 4),
}


def _node_and_grad(lib, name):
    x = lib.tensor(X, requires_grad=True)
    y = RESHAPES[name](x)
    (y * lib.arange(y.numel(), dtype=lib.float32).reshape(y.shape)).sum().backward()
    below = [n.name() for n, _ in y.grad_fn.next_functions]
    return y.grad_fn.name(), below, y._is_view(), tuple(y.stride()), x.grad.numpy()


@pytest.mark.parametrize("name", sorted(RESHAPES))
def test_reshape_node_view_and_gradient_match_torch(name, torch):
    ours, theirs = _node_and_grad(core, name), _node_and_grad(torch, name)
    assert ours[:4] == theirs[:4]
    np.testing.assert_array_equal(ours[4], theirs[4])


def _under_dispatch_mode(lib, mode_base):
    seen = []

    class Names(mode_base):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    x = lib.tensor(X, requires_grad=True)
    with Names():
        y = x.transpose(1, 2).reshape(2, 4, 3)
    return seen, y.grad_fn.name()


def test_reshape_alias_under_a_dispatch_mode_is_a_view_as_in_torch(torch):
    from torch.utils._python_dispatch import TorchDispatchMode as TorchMode

    from core.utils._python_dispatch import TorchDispatchMode as CoreMode
    assert _under_dispatch_mode(core, CoreMode) == _under_dispatch_mode(torch, TorchMode)


def test_reshape_alias_stays_after_a_dispatch_subclass_was_defined(torch):
    """Defining a ``__torch_dispatch__`` subclass (as another test or library may) leaves plain tensors' reshape as
    torch's ``_reshape_alias``: only a mode entered or a subclass instance makes it ``view`` (ATen's
    ``isTensorSubclassLike``)."""

    class Logged(core.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    assert _node_and_grad(core, "transposed_then_split")[0] == _node_and_grad(torch, "transposed_then_split")[0]
    assert _node_and_grad(core, "transposed_then_split")[0] == "ReshapeAliasBackward0"
