"""The layer loop of core's recurrent layers and of ``torch.lstm``/``gru``/``rnn_tanh``/``rnn_relu``: each cell's
time step composed from core ops (``_STEPS``), one layer and direction over packed rows (a fused node where
``_fused_rnn`` applies, both directions side by side where ``_rnn_pair`` does, linear steps for Expanded
Weights, else the composed steps), and all layers with dropout between them (``_run``). ``core.nn.modules.rnn``
builds the ``_Stack`` from a module's parameters, ``core.ops.rnn_forms`` from a flat weight list.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

import core
from core.nn import functional as F
from core.nn.modules import _fused_rnn, _rnn_loops, _rnn_output, _rnn_pair

__all__ = ["composite_direction"]


class _Weights(NamedTuple):
    ih: core.Tensor
    hh: core.Tensor
    b_ih: core.Tensor | None
    b_hh: core.Tensor | None
    hr: core.Tensor | None = None


# One time step of each cell: ``gi`` is the input's share of the gates (x W_ih^T + b_ih), ``state`` a tuple
# (h,) or (h, c); each returns the new state tuple, whose first item is the step's output.

# NOTE: the hidden state's product comes first and the gates split with unsafe_chunk, as ATen's cells
# (``linear_hh(hx).add_(input gates)``, ``gates.unsafe_chunk(4, 1)``): the graph's AddBackward0 lists the hh product's
# edge first and the gates come from UnsafeSplitBackward0 (torchviz's drawing of an LSTMCell); the sums are the same.
def _rnn_tanh_step(gi, state, w: _Weights) -> tuple:
    return (core.tanh(F.linear(state[0], w.hh, w.b_hh) + gi),)


def _rnn_relu_step(gi, state, w: _Weights) -> tuple:
    return (core.relu(F.linear(state[0], w.hh, w.b_hh) + gi),)


def _lstm_step(gi, state, w: _Weights) -> tuple:
    h, c = state
    i, f, g, o = (F.linear(h, w.hh, w.b_hh) + gi).unsafe_chunk(4, 1)
    c = core.sigmoid(f) * c + core.sigmoid(i) * core.tanh(g)
    h = core.sigmoid(o) * core.tanh(c)
    if w.hr is not None:
        h = F.linear(h, w.hr)
    return h, c


def _gru_step(gi, state, w: _Weights) -> tuple:
    h = state[0]
    # NOTE: ATen's GRUCell, op for op: both products split by unsafe_chunk, the hidden gates' chunks summed and
    # squashed in place (``hg[0].add_(ig[0]).sigmoid_()``), so the graph is torch's (AddBackward0 over two
    # UnsafeSplitBackward0, the hidden product's first). Each gate's rows are then a strided run of ``hidden``
    # elements, which PyTorch's vectorised sigmoid_ rounds as core's sigmoid_ does on the same view (a contiguous
    # (batch, hidden) sum rounded its tail otherwise: hidden 16 differed in the last bit)
    ig = gi.unsafe_chunk(3, 1)
    hg = F.linear(h, w.hh, w.b_hh).unsafe_chunk(3, 1)
    r = hg[0].add_(ig[0]).sigmoid_()
    z = hg[1].add_(ig[1]).sigmoid_()
    n = ig[2].add(hg[2].mul_(r)).tanh_()
    return ((h - n).mul_(z).add_(n),)


_STEPS = {"RNN_TANH": _rnn_tanh_step, "RNN_RELU": _rnn_relu_step, "LSTM": _lstm_step, "GRU": _gru_step}


def composite_direction(mode, gi, batch_sizes, state, w: _Weights, reverse: bool):
    """The composed steps of one layer and direction from the gates' input share ``gi``: each step's output (in
    time order) and the final state (``_fused_rnn`` differentiates it again under ``create_graph``)."""
    step = _STEPS[mode]
    run = _rnn_loops.run_reverse if reverse else _rnn_loops.run_forward
    return run(lambda gates, st: step(gates, st, w), gi, batch_sizes, state)


def _run_direction(mode, x, batch_sizes, state, w: _Weights, reverse: bool, padded: bool, onednn: bool):
    """One layer in one direction over packed rows ``x``: its output (``(steps, batch, hidden)`` with ``padded``,
    packed rows otherwise) and the final state; one fused node where ``_fused_rnn`` applies, else composed steps."""
    if _expanded(w):  # Expanded Weights: steps of linear calls, whose per-sample gradients add up
        return _run_direction_expanded(mode, x, batch_sizes, state, w, reverse, padded, onednn)
    gi = F.linear(x, w.ih, w.b_ih)  # the input's share of every step's gates, in one matmul
    if gi.dim() == 3:  # the first layer's (steps, batch, features) input, as PyTorch's projects it
        gi = gi.reshape(-1, gi.size(-1))
    if _fused_rnn.applies(mode, gi, state, w):
        name = _rnn_output.node_name(onednn) if padded else "CatBackward0"
        return _fused_rnn.run_direction(mode, gi, batch_sizes, state, w, reverse, name, padded, onednn)
    outs, final = composite_direction(mode, gi, batch_sizes, state, w, reverse)
    return (_rnn_output.stacked_steps(outs, onednn) if padded else core.cat(outs)), final


def _run_pair(stack, x, batch_sizes: list, state: tuple, layer: int, padded: bool, onednn: bool):
    """Both directions of a bidirectional layer side by side (``_rnn_pair``), or None where it doesn't apply."""
    ws = stack.weights[2 * layer:2 * layer + 2]
    if any(_expanded(w) for w in ws):
        return None
    if not _rnn_pair.applies(stack.mode, x, batch_sizes, state, ws):
        return None
    states = [tuple(s[k] for s in state) for k in (2 * layer, 2 * layer + 1)]
    gis = []
    for w in ws:
        gi = F.linear(x, w.ih, w.b_ih)
        gis.append(gi.reshape(-1, gi.size(-1)) if gi.dim() == 3 else gi)
    name = _rnn_output.node_name(onednn) if padded else "CatBackward0"
    return _rnn_pair.run_pair(stack.mode, gis, batch_sizes, states, ws, name, padded, onednn)


def _expanded(w: _Weights) -> bool:
    """Whether the weights are ``ExpandedWeight``s (``call_for_per_sample_grads``; none exist before its module is
    imported)."""
    module = sys.modules.get("core.nn.utils._expanded_weights")
    return module is not None and any(isinstance(t, module.ExpandedWeight) for t in w)


def _run_direction_expanded(mode, x, batch_sizes, state, w: _Weights, reverse: bool, padded: bool, onednn: bool):
    """``_run_direction`` with Expanded Weights, as torch's RNN decompositions run it: the input projection step by
    step on that step's rows (batch first, so each linear's per-sample gradient is the step's; a packed sequence's
    smaller batches allowed), then the composed steps (their hidden linear likewise)."""
    weights = [t for t in w if t is not None]
    for t in weights:
        t.set_allow_smaller_batches(True)
    try:
        rows = x.reshape(-1, x.size(-1))
        gi = core.cat([F.linear(step, w.ih, w.b_ih) for step in rows.split(list(batch_sizes))])
        outs, final = composite_direction(mode, gi, batch_sizes, state, w, reverse)
    finally:
        for t in weights:
            t.set_allow_smaller_batches(False)
    return (_rnn_output.stacked_steps(outs, onednn) if padded else core.cat(outs)), final


class _Stack(NamedTuple):
    """What the layer loop runs: the recurrence, the weights of each layer and direction (layer-major), and the
    dropout between layers. A module makes it from its parameters, ``torch.lstm`` & co. from their flat list."""
    mode: str
    num_layers: int
    bidirectional: bool
    weights: list
    dropout: float
    training: bool


def _run(stack: _Stack, data, batch_sizes: list, state: tuple, padded: bool = False) -> tuple:
    """All layers and directions over packed rows (or, padded, the ``(steps, batch, features)`` input, whose rows
    the first layer's projection reads as PyTorch's does): the last layer's output and the final states.

    The output is packed rows, or with ``padded`` the ``(steps, batch, features)`` tensor built as PyTorch
    builds it (see ``_rnn_output``).
    """
    if not batch_sizes:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    directions = 2 if stack.bidirectional else 1
    onednn = _rnn_output.uses_onednn(stack.mode, int(stack.weights[0].hr is not None), data)
    finals, x = [], data
    for layer in range(stack.num_layers):
        outs, last = [], padded and layer == stack.num_layers - 1
        paired = _run_pair(stack, x, batch_sizes, state, layer, last, onednn) if directions == 2 else None
        for direction in range(directions):
            k = layer * directions + direction
            out, final = paired[direction] if paired else _run_direction(
                stack.mode, x, batch_sizes, tuple(s[k] for s in state), stack.weights[k], direction == 1, last, onednn)
            outs.append(out)
            finals.append(final)
        if last:
            x = _rnn_output.time_major_output(outs)
            break
        x = outs[0] if directions == 1 else core.cat(outs, 1)
        if stack.dropout > 0 and stack.training and layer < stack.num_layers - 1:
            x = F.dropout(x, stack.dropout, True)
    return x, tuple(core.stack([f[i] for f in finals]) for i in range(len(state)))
