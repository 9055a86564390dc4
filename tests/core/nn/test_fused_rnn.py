"""The fused recurrent layer (one node per layer and direction) gives the composite steps' outputs bit for bit, their
gradients to rounding, PyTorch's gradients, and falls back to the composite where it doesn't apply."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core.autograd import forward_ad as fwAD
from core.nn.modules import _fused_rnn, rnn
from tests.core.nn.test_rnn import KIND_IDS, KINDS, compare, pair, randn, run

CONFIGS = [{}, {"bidirectional": True}, {"num_layers": 2}, {"batch_first": True},
           {"num_layers": 2, "bidirectional": True, "batch_first": True}, {"bias": False}]
CONFIG_IDS = ["plain", "bi", "deep", "batch-first", "deep-bi-bf", "no-bias"]
INPUTS = ["padded", "packed-sorted", "packed-unsorted"]
LENGTHS = {"packed-sorted": ([5, 3, 2, 2], True), "packed-unsorted": ([2, 5, 1, 3], False)}


def wrapper(how, batch_first):
    if how == "padded":
        return lambda lib, t: t
    lengths, enforce = LENGTHS[how]
    return lambda lib, t: lib.nn.utils.rnn.pack_padded_sequence(t, lengths, batch_first=batch_first,
                                                                enforce_sorted=enforce)


def case(name, kw, config, dtype, hidden, given):
    """A layer of torch's weights, its input (batch 4, 5 steps, 3 features) and initial state (or None)."""
    x = (randn(4, 5, 3) if config.get("batch_first") else randn(5, 4, 3)).astype(dtype)
    layers = config.get("num_layers", 1) * (2 if config.get("bidirectional") else 1)
    h0 = randn(layers, 4, hidden, seed=1).astype(dtype) if given else None
    hx = (h0, randn(layers, 4, hidden, seed=2).astype(dtype)) if given and name == "LSTM" else h0
    return x, hx


def composite(module, *args):
    enabled = _fused_rnn.enabled
    _fused_rnn.enabled = False
    try:
        return run(core, module, *args)
    finally:
        _fused_rnn.enabled = enabled


@pytest.mark.parametrize("given", [False, True], ids=["zero-state", "given-state"])
@pytest.mark.parametrize("how", INPUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_fused_layer_equals_the_composite_steps(torch, name, kw, config, dtype, how, given):
    hidden = 32 if config.get("bias", True) else 5  # 32: whole SIMD steps in the gates; 5: scalar tails
    torch.manual_seed(0)
    module = pair(torch, name, 3, hidden, dtype=dtype, **kw, **config)[0]
    x, hx = case(name, kw, config, dtype, hidden, given)
    wrap = wrapper(how, config.get("batch_first", False))
    fused = run(core, module, x, hx, wrap)
    module.zero_grad()
    steps = composite(module, x, hx, wrap)
    assert fused[1][0].grad_fn.name() == steps[1][0].grad_fn.name()
    for a, b in zip(fused[1], steps[1]):  # outputs and final states
        assert a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride()
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())
    rtol = 1e-5 if dtype == "float32" else 1e-6
    grads = list(zip(fused[2], steps[2])) + [(fused[3][key], steps[3][key]) for key in fused[3]]
    for a, b in grads:  # sums of many steps' terms: cancellation is measured against the largest gradient
        b = b.numpy()
        np.testing.assert_allclose(a.numpy(), b, rtol=rtol, atol=rtol * np.abs(b).max())


@pytest.mark.parametrize("how", INPUTS)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_fused_layer_gradients_match_torch(torch, name, kw, config, dtype, how):
    torch.manual_seed(0)
    ours, theirs = pair(torch, name, 3, 6, dtype=dtype, **kw, **config)
    x, hx = case(name, kw, config, dtype, 6, True)
    rtol, atol = (1e-5, 1e-6) if dtype == "float32" else (1e-7, 1e-9)
    compare(torch, ours, theirs, x, hx, wrap=wrapper(how, config.get("batch_first", False)), rtol=rtol, atol=atol)


@pytest.mark.parametrize("how", INPUTS)
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_fused_layer_passes_gradcheck(name, kw, how):
    core.manual_seed(0)
    module = getattr(core.nn, name)(2, 3, bidirectional=True, **kw).double()
    names = [n for n, _ in module.named_parameters()]
    wrap = wrapper(how, False)
    states = [core.tensor(randn(2, 4, 3, seed=k), requires_grad=True) for k in (1, 2)[:2 if name == "LSTM" else 1]]

    def f(x, *tensors):
        hx = tuple(tensors[:len(states)]) if name == "LSTM" else tensors[0]
        weights = dict(zip(names, tensors[len(states):]))
        out, state = core.func.functional_call(module, weights, (wrap(core, x), hx))
        return (out.data if hasattr(out, "batch_sizes") else out, *(state if name == "LSTM" else (state,)))

    x = core.tensor(randn(5, 4, 2), requires_grad=True)
    weights = [p.detach().clone().requires_grad_(True) for p in module.parameters()]
    assert core.autograd.gradcheck(f, (x, *states, *weights), eps=1e-6, atol=1e-5)


def _accumulated(tensor) -> set:
    """The variables of every AccumulateGrad node reachable from ``tensor.grad_fn``."""
    seen, found, todo = set(), set(), [tensor.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if type(node).__name__ == "AccumulateGrad":
            found.add(id(node.variable))
        todo.extend(fn for fn, _ in node.next_functions)
    return found


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_graph_reaches_every_parameter_and_hooks_see_its_gradient(name, kw):
    module = getattr(core.nn, name)(3, 4, num_layers=2, bidirectional=True, **kw)
    seen = []
    module.weight_hh_l1_reverse.register_hook(lambda g: seen.append(g.clone()))
    out, _ = module(core.randn(5, 2, 3))
    assert _accumulated(out) == {id(p) for p in module.parameters()}
    out.sum().backward()
    assert len(seen) == 1 and np.array_equal(seen[0].numpy(), module.weight_hh_l1_reverse.grad.numpy())


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_double_backward_differentiates_the_composite(name, kw):
    core.manual_seed(0)
    module = getattr(core.nn, name)(3, 4, bidirectional=True, **kw).double()
    x = core.tensor(randn(5, 2, 3), requires_grad=True)
    results = []
    for fused in (True, False):
        _fused_rnn.enabled = fused
        try:
            out, _ = module(x)
            (gx,) = core.autograd.grad(out.pow(2).sum(), x, create_graph=True)
            second = core.autograd.grad(gx.pow(2).sum(), [x, module.weight_hh_l0, module.weight_ih_l0_reverse])
        finally:
            _fused_rnn.enabled = True
        results.append([gx.detach().numpy(), *(s.numpy() for s in second)])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_double_backward_of_an_lstm_matches_torch(torch):
    ours, theirs = pair(torch, "LSTM", 3, 4, dtype="float64")
    grads = []
    for lib, module in ((core, ours), (torch, theirs)):
        x = lib.tensor(randn(5, 2, 3), requires_grad=True)
        out, (h, c) = module(x)
        (gx,) = lib.autograd.grad(out.pow(2).sum() + c.sum(), x, create_graph=True)
        (gw,) = lib.autograd.grad(gx.pow(2).sum(), module.weight_hh_l0)
        grads.append([gx.detach().numpy(), gw.numpy()])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)


def test_forward_mode_ad_runs_the_composite_steps(torch):
    ours, theirs = pair(torch, "GRU", 3, 4)
    x, t = randn(5, 2, 3), randn(5, 2, 3, seed=4)
    with fwAD.dual_level():
        out, _ = ours(fwAD.make_dual(core.tensor(x), core.tensor(t)))
        ours_tangent = fwAD.unpack_dual(out).tangent.detach().numpy()
    with torch.autograd.forward_ad.dual_level():
        out, _ = theirs(torch.autograd.forward_ad.make_dual(torch.tensor(x), torch.tensor(t)))
        theirs_tangent = torch.autograd.forward_ad.unpack_dual(out).tangent.detach().numpy()
    np.testing.assert_allclose(ours_tangent, theirs_tangent, rtol=1e-7, atol=1e-9)


def test_fused_layer_applies_only_where_it_stands_for_the_composite():
    lstm = core.nn.LSTM(3, 4)
    w = rnn._layer_weights(lstm, lstm._all_weights[0])
    gi, state = core.randn(10, 16), (core.zeros(2, 4), core.zeros(2, 4))
    assert _fused_rnn.applies("LSTM", gi, state, w)
    assert not _fused_rnn.applies("LSTM", gi, state, w._replace(hr=core.randn(2, 4)))  # a projection
    assert not _fused_rnn.applies("LSTM", gi.double(), state, w)  # mixed dtypes
    assert not _fused_rnn.applies("LSTM", gi[:0], state, w)  # no rows
    with core.autocast("cpu"):
        assert not _fused_rnn.applies("LSTM", gi, state, w)
    bf16 = core.nn.GRU(3, 4).to(core.bfloat16)
    w16 = rnn._layer_weights(bf16, bf16._all_weights[0])
    assert not _fused_rnn.applies("GRU", core.randn(10, 12).to(core.bfloat16), (core.zeros(2, 4),), w16)


def test_backward_twice_without_retain_graph_raises_like_torch(torch):
    for lib in (core, torch):
        lstm = lib.nn.LSTM(3, 4)
        out, _ = lstm(lib.randn(5, 2, 3))
        loss = out.sum()
        loss.backward()
        with pytest.raises(RuntimeError, match="backward through the graph a second time"):
            loss.backward()


@pytest.mark.parametrize("name", ["LSTM", "GRU"])
def test_fused_layer_equals_the_composite_on_gates_above_the_threading_grain(torch, name):
    torch.manual_seed(0)
    module = pair(torch, name, 3, 160, dtype="float32")[0]  # 70 x 4 x 160 gates: 44800 elements, split by torch
    x = randn(3, 70, 3).astype("float32")
    fused = run(core, module, x, None, lambda lib, t: t)
    steps = composite(module, x, None, lambda lib, t: t)
    for a, b in zip(fused[1], steps[1]):
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())
