"""Custom ``Function``s, hooks and anomaly detection, with PyTorch's semantics."""

import math

import pytest

import core
import core as torch
from core.autograd.function import Function, once_differentiable
from tests.core.oracle import assert_same


def _x(values=(1.0, 2.0)):
    return torch.tensor(list(values), requires_grad=True)


class Cube(Function):
    @staticmethod
    def forward(ctx, a, scale):
        ctx.save_for_backward(a)
        ctx.scale = scale
        return a * a * a * scale

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 3 * a * a * ctx.scale, None


def test_custom_function_forward_and_backward():
    x = _x()
    y = Cube.apply(x, 2.0)
    assert y.grad_fn.name() == "CubeBackward" and not y.is_leaf
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 24.0]


def test_custom_function_saved_tensors_are_freed_after_backward():
    y = Cube.apply(_x(), 1.0)
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        _ = y.grad_fn.saved_tensors


def test_custom_function_supports_create_graph_when_backward_is_differentiable():
    x = _x()
    (g,) = torch.autograd.grad(Cube.apply(x, 1.0).sum(), x, create_graph=True)
    g.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]  # d/dx 3x^2 = 6x


def test_needs_input_grad_is_known_in_forward_and_backward():
    seen = []

    class Probe(Function):
        @staticmethod
        def forward(ctx, a, b, k):
            seen.append(ctx.needs_input_grad)
            return a * b

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g, None, None

    Probe.apply(_x(), torch.ones(2), 3).sum().backward()
    assert seen == [(True, False, False)] * 2


def test_wrong_number_of_gradients_raises_like_pytorch():
    class TooFew(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match=r"function TooFewBackward returned an incorrect number of gradients "
                                           r"\(expected 2, got 1\)"):
        TooFew.apply(_x(), _x()).sum().backward()


def test_extra_none_gradients_are_ignored():
    class Extra(Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    x = _x()
    Extra.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_mark_non_differentiable_outputs_do_not_require_grad():
    class SortLike(Function):
        @staticmethod
        def forward(ctx, a):
            idx = torch.tensor([1.0, 0.0])
            ctx.mark_non_differentiable(idx)
            return a * 1, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            return g

    out, idx = SortLike.apply(_x())
    assert out.requires_grad and not idx.requires_grad and idx.grad_fn is None


def test_mark_dirty_rebases_an_in_place_custom_function():
    class Double_(Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = _x()
    y = x * 1
    v = y._version
    out = Double_.apply(y)
    assert out is y and y.grad_fn.name() == "Double_Backward" and y._version > v
    (y * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_set_materialize_grads_false_passes_none_for_unused_outputs():
    received = []

    class Two(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 1, a * 2

        @staticmethod
        def backward(ctx, g1, g2):
            received.append((g1 is None, g2 is None))
            return g1 if g1 is not None else g2 * 2

    class TwoMaterialized(Two):
        @staticmethod
        def forward(ctx, a):
            return a * 1, a * 2

    Two.apply(_x())[1].sum().backward()
    TwoMaterialized.apply(_x())[1].sum().backward()
    assert received == [(True, False), (False, False)]


def test_once_differentiable_backward_runs_without_recording():
    class Square(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            assert not torch.is_grad_enabled()
            return g * 2 * a

    x = _x()
    (g,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 4.0] and not g.requires_grad


def test_custom_function_returning_an_input_gives_a_new_tensor():
    class Identity(Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = _x()
    y = Identity.apply(x)
    assert y is not x and x.is_leaf and y.grad_fn.name() == "IdentityBackward"
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]


def test_custom_function_matches_torch_in_a_double_backward(torch):
    def run(lib):
        class Fn(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a, b):
                ctx.save_for_backward(a, b)
                return a * a * b

            @staticmethod
            def backward(ctx, g):
                a, b = ctx.saved_tensors
                return g * 2 * a * b, g * a * a

        a = lib.tensor([1.0, -2.0, 3.0], dtype=lib.float64, requires_grad=True)
        b = lib.tensor([0.5, 1.5, -1.0], dtype=lib.float64, requires_grad=True)
        ga, gb = lib.autograd.grad(Fn.apply(a, b).sum(), (a, b), create_graph=True)
        (ga * gb).sum().backward()
        return ga, gb, a.grad, b.grad

    assert_same(run(core), run(torch))


# ----- hooks -----------------------------------------------------------------------------------------

def test_tensor_hook_can_replace_the_gradient_and_be_removed():
    x = _x()
    y = x * 2
    handle = y.register_hook(lambda g: g * 10)
    y.sum().backward(retain_graph=True)
    assert x.grad.tolist() == [20.0, 20.0]
    handle.remove()
    x.grad = None
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_leaf_hook_runs_before_accumulation():
    x = _x()
    seen = []
    x.register_hook(lambda g: seen.append(x.grad) or g + 1)
    (x * 3).sum().backward()
    assert seen == [None] and x.grad.tolist() == [4.0, 4.0]


def test_retained_grad_is_the_gradient_after_hooks_whatever_the_order(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        y.register_hook(lambda g: g * 3)
        (y * y).sum().backward()
        return y.grad, x.grad

    assert_same(run(core), run(torch))


def test_hook_on_a_tensor_without_grad_raises():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        torch.ones(2).register_hook(lambda g: g)


def test_node_hooks_see_and_may_replace_gradients():
    x = _x()
    y = x * 3
    calls = []
    y.grad_fn.register_prehook(lambda grad_outputs: calls.append("pre") or (grad_outputs[0] * 2,))
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: calls.append("post") or (grad_inputs[0] + 1, None))
    y.sum().backward()
    assert calls == ["pre", "post"] and x.grad.tolist() == [7.0, 7.0]


def test_node_hook_handle_removes_it():
    x = _x()
    y = x * 3
    h = y.grad_fn.register_prehook(lambda go: (go[0] * 0,))
    h.remove()
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


# ----- anomaly detection -----------------------------------------------------------------------------------

class NanBackward(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1

    @staticmethod
    def backward(ctx, g):
        return g * math.nan


def test_nan_in_backward_names_the_node_and_the_forward_call():
    x = _x()
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        mode = torch.autograd.detect_anomaly()
    with mode:
        y = NanBackward.apply(x)  # the forward call the warning must point at
        with pytest.warns(UserWarning, match=r"(?s)Error detected in NanBackwardBackward.*y = NanBackward.apply"):
            with pytest.raises(RuntimeError, match=r"Function 'NanBackwardBackward' returned nan values in its "
                                                   r"0th output\."):
                y.sum().backward()
    assert not torch.autograd.anomaly.is_anomaly_enabled()


def test_without_anomaly_mode_nan_gradients_pass_silently():
    x = _x()
    NanBackward.apply(x).sum().backward()
    assert all(math.isnan(v) for v in x.grad.tolist())


def test_set_detect_anomaly_switches_immediately_and_as_context():
    from core.autograd.anomaly import is_anomaly_enabled

    torch.autograd.set_detect_anomaly(True)
    try:
        assert is_anomaly_enabled()
    finally:
        torch.autograd.set_detect_anomaly(False)
    with torch.autograd.set_detect_anomaly(True):
        assert is_anomaly_enabled()
    assert not is_anomaly_enabled()
