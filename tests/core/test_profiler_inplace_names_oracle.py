"""In-place ops are profiled under PyTorch's in-place names: ``x.relu_()`` is ``aten::relu_`` with an
``aten::clamp_min_`` child (core said ``aten::relu`` with ``aten::clamp_min``), ``x.add_(y)`` is ``aten::add_``,
``x.zero_()`` ``aten::zero_``, ``x.copy_(y)`` ``aten::copy_`` (core said ``aten::copy_backwards``). A user reading
``key_averages().table()`` to find the in-place ops of a model sees the same rows in core as in torch.

The ops below checked for their own name only (their clones and scalar casts, ``aten::to``, are compared as whole
trees in test_profiler_inplace_trees_oracle.py) keep that check."""

import pytest

import core

SAME_TREE = {
    "relu_": lambda lib, x, y: x.relu_(),
    "F.relu(inplace)": lambda lib, x, y: lib.nn.functional.relu(x, inplace=True),
    "add_": lambda lib, x, y: x.add_(y),
    "iadd": lambda lib, x, y: x.__iadd__(y),
    "mul_": lambda lib, x, y: x.mul_(y),
    "sub_": lambda lib, x, y: x.sub_(y),
    "sigmoid_": lambda lib, x, y: x.sigmoid_(),
    "tanh_": lambda lib, x, y: x.tanh_(),
    "exp_": lambda lib, x, y: x.exp_(),
    "sign_": lambda lib, x, y: x.sign_(),
    "zero_": lambda lib, x, y: x.zero_(),
    "fill_": lambda lib, x, y: x.fill_(1.0),
    "copy_": lambda lib, x, y: x.copy_(y),
    "leaky_relu_": lambda lib, x, y: lib.nn.functional.leaky_relu(x, inplace=True),
    "elu_": lambda lib, x, y: lib.nn.functional.elu(x, inplace=True),
    "normal_": lambda lib, x, y: x.normal_(),
    "uniform_": lambda lib, x, y: x.uniform_(),
}
NAME_ONLY = {
    "add_(scalar)": (lambda lib, x, y: x.add_(1.0), "aten::add_"),
    "mul_(scalar)": (lambda lib, x, y: x.mul_(2.0), "aten::mul_"),
    "div_": (lambda lib, x, y: x.div_(2.0), "aten::div_"),
    "clamp_": (lambda lib, x, y: x.clamp_(-0.5, 0.5), "aten::clamp_"),
    "abs_": (lambda lib, x, y: x.abs_(), "aten::abs_"),
    "pow_": (lambda lib, x, y: x.pow_(2), "aten::pow_"),
    "masked_fill_": (lambda lib, x, y: x.masked_fill_(y > 0, 0.0), "aten::masked_fill_"),
    "silu_": (lambda lib, x, y: lib.nn.functional.silu(x, inplace=True), "aten::silu_"),
}


def _top_events(lib, op):
    """The profile's top-level events of ``op`` on a non-leaf that requires grad (what a model's forward has)."""
    lib.manual_seed(0)
    a = lib.randn(4, 4, requires_grad=True)
    y = lib.randn(4, 4)
    x = a * 1.5
    with lib.profiler.profile() as prof:
        op(lib, x, y)
    return [(e.name, [c.name for c in e.cpu_children]) for e in prof.events() if e.cpu_parent is None]


@pytest.mark.parametrize("name", list(SAME_TREE))
def test_inplace_op_is_profiled_as_torchs(torch, name):
    assert _top_events(core, SAME_TREE[name]) == _top_events(torch, SAME_TREE[name])


@pytest.mark.parametrize("name", list(NAME_ONLY))
def test_inplace_op_with_a_saved_clone_has_torchs_name(torch, name):
    op, aten = NAME_ONLY[name]
    assert aten in [n for n, _ in _top_events(torch, op)]
    assert aten in [n for n, _ in _top_events(core, op)]
