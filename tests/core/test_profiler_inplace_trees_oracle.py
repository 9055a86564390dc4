"""A profile of in-place ops shows PyTorch's whole event tree: the clone of the old value an op saves for its
backward (``clamp_``, ``abs_``, ``pow_`` on a tensor that requires grad) sits inside the op with its
``aten::empty_strided`` and ``aten::copy_``, a Python-number operand's cast is an ``aten::to`` ->
``aten::_to_copy`` child (``clamp``'s and ``pow``'s scalars a bare ``aten::to``), and ops on tensors that need no
gradient (an optimizer's in-place updates) are recorded too, where core took a fast path the profiler never saw."""

import pytest

import core

OPS = {
    "add_(1.0)": lambda lib, x, y: x.add_(1.0),
    "add_(1)": lambda lib, x, y: x.add_(1),
    "iadd(1.0)": lambda lib, x, y: x.__iadd__(1.0),
    "mul_(2.0)": lambda lib, x, y: x.mul_(2.0),
    "div_(2.0)": lambda lib, x, y: x.div_(2.0),
    "sub_(1.0)": lambda lib, x, y: x.sub_(1.0),
    "mul_(y)": lambda lib, x, y: x.mul_(y),
    "add_(y, alpha)": lambda lib, x, y: x.add_(y, alpha=2),
    "clamp_": lambda lib, x, y: x.clamp_(-0.5, 0.5),
    "clamp_(min)": lambda lib, x, y: x.clamp_(min=0),
    "clamp_(max=y)": lambda lib, x, y: x.clamp_(max=y),
    "abs_": lambda lib, x, y: x.abs_(),
    "pow_": lambda lib, x, y: x.pow_(2),
    "sigmoid_": lambda lib, x, y: x.sigmoid_(),
    "tanh_": lambda lib, x, y: x.tanh_(),
    "relu_": lambda lib, x, y: x.relu_(),
    "masked_fill_(y > 0)": lambda lib, x, y: x.masked_fill_(y > 0, 0.0),
    "mul_(y[0, 0])": lambda lib, x, y: x.mul_(y[0, 0]),
    "zero_": lambda lib, x, y: x.zero_(),
    "fill_": lambda lib, x, y: x.fill_(0.5),
    "clone": lambda lib, x, y: x.clone(),
    "x * 2.0": lambda lib, x, y: x * 2.0,
    "x.clamp(0, 1)": lambda lib, x, y: x.clamp(0, 1),
    "x ** 2": lambda lib, x, y: x ** 2,
    "lerp_(y, 0.3)": lambda lib, x, y: x.lerp_(y, 0.3),
    "lerp_(y, w)": lambda lib, x, y: x.lerp_(y, y.sigmoid()),
    "addcmul_": lambda lib, x, y: x.addcmul_(y, y, value=0.5),
    "addcdiv_": lambda lib, x, y: x.addcdiv_(y, y.abs() + 1, value=-0.1),
}
NO_GRAD_ONLY = {"silu_": lambda lib, x, y: lib.nn.functional.silu(x, inplace=True)}


def _tree(event):
    return event.name, [_tree(c) for c in event.cpu_children]


def _trees(lib, op, requires_grad):
    """The profile's event trees of ``op`` on a non-leaf (``requires_grad``) or a plain tensor."""
    lib.manual_seed(0)
    a = lib.randn(4, 4, requires_grad=requires_grad)
    y = lib.randn(4, 4)
    x = a * 1.5
    with lib.profiler.profile() as prof:
        op(lib, x, y)
    return [_tree(e) for e in prof.events() if e.cpu_parent is None]


@pytest.mark.parametrize("requires_grad", [True, False], ids=["grad", "no_grad"])
@pytest.mark.parametrize("name", list(OPS))
def test_inplace_op_profiles_as_torchs_event_tree(torch, name, requires_grad):
    assert _trees(core, OPS[name], requires_grad) == _trees(torch, OPS[name], requires_grad)


@pytest.mark.parametrize("name", list(NO_GRAD_ONLY))
def test_inplace_activation_without_grad_profiles_under_its_inplace_name(torch, name):
    assert _trees(core, NO_GRAD_ONLY[name], False) == _trees(torch, NO_GRAD_ONLY[name], False)


def test_autograd_profiler_counts_an_optimizers_inplace_updates_without_grad(torch):
    """``torch.autograd.profiler.profile``'s key averages of in-place updates under no_grad: names and counts."""
    def counts(lib):
        t = lib.ones(3, 3)
        with lib.no_grad(), lib.autograd.profiler.profile() as prof:
            t.mul_(0.9).add_(t, alpha=-0.1)
            t.clamp_(-1, 1).sigmoid_()
        return sorted((e.key, e.count) for e in prof.key_averages())

    assert counts(core) == counts(torch)
