"""``binary_cross_entropy_with_logits`` of a small float32 batch that records a graph computes its backward's
``exp(-x)`` in its forward, beside log_sigmoid's ``exp(-|x|)`` (one SLEEF call for both); the loss and both
gradients stay PyTorch's bit for bit, on every size around the kept range's edges, with special logits, a
``pos_weight``, a second backward through a retained graph and through ``core.compile``. With a ``pos_weight`` the
target's gradient is PyTorch's too: ``log_sigmoid(-x) - log_sigmoid(x) * pos_weight`` with SLEEF's log_sigmoid (core
rounded a softplus from float64 there and differed in the last bit on about a third of the elements)."""

import numpy as np
import pytest

import core

RNG = np.random.default_rng(23)


def _logits(n):
    x = RNG.normal(0, 4, n).astype(np.float32)
    x[: min(n, 6)] = np.array([0.0, -0.0, 30.0, -30.0, 89.0, -110.0], np.float32)[: min(n, 6)]
    return x.reshape(n, 1)


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _run(lib, x, t, pos_weight=None, retain=False):
    xt, tt = lib.tensor(x, requires_grad=True), lib.tensor(t, requires_grad=True)
    pw = None if pos_weight is None else lib.tensor(pos_weight)
    loss = lib.nn.functional.binary_cross_entropy_with_logits(xt, tt, pos_weight=pw)
    loss.backward(retain_graph=retain)
    if retain:  # the kept exp(-x) is read again, not consumed
        loss.backward()
    return loss.detach().numpy(), xt.grad.numpy(), tt.grad.numpy()


@pytest.mark.parametrize("n", [31, 32, 33, 200, 8192, 8193])
def test_loss_and_gradients_equal_torchs(torch, one_thread, n):
    x, t = _logits(n), (RNG.uniform(0, 1, (n, 1)) < 0.5).astype(np.float32)
    for ours, theirs in zip(_run(core, x, t), _run(torch, x, t)):
        assert (_bits(ours) == _bits(theirs)).all()


def test_with_pos_weight_and_a_retained_graph_equal_torchs(torch, one_thread):
    x, t = _logits(200), RNG.uniform(0, 1, (200, 1)).astype(np.float32)
    pw = np.array([1.7], np.float32)
    for ours, theirs in zip(_run(core, x, t, pw, retain=True), _run(torch, x, t, pw, retain=True)):
        assert (_bits(ours) == _bits(theirs)).all()


def test_a_nan_logit_gives_torchs_nans(torch, one_thread):
    x, t = _logits(64), np.ones((64, 1), np.float32)
    x[40] = np.nan
    for ours, theirs in zip(_run(core, x, t), _run(torch, x, t)):
        same = (_bits(ours) == _bits(theirs)) | (np.isnan(ours) & np.isnan(theirs))
        assert same.all()


def test_compiled_steps_equal_eager_ones():
    x, t = _logits(200), (RNG.uniform(0, 1, (200, 1)) < 0.5).astype(np.float32)
    grads = []
    for compiled in (False, True):
        w = core.tensor(np.float32(0.5), requires_grad=True)
        def loss_of(a, b, w=w):
            return core.nn.functional.binary_cross_entropy_with_logits(a * w, b)
        fn = core.compile(loss_of) if compiled else loss_of
        for _ in range(70):  # past the replay's switch to generated code
            w.grad = None
            fn(core.tensor(x), core.tensor(t)).backward()
            with core.no_grad():
                w -= 0.1 * w.grad
        grads.append((w.detach().numpy().copy(), w.grad.numpy().copy()))
    assert _bits(grads[0][0]) == _bits(grads[1][0]) and _bits(grads[0][1]) == _bits(grads[1][1])


def test_an_input_changed_in_place_after_the_loss_refuses_backward():
    x = core.tensor(_logits(64), requires_grad=True)
    y = x * 1
    loss = core.nn.functional.binary_cross_entropy_with_logits(y, core.ones(64, 1))
    with core.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        loss.backward()


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", [(200, 1), (64, 5), (7,)])
def test_the_targets_gradient_with_pos_weight_and_weight_equals_torchs(torch, one_thread, shape, reduction):
    x = RNG.normal(0, 4, shape).astype(np.float32)
    x.flat[:3] = [0.0, 40.0, -120.0]
    t = RNG.uniform(0, 1, shape).astype(np.float32)
    w, pw = (RNG.uniform(0.2, 3, shape[-1:]).astype(np.float32) for _ in range(2))
    grad_out = RNG.normal(0, 1, shape).astype(np.float32)
    results = []
    for lib in (core, torch):
        xt, tt = lib.tensor(x, requires_grad=True), lib.tensor(t, requires_grad=True)
        loss = lib.nn.functional.binary_cross_entropy_with_logits(xt, tt, weight=lib.tensor(w),
                                                                  pos_weight=lib.tensor(pw), reduction=reduction)
        loss.backward(lib.tensor(grad_out)) if reduction == "none" else (loss * 3.7).backward()
        results.append((xt.grad.numpy(), tt.grad.numpy()))
    for ours, theirs in zip(*results):
        assert (_bits(ours) == _bits(theirs)).all()
