"""``dir(grad_fn)`` and the node members PyTorch's C++ nodes have (``_sequence_nr``, ``_input_metadata``,
``_raw_saved_*`` handles with ``register_hooks``...), run in core and in torch."""

import inspect

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

X = np.array([[1.0, -2.0], [0.5, 3.0]], dtype=np.float32)

OPS = {
    "add": lambda lib, x: x + x,
    "add_alpha": lambda lib, x: lib.add(x, x, alpha=2),
    "add_number": lambda lib, x: x.add(1),
    "sub": lambda lib, x: x - x,
    "mul": lambda lib, x: x * x,
    "pow_number": lambda lib, x: x ** 2,
    "exp": lambda lib, x: x.exp(),
    "neg": lambda lib, x: -x,
    "addmm": lambda lib, x: lib.addmm(x, x, x),
    "sum": lambda lib, x: x.sum(),
    "view": lambda lib, x: x.view(4),
    "addcmul": lambda lib, x: lib.addcmul(x, x, x),
}
EXACT = ("add", "add_alpha", "add_number", "sub", "mul", "pow_number", "exp", "neg")


def _node(lib, op, released=False):
    x = lib.tensor(X, requires_grad=True)
    y = OPS[op](lib, x)
    if released:
        y.sum().backward()
    return y.grad_fn


@pytest.mark.parametrize("released", [False, True])
@pytest.mark.parametrize("op", sorted(OPS))
def test_dir_of_a_node_lists_only_names_torch_lists(torch, op, released):
    ours, theirs = set(dir(_node(core, op, released))), set(dir(_node(torch, op, released)))
    assert ours - theirs == set()
    missing = theirs - ours  # the saved sizes and strides core does not keep
    assert all(name.startswith(("_saved_", "_raw_saved_")) for name in missing), missing
    if op in EXACT:
        assert ours == theirs


def test_dir_of_an_accumulate_grad_matches_torch(torch):
    names = [set(dir((lib.tensor(X, requires_grad=True) * 2).grad_fn.next_functions[0][0])) for lib in (core, torch)]
    assert names[0] == names[1]


@pytest.mark.parametrize("op", sorted(OPS))
def test_every_name_a_node_lists_exists(op):
    node = _node(core, op)
    missing = []
    for name in dir(node):
        try:
            inspect.getattr_static(node, name)
        except AttributeError:
            missing.append(name)
    assert missing == []


def test_sequence_numbers_order_nodes_as_torch(torch):
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        a = x * 2
        b = a.exp()
        acc = a.grad_fn.next_functions[0][0]
        assert b.grad_fn._sequence_nr() > a.grad_fn._sequence_nr()
        assert acc._sequence_nr() == 2 ** 64 - 1
        b.grad_fn._set_sequence_nr(7)
        assert b.grad_fn._sequence_nr() == 7
        assert b.grad_fn.requires_grad is True and acc.requires_grad is True


def test_input_metadata_describes_the_gradients_a_node_receives_as_torch(torch):
    metas = []
    for lib in (core, torch):
        x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
        y = x.sum(0)
        nodes = (y.grad_fn, y.grad_fn.next_functions[0][0])
        metas.append([(tuple(m.shape), str(m.dtype), str(m.device), m.is_nested_tensor)
                      for n in nodes for m in n._input_metadata])
    assert metas[0] == metas[1]


def test_raw_saved_tensors_take_pack_and_unpack_hooks_as_torch(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        y = x * x
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: t * 1, lambda t: t + 10)
        seen = y.grad_fn._saved_self
        with pytest.raises(RuntimeError, match="only one pair of hooks is allowed at a time"):
            raw.register_hooks(lambda t: t, lambda t: t)
        y.sum().backward()
        results.append((seen, x.grad))
    assert_same(results[0][0], results[1][0])
    assert_same(results[0][1], results[1][1])


def test_saved_alpha_and_beta_read_back_as_torch(torch):
    for lib in (core, torch):
        x = lib.tensor(X, requires_grad=True)
        assert lib.add(x, x, alpha=3).grad_fn._saved_alpha == 3
        node = lib.addmm(x, x, x, beta=0.5, alpha=2).grad_fn
        assert (node._saved_alpha, node._saved_beta) == (2, 0.5)
        assert not hasattr((x * x).grad_fn, "_saved_alpha")
