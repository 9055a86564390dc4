"""nn.RNN, nn.LSTM, nn.GRU and their cells give PyTorch's outputs, final states and gradients for the same weights."""

from __future__ import annotations

import numpy as np
import pytest

import core
from core import nn
from tests.core.oracle import assert_same, check_error, to_numpy

KINDS = [("RNN", {}), ("RNN", {"nonlinearity": "relu"}), ("LSTM", {}), ("GRU", {})]
KIND_IDS = ["rnn-tanh", "rnn-relu", "lstm", "gru"]


def pair(torch, name, *args, dtype="float64", **kwargs):
    """A torch module and a core module of the same class holding torch's weights (copied through NumPy)."""
    theirs = getattr(torch.nn, name)(*args, **kwargs).to(getattr(torch, dtype))
    ours = getattr(nn, name)(*args, **kwargs).to(getattr(core, dtype))
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


def tensors_of(result) -> list:
    """Every tensor a recurrent module returned, in order (a PackedSequence gives its data)."""
    if isinstance(result, (tuple, list)) and hasattr(result, "batch_sizes"):
        return [result.data]
    if isinstance(result, (tuple, list)):
        return [t for r in result for t in tensors_of(r)]
    return [result]


def leaf(lib, array):
    return None if array is None else lib.tensor(array.copy(), requires_grad=True)


def run(lib, module, x, hx, wrap):
    """Forward, then backward of a fixed random weighting of every output; what to compare."""
    xi = leaf(lib, x)
    hi = tuple(leaf(lib, h) for h in hx) if isinstance(hx, tuple) else leaf(lib, hx)
    result = module(wrap(lib, xi), hi)
    outs = tensors_of(result)
    rng = np.random.default_rng(3)
    loss = sum((t * lib.tensor(rng.standard_normal(tuple(t.shape)).astype(to_numpy(t).dtype))).sum() for t in outs)
    loss.backward()
    states = hi if isinstance(hi, tuple) else (hi,)
    grads = [xi.grad] + [h.grad for h in states if h is not None]
    return result, outs, grads, {n: p.grad for n, p in module.named_parameters()}


def compare(torch, ours, theirs, x, hx=None, wrap=lambda lib, t: t, rtol=1e-7, atol=1e-9):
    """Assert that outputs, final states, input/state gradients and every parameter gradient match."""
    ro, oo, go, po = run(core, ours, x, hx, wrap)
    rt, ot, gt, pt = run(torch, theirs, x, hx, wrap)
    assert type(ro).__name__ == type(rt).__name__
    if hasattr(ro[0], "batch_sizes"):
        assert ro[0].batch_sizes.tolist() == rt[0].batch_sizes.tolist()
    assert_same(oo, ot, rtol=rtol, atol=atol, path="outputs")
    assert_same(go, gt, rtol=rtol, atol=atol, path="input grads")
    assert list(po) == list(pt)
    for name in po:
        assert_same(po[name], pt[name], rtol=rtol, atol=atol, path=f"{name}.grad")
    return ro


def randn(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
@pytest.mark.parametrize("config", [{}, {"num_layers": 2, "bidirectional": True, "batch_first": True},
                                    {"bias": False, "batch_first": True}], ids=["plain", "deep-bi-bf", "no-bias"])
def test_recurrent_layer_matches_torch_outputs_states_and_gradients(torch, name, kw, config):
    ours, theirs = pair(torch, name, 3, 4, **kw, **config)
    compare(torch, ours, theirs, randn(2, 5, 3) if config.get("batch_first") else randn(5, 2, 3))


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_recurrent_layer_starts_from_given_initial_state(torch, name, kw):
    ours, theirs = pair(torch, name, 3, 4, num_layers=2, bidirectional=True, **kw)
    h0 = randn(4, 2, 4, seed=1)
    compare(torch, ours, theirs, randn(5, 2, 3), (h0, randn(4, 2, 4, seed=2)) if name == "LSTM" else h0)


def test_lstm_with_projection_matches_torch(torch):
    ours, theirs = pair(torch, "LSTM", 3, 5, num_layers=2, bidirectional=True, proj_size=2, batch_first=True)
    result = compare(torch, ours, theirs, randn(2, 4, 3), (randn(4, 2, 2, seed=1), randn(4, 2, 5, seed=2)))
    out, (h, c) = result
    assert tuple(out.shape) == (2, 4, 4) and tuple(h.shape) == (4, 2, 2) and tuple(c.shape) == (4, 2, 5)


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_unbatched_input_gives_unbatched_output_and_state(torch, name, kw):
    ours, theirs = pair(torch, name, 3, 4, bidirectional=True, **kw)
    h0 = randn(2, 4, seed=1)
    result = compare(torch, ours, theirs, randn(5, 3), (h0, randn(2, 4, seed=2)) if name == "LSTM" else h0)
    assert tuple(result[0].shape) == (5, 8)


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_packed_input_with_unsorted_lengths_matches_torch(torch, name, kw):
    ours, theirs = pair(torch, name, 3, 4, num_layers=2, bidirectional=True, **kw)

    def packed(lib, x):
        return lib.nn.utils.rnn.pack_padded_sequence(x, [2, 5, 1], enforce_sorted=False)

    h0 = randn(4, 3, 4, seed=1)
    result = compare(torch, ours, theirs, randn(5, 3, 3), (h0, randn(4, 3, 4, seed=2)) if name == "LSTM" else h0,
                     wrap=packed)
    assert isinstance(result[0], nn.utils.rnn.PackedSequence)
    assert result[0].unsorted_indices.tolist() == [1, 0, 2]


def test_packed_output_pads_back_like_torch(torch):
    ours, theirs = pair(torch, "GRU", 2, 3, batch_first=True)
    x = randn(3, 4, 2)
    padded = []
    for lib, module in ((core, ours), (torch, theirs)):
        rnn = lib.nn.utils.rnn
        out, _ = module(rnn.pack_padded_sequence(lib.tensor(x), [4, 1, 3], batch_first=True, enforce_sorted=False))
        padded.append(rnn.pad_packed_sequence(out, batch_first=True, padding_value=-1.0))
    assert_same(padded[0], padded[1], rtol=1e-7)


@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
def test_cell_matches_torch_with_and_without_state(torch, name, batched):
    ours, theirs = pair(torch, name, 3, 4)
    x = randn(2, 3) if batched else randn(3)
    h = randn(*x.shape[:-1], 4, seed=1)
    compare(torch, ours, theirs, x)
    compare(torch, ours, theirs, x, (h, randn(*h.shape, seed=2)) if name == "LSTMCell" else h)


def test_relu_cell_without_bias_matches_torch(torch):
    ours, theirs = pair(torch, "RNNCell", 3, 4, bias=False, nonlinearity="relu")
    compare(torch, ours, theirs, randn(2, 3), randn(2, 4, seed=1))


def test_float32_lstm_matches_torch_to_float_precision(torch):
    ours, theirs = pair(torch, "LSTM", 3, 4, num_layers=2, dtype="float32")
    compare(torch, ours, theirs, randn(6, 2, 3).astype(np.float32), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("name", "kw"), [("LSTM", {"num_layers": 2, "bidirectional": True, "proj_size": 2}),
                                          ("GRU", {"bias": False}), ("RNN", {"nonlinearity": "relu"}),
                                          ("LSTMCell", {}), ("RNNCell", {"bias": False})])
def test_parameter_names_shapes_and_order_are_torchs(torch, name, kw):
    ours, theirs = getattr(nn, name)(3, 4, **kw), getattr(torch.nn, name)(3, 4, **kw)
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)


def test_weights_are_drawn_uniformly_in_parameter_order_like_torchs_reset_parameters():
    core.manual_seed(5)
    lstm = nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    core.manual_seed(5)
    for name, p in lstm.named_parameters():
        expected = nn.init.uniform_(core.empty(p.shape), -0.5, 0.5)
        assert np.array_equal(to_numpy(p), to_numpy(expected)), name


def test_all_weights_groups_parameters_by_layer_and_direction_and_flatten_is_a_no_op():
    gru = nn.GRU(3, 4, num_layers=2, bidirectional=True, bias=False)
    assert gru.flatten_parameters() is None
    assert [[tuple(p.shape) for p in group] for group in gru.all_weights] == \
        [[(12, 3), (12, 4)]] * 2 + [[(12, 8), (12, 4)]] * 2
    assert gru.all_weights[3][1] is gru.weight_hh_l1_reverse


def test_dropout_between_layers_acts_only_in_training(torch):
    ours, theirs = pair(torch, "LSTM", 3, 4, num_layers=2, dropout=1.0)
    x = randn(4, 2, 3)
    compare(torch, ours, theirs, x)  # training: p=1 zeroes what layer 0 hands to layer 1
    assert not np.any(to_numpy(ours.weight_ih_l1.grad))
    for module in (ours, theirs):
        module.eval()
        module.zero_grad()
    compare(torch, ours, theirs, x)
    assert np.any(to_numpy(ours.weight_ih_l1.grad))


def test_same_seed_draws_torchs_dropout_masks_between_layers(torch):
    ours, theirs = pair(torch, "GRU", 3, 4, num_layers=3, dropout=0.5)
    core.manual_seed(1)
    torch.manual_seed(1)
    compare(torch, ours, theirs, randn(4, 2, 3))


@pytest.mark.parametrize(("name", "kw"), [("LSTM", {"num_layers": 2, "bidirectional": True, "proj_size": 2}),
                                          ("RNN", {"bias": False}), ("GRUCell", {})])
def test_same_seed_gives_torchs_initial_weights(torch, name, kw):
    core.manual_seed(3)
    torch.manual_seed(3)
    ours, theirs = getattr(nn, name)(3, 4, **kw), getattr(torch.nn, name)(3, 4, **kw)
    for (n, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert np.array_equal(to_numpy(p), to_numpy(q)), n


def test_dropout_with_one_layer_warns_like_torch():
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.GRU(3, 4, dropout=0.3)


def test_gradients_flow_through_an_lstm_into_an_upstream_layer():
    emb, lstm = nn.Embedding(10, 3), nn.LSTM(3, 4, batch_first=True)
    out, (h, _) = lstm(emb(core.tensor([[1, 2, 3], [4, 5, 6]])))
    (out.sum() + h.sum()).backward()
    assert emb.weight.grad is not None and to_numpy(emb.weight.grad)[1:7].any()


def _ctor_error(name, *args, **kwargs):
    return lambda lib: getattr(lib.nn, name)(*args, **kwargs)


@pytest.mark.parametrize("make", [
    _ctor_error("RNN", 3, 4, nonlinearity="sigmoid"), _ctor_error("GRU", 3, 4, proj_size=2),
    _ctor_error("LSTM", 3, 4, proj_size=4), _ctor_error("LSTM", 3, 4, dropout=2),
    _ctor_error("LSTM", 3, 0), _ctor_error("LSTM", 3, 4, 0), _ctor_error("LSTM", 3.0, 4),
    _ctor_error("RNN", 3, 4, bias=1),
])
def test_bad_constructor_arguments_raise_torchs_errors(torch, make):
    err = check_error(lambda lib: make(lib), [], torch)
    try:
        make(torch)
    except Exception as theirs:  # comparing messages
        assert str(err) == str(theirs)


def _call(name, x_shape, hx_shapes=None, **kwargs):
    def fn(lib):
        module = getattr(lib.nn, name)(3, 4, **kwargs)
        hx = None if hx_shapes is None else tuple(lib.zeros(s) for s in hx_shapes)
        if hx is not None and name not in ("LSTM", "LSTMCell"):
            hx = hx[0]
        return module(lib.zeros(x_shape), hx)
    return fn


@pytest.mark.parametrize("fn", [
    _call("RNN", (5, 2, 3, 1)), _call("GRU", (5,)), _call("LSTM", (5, 2, 3, 1)),
    _call("RNN", (5, 2, 6)), _call("RNN", (5, 2, 3), [(1, 3, 4)]), _call("RNN", (5, 2, 3), [(2, 4)]),
    _call("GRU", (5, 3), [(1, 2, 4)]), _call("RNN", (0, 2, 3)),
    _call("LSTM", (5, 2, 3), [(1, 2, 3), (1, 2, 3)], proj_size=3),
    _call("LSTM", (5, 2, 3), [(1, 2, 4), (1, 2, 3)]), _call("LSTM", (5, 2, 3), [(2, 4), (1, 2, 4)]),
    _call("RNNCell", (2, 5)), _call("RNNCell", (2, 3), [(3, 4)]), _call("GRUCell", (2, 3), [(2, 5)]),
    _call("LSTMCell", (2, 3), [(2, 4), (2, 5)]), _call("LSTMCell", (2, 3, 3)), _call("GRUCell", (2, 3), [(2, 2, 4)]),
    _call("RNNCell", (2, 3), nonlinearity="sigmoid"),
])
def test_wrong_input_or_state_sizes_raise_torchs_errors(torch, fn):
    err = check_error(lambda lib: fn(lib), [], torch)
    try:
        fn(torch)
    except Exception as theirs:  # comparing messages
        assert str(err) == str(theirs)


def test_input_of_another_dtype_than_the_weights_raises_value_error(torch):
    check_error(lambda lib: lib.nn.LSTM(3, 4)(lib.zeros(2, 1, 3, dtype=lib.float64)), [], torch,
                match=r"RNN input dtype \(torch.float64\) does not match weight dtype \(torch.float32\)")


def test_empty_batch_gives_empty_outputs_like_torch(torch):
    ours, theirs = pair(torch, "GRU", 3, 4, num_layers=2)
    assert_same(ours(core.zeros(5, 0, 3, dtype=core.float64)), theirs(torch.zeros(5, 0, 3, dtype=torch.float64)))
