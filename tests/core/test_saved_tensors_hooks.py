"""torch.autograd.graph's saved-tensor hooks (saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks),
against torch: which saves the hooks see, in what order, and the gradients that come back through them."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same


def _logged(lib, fn):
    """``fn(lib, a)``'s gradient and the (pack/unpack, shape) calls its saves made, under logging hooks."""
    log = []

    def pack(t):
        log.append(("pack", tuple(t.shape)))
        return t.clone()

    def unpack(p):
        log.append(("unpack", tuple(p.shape)))
        return p

    a = lib.tensor(np.linspace(-1, 1, 6).reshape(2, 3), dtype=lib.float32, requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        out = fn(lib, a)
    out.sum().backward()
    return a.grad, log


@pytest.mark.parametrize("fn, same_order", [
    (lambda lib, a: a.sin() * a.exp(), True),
    (lambda lib, a: a / (a.exp() + 1), True),
    (lambda lib, a: lib.nn.functional.softmax(a, dim=1) * a, True),
    (lambda lib, a: (a @ a.T).tanh(), False),  # mm saves its two operands in another order than torch
], ids=["sin-exp-mul", "div", "softmax-mul", "matmul-tanh"])
def test_pack_and_unpack_hooks_see_the_saves_torch_makes_and_gradients_match(torch, fn, same_order):
    (ours, our_log), (theirs, their_log) = _logged(core, fn), _logged(torch, fn)
    assert_same(ours, theirs)
    assert (our_log == their_log) if same_order else (sorted(our_log) == sorted(their_log))
    assert [kind for kind, _ in our_log] == [kind for kind, _ in their_log]


def _exp_function(lib):
    class Exp(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, g):
            result, = ctx.saved_tensors
            return g * result

    return Exp


def test_a_custom_functions_saved_output_goes_through_the_hooks(torch):
    (ours, our_log), (theirs, their_log) = [_logged(lib, lambda lib, a: _exp_function(lib).apply(a))
                                            for lib in (core, torch)]
    assert_same(ours, theirs)
    assert our_log == their_log == [("pack", (2, 3)), ("unpack", (2, 3))]


def test_save_on_cpu_gives_the_same_gradients_as_without_hooks(torch):
    def grads(lib, hooks):
        a = lib.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        with hooks(lib):
            y = (a * a).tanh().sum()
        y.backward()
        return a.grad

    for lib in (core, torch):
        plain = grads(lib, lambda lib: lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t))
        assert np.array_equal(grads(lib, lambda lib: lib.autograd.graph.save_on_cpu()).numpy(), plain.numpy())
    assert_same(grads(core, lambda lib: lib.autograd.graph.save_on_cpu()),
                grads(torch, lambda lib: lib.autograd.graph.save_on_cpu()))


def test_an_unpack_hook_that_returns_no_tensor_raises_torchs_type_error(torch):
    for lib in (core, torch):
        a = lib.ones(3, requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: 1, lambda p: p):
            y = a.exp()
        with pytest.raises(TypeError, match="Output of saved tensor unpack_hook expected to be a Tensor but got "
                                            "result of type int"):
            y.sum().backward()


def test_disabled_hooks_refuse_a_new_context_with_the_given_message(torch):
    for lib in (core, torch):
        with lib.autograd.graph.disable_saved_tensors_hooks("hooks are off here"):
            with pytest.raises(RuntimeError, match="hooks are off here"):
                with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass  # allowed again after the disabling context


def test_the_innermost_hooks_apply_and_none_outside_the_context():
    calls = []
    a = core.ones(2, requires_grad=True)
    with core.autograd.graph.saved_tensors_hooks(lambda t: calls.append("outer") or t, lambda t: t):
        with core.autograd.graph.saved_tensors_hooks(lambda t: calls.append("inner") or t, lambda t: t):
            y = a.exp()
        z = a.sin()
    w = a.cos()
    (y + z + w).sum().backward()
    assert calls == ["inner", "outer"]
    assert np.allclose(a.grad.numpy(), np.exp(1) + np.cos(1) - np.sin(1))


def test_grad_fn_saved_attributes_give_what_torch_gives(torch):
    def saved(lib):
        a = lib.tensor([1.5, -0.5, 2.0], requires_grad=True)
        b = lib.ones(3, requires_grad=True)
        y, e, p = a * b, lib.exp(a), a.pow(2)
        return (y.grad_fn._saved_self is a, y.grad_fn._saved_other is b, e.grad_fn._saved_result.equal(e),
                e.grad_fn._saved_result is e, p.grad_fn._saved_self is a, p.grad_fn._saved_exponent,
                a.sin().grad_fn._saved_self is a, a.tanh().grad_fn._saved_result.tolist())

    assert saved(core) == saved(torch)


def test_a_number_operand_is_saved_as_a_wrapped_0d_tensor_as_in_torch(torch):
    for number in (3, 3.5):
        ours, theirs = [(lib.ones(2, requires_grad=True) * number).grad_fn._saved_other for lib in (core, torch)]
        assert_same(ours, theirs)


def test_a_saved_attribute_the_op_does_not_have_raises_attribute_error(torch):
    for lib in (core, torch):
        with pytest.raises(AttributeError, match="'ExpBackward0' object has no attribute '_saved_self'"):
            _ = lib.ones(2, requires_grad=True).exp().grad_fn._saved_self


def test_saved_attributes_after_backward_raise_torchs_freed_error(torch):
    for lib in (core, torch):
        a = lib.ones(2, requires_grad=True)
        y = a * a
        y.sum().backward()
        with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
            _ = y.grad_fn._saved_self


def test_hook_objects_print_with_torchs_module_names(torch):
    def names(lib):
        x = lib.ones(1, requires_grad=True)
        return [type(o).__module__.split(".", 1)[1] for o in (
            x.register_hook(lambda g: g), lib.nn.Linear(1, 1).register_forward_hook(lambda *a: None),
            lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t), lib.autograd.graph.save_on_cpu())]

    assert names(core) == names(torch) == ["utils.hooks", "utils.hooks", "autograd.graph", "autograd.graph"]
