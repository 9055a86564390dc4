"""The fused recurrent layer after the thirtieth session's cut gives the bits of the layer it replaced.

The reference is ``_fused_rnn`` as it stood before (commit 5e310623), kept in ``fused_rnn_before_s30.py``: its steps
called core ops on tensors, and now the same kernels run on arrays (``linear_arrays``, the unary ops' ``compute``,
``mkl_gemm``). One layer and direction of each mode, padded or packed (sequences ending in any order of lengths),
forward or reverse, float32 or float64, hidden sizes with and without whole 32-element vectors (gates with and
without a tail of glibc's exp), with and without biases: outputs, final states and every gradient compared bit for
bit.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core.nn.modules import _fused_rnn, rnn
from tests.core.nn import fused_rnn_before_s30 as old

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _run(module, mode, arrays, batch_sizes, reverse, padded, onednn, grads):
    gi, whh, bhh, *state0 = (None if a is None else core.tensor(a, requires_grad=True) for a in arrays)
    w = rnn._Weights(None, whh, None, bhh)
    name = ("MkldnnRnnLayerBackward0" if onednn else "StackBackward0") if padded else "CatBackward0"
    out, final = module.run_direction(mode, gi, batch_sizes, tuple(state0), w, reverse, name, padded, onednn)
    core.autograd.backward((out, *final), [core.tensor(g) for g in grads])
    leaves = [t for t in (gi, whh, bhh, *state0) if t is not None]
    return [out, *final], [t.grad for t in leaves]


@settings(max_examples=100, deadline=None)
@given(mode=st.sampled_from(list(_GATES)), hidden=st.sampled_from([1, 5, 20, 32, 33, 50, 64, 100]),
       dtype=st.sampled_from(["float32", "float64"]), lengths=st.lists(st.integers(1, 6), min_size=1, max_size=5),
       padded=st.booleans(), reverse=st.booleans(), bias=st.booleans(), onednn=st.booleans(),
       seed=st.integers(0, 2 ** 32 - 1))
def test_fused_layer_gives_the_old_layers_bits(mode, hidden, dtype, lengths, padded, reverse, bias, onednn, seed):
    rng = np.random.default_rng(seed)
    lengths = sorted(lengths, reverse=True)
    if padded:
        lengths = [lengths[0]] * len(lengths)
    batch_sizes = [sum(n > t for n in lengths) for t in range(lengths[0])]
    gates = _GATES[mode] * hidden
    r = lambda *shape: rng.standard_normal(shape).astype(dtype)  # noqa: E731
    states = [r(len(lengths), hidden) for _ in range(2 if mode == "LSTM" else 1)]
    arrays = [r(sum(batch_sizes), gates), r(gates, hidden), r(gates) if bias else None, *states]
    out_shape = (len(batch_sizes), batch_sizes[0], hidden) if padded else (sum(batch_sizes), hidden)
    grads = [r(*out_shape)] + [r(len(lengths), hidden) for _ in states]
    onednn = onednn and mode == "LSTM" and dtype == "float32"
    new = _run(_fused_rnn, mode, arrays, batch_sizes, reverse, padded, onednn, grads)
    before = _run(old, mode, arrays, batch_sizes, reverse, padded, onednn, grads)
    for a, b in zip(new[0] + new[1], before[0] + before[1]):
        assert a.dtype == b.dtype and a.shape == b.shape and a.stride() == b.stride()
        assert np.array_equal(a.detach().numpy(), b.detach().numpy(), equal_nan=True)
    assert new[0][0].grad_fn.name() == before[0][0].grad_fn.name()
