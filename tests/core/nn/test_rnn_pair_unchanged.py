"""A bidirectional layer's two directions run side by side (``_rnn_pair``) give the bits of running them one after
the other (``_fused_rnn`` per direction, itself the old layer's bits: ``test_fused_rnn_unchanged.py``).

Whole modules, RNN (tanh and ReLU), LSTM and GRU, one or two layers, batch first or not, with or without biases and
a given state, batches of 1 to 5 (one row: MKL's one-row product, whose order follows the state's address), hidden
sizes with and without whole 32-element vectors (4, 20, 32, 36, 64, 100): outputs, final states and every gradient
(input, state, parameters) compared bit for bit.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core.nn.modules import _rnn_pair


def _run(module, x, hx, grads, paired):
    applies = _rnn_pair.applies
    if not paired:
        _rnn_pair.applies = lambda *args: False
    try:
        module.zero_grad()
        xt = core.tensor(x, requires_grad=True)
        state = None if hx is None else tuple(core.tensor(h, requires_grad=True) for h in hx)
        out, final = module(xt, None if state is None else state if len(state) == 2 else state[0])
        finals = final if isinstance(final, tuple) else (final,)
        core.autograd.backward((out, *finals), [core.tensor(g) for g in grads])
    finally:
        _rnn_pair.applies = applies
    leaves = [xt, *(state or ()), *module.parameters()]
    return [out, *finals], [t.grad for t in leaves]


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["RNN", "RNN_RELU", "LSTM", "GRU"]), hidden=st.sampled_from([4, 20, 32, 36, 64, 100]),
       batch=st.integers(1, 5), steps=st.integers(1, 6), layers=st.integers(1, 2), batch_first=st.booleans(),
       bias=st.booleans(), given_state=st.booleans(), seed=st.integers(0, 2 ** 32 - 1))
def test_paired_directions_give_the_one_at_a_time_bits(kind, hidden, batch, steps, layers, batch_first, bias,
                                                       given_state, seed):
    rng = np.random.default_rng(seed)
    core.manual_seed(seed % 1000)
    extra = {"nonlinearity": "relu"} if kind == "RNN_RELU" else {}
    module = getattr(core.nn, kind.split("_")[0])(3, hidden, layers, bias=bias, batch_first=batch_first,
                                                  bidirectional=True, **extra)
    x = rng.standard_normal((batch, steps, 3) if batch_first else (steps, batch, 3)).astype(np.float32)
    hx = None
    if given_state:
        hx = tuple(rng.standard_normal((2 * layers, batch, hidden)).astype(np.float32)
                   for _ in range(2 if kind == "LSTM" else 1))
    out_shape = (batch, steps, 2 * hidden) if batch_first else (steps, batch, 2 * hidden)
    grads = [rng.standard_normal(out_shape).astype(np.float32)] + [
        rng.standard_normal((2 * layers, batch, hidden)).astype(np.float32) for _ in range(2 if kind == "LSTM" else 1)]
    paired = _run(module, x, hx, grads, True)
    apart = _run(module, x, hx, grads, False)
    for a, b in zip(paired[0] + paired[1], apart[0] + apart[1]):
        assert a is not None and b is not None
        assert a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride()
        assert np.array_equal(a.detach().numpy(), b.detach().numpy())
    assert paired[0][0].grad_fn.name() == apart[0][0].grad_fn.name()


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_pair_applies_only_to_float32_in_one_batch_size_and_hidden_sizes_of_fours(kind):
    module = getattr(core.nn, kind)(3, 32, bidirectional=True)
    x = core.randn(4, 2, 3)
    w = [module._flat_weights[:4], module._flat_weights[4:]]
    from core.nn.modules import rnn
    ws = [rnn._Weights(*p) for p in w]
    state = (core.zeros(2, 2, 32),) * (2 if kind == "LSTM" else 1)
    assert _rnn_pair.applies(module.mode, x.reshape(8, 3), [2] * 4, state, ws)
    assert not _rnn_pair.applies(module.mode, x.reshape(8, 3), [2, 2, 1, 1], state, ws)
    assert not _rnn_pair.applies(module.mode, x.reshape(8, 3).double(), [2] * 4, state, ws)
    odd = getattr(core.nn, kind)(3, 30, bidirectional=True)
    odd_ws = [rnn._Weights(*odd._flat_weights[:4]), rnn._Weights(*odd._flat_weights[4:])]
    assert not _rnn_pair.applies(module.mode, x.reshape(8, 3), [2] * 4, state, odd_ws)
