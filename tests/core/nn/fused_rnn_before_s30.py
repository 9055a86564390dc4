"""``core.nn.modules._fused_rnn`` as it stood before the thirtieth session's cut (commit 5e310623), kept verbatim below
this docstring (but its import of ``_sigmoid_grad_arrays``, which moved: the same ``g * (1 - o) * o`` through
``Sigmoid.raw``), as the reference of ``test_fused_rnn_unchanged.py``: its forward steps called
core ops on tensors (``F.linear``, ``core.sigmoid``, ``core.tanh``...) and its backward ``core.mm``; now both run
the same kernels on arrays.
"""
from __future__ import annotations

import numpy as np

import core
from core import _torch_function
from core.autograd import forward_ad as _forward_ad
from core.autograd.function import Function, capturing
from core.nn import functional as F
from core.nn.modules import _rnn_loops
from core.ops.activation_backward import tanh_grad_arrays
from core.ops.math_unary import Sigmoid


def _sigmoid_grad_arrays(g, o):  # (math_unary's array form of sigmoid_backward, since moved)
    return Sigmoid.raw(np, g, o)


__all__ = ["enabled", "applies", "run_direction"]

enabled = True  # False: every layer runs the composite steps (tests compare the two)


def applies(mode: str, gi, state0: tuple, w) -> bool:
    """True when the fused node can stand for the composite: CPU float32/float64, no projection, rows present,
    no forward-mode AD, no ``core.compile`` capture, no autocast, no mode that wants the steps recorded."""
    if not enabled or w.hr is not None or _forward_ad._state.token is not None or capturing() or steps_wanted():
        return False
    if core.is_autocast_enabled("cpu") or not gi.shape[0]:
        return False
    dtype = gi.dtype
    if dtype not in (core.float32, core.float64):
        return False
    for t in (gi, w.hh, w.b_hh, *state0):
        if t is not None and (type(t._data) is not np.ndarray or t.dtype != dtype):
            return False
    return True


def steps_wanted() -> bool:
    """Whether an active ``__torch_function__`` mode sets ``records_rnn_steps`` (``FlopCounterMode``: torch's
    backward runs an ``mm`` per step, which it counts on each step's node)."""
    return bool(_torch_function._modes_entered) and any(getattr(mode, "records_rnn_steps", False)
                                                         for mode in _torch_function.mode_stack())


# Forward steps: the composite steps of ``rnn`` op for op, also returning what backward needs (arrays). A gate
# is sliced out of the gates as ``chunk`` would (the same view, made without chunk's cost); where it gives the
# same values (``_whole_vectors``), one sigmoid call covers several gates.

def _gates(t, k: int) -> tuple:
    size = t.shape[1] // k
    return tuple(t[:, j * size:(j + 1) * size] for j in range(k))


def _rnn_step(act):
    def step(gi, state, whh, bhh):
        h = act(gi + F.linear(state[0], whh, bhh))
        return (h,), (h._data,)
    return step


def _whole_vectors(t, hidden: int) -> bool:
    """True when core's float32 sigmoid (``core._sleef.vector_loop``) takes every element of each gate and of the
    gates together through its vector form, so one call on them all gives each gate's values bit for bit: the
    gate width a multiple of its 32-element step."""
    return t.dtype == core.float32 and hidden % 32 == 0


def _lstm_step(gi, state, whh, bhh):
    h, c = state
    gates = gi + F.linear(h, whh, bhh)
    i, f, g, o = _gates(gates, 4)
    if _whole_vectors(gates, h.shape[1]):  # one sigmoid call instead of three (g's share unused)
        si, sf, _, so = _gates(core.sigmoid(gates), 4)
        tg = core.tanh(g)
    else:
        sf, si, tg, so = core.sigmoid(f), core.sigmoid(i), core.tanh(g), core.sigmoid(o)
    c_new = sf * c + si * tg
    tc = core.tanh(c_new)
    return (so * tc, c_new), (si._data, sf._data, tg._data, so._data, tc._data, c._data)


def _gru_step(gi, state, whh, bhh):
    h, hidden = state[0], state[0].shape[1]
    hh = F.linear(h, whh, bhh)
    h_n = hh[:, 2 * hidden:]
    rz = gi[:, :2 * hidden] + hh[:, :2 * hidden]
    if _whole_vectors(h, hidden):  # r and z in one sigmoid call
        r, z = _gates(core.sigmoid(rz), 2)
    else:  # each gate's rows a strided view, as PyTorch's in-place sigmoid_ on its gates' chunks (see rnn._gru_step)
        r, z = core.sigmoid(rz[:, :hidden]), core.sigmoid(rz[:, hidden:])
    n = core.tanh(gi[:, 2 * hidden:] + r * h_n)
    return ((h - n) * z + n,), (r._data, z._data, n._data, h_n._data, h._data)


_FORWARD = {"RNN_TANH": _rnn_step(core.tanh), "RNN_RELU": _rnn_step(core.relu), "LSTM": _lstm_step,
            "GRU": _gru_step}


# Backward steps: from the gradient of the new state (dh, dc) to the gate pre-activations' gradients for the
# input share ``dgi`` and the hidden share ``dgh`` (n, gates) and the gradient of the previous state.

def _mm(a, b):
    """``a @ b`` as the composite's ``addmm`` backward computes it (core's mm: MKL's order), as an array."""
    return core.mm(core.from_numpy(a), core.from_numpy(b))._data


def _rnn_tanh_back(saved, dh, dc, whh):
    (h,) = saved
    d = tanh_grad_arrays(np, dh, h)  # (tanh_backward: 1 - h² rounded once, PyTorch's fused multiply-add)
    return d, d, (_mm(d, whh),)


def _rnn_relu_back(saved, dh, dc, whh):
    (h,) = saved
    d = np.where(h > 0, dh, dh.dtype.type(0))  # (threshold_backward: +0 where the output is 0)
    return d, d, (_mm(d, whh),)


def _lstm_back(saved, dh, dc, whh):
    # NOTE: PyTorch's composite LSTM cell's autograd op for op (its CPU LSTM where oneDNN doesn't take it: float64,
    # mkldnn off), as for the GRU below: tanh_backward and sigmoid_backward of each gate's Mul gradient
    si, sf, tg, so, tc, c_prev = saved
    dc = dc + tanh_grad_arrays(np, dh * so, tc)
    d = np.concatenate([_sigmoid_grad_arrays(dc * tg, si), _sigmoid_grad_arrays(dc * c_prev, sf),
                        tanh_grad_arrays(np, dc * si, tg), _sigmoid_grad_arrays(dh * tc, so)], 1)
    return d, d, (_mm(d, whh), dc * sf)


def _gru_back(saved, dh, dc, whh):
    # NOTE: the composite step's autograd op for op (``(h - n) * z + n``: Add, Mul, Sub, then tanh_backward and
    # sigmoid_backward's ``g * (1 - s) * s``), so float32 rounds as PyTorch's (its CPU GRU is that composite). The
    # previous state's gradient comes in two terms, Sub's ``dh * z`` and the addmm's product, which the caller
    # adds after that step's output gradient, in the order PyTorch's engine receives them
    r, z, n, h_n, h_prev = saved
    dsub = dh * z
    dz = _sigmoid_grad_arrays(dh * (h_prev - n), z)
    dn = tanh_grad_arrays(np, dh - dsub, n)
    dr = _sigmoid_grad_arrays(dn * h_n, r)
    dgh = np.concatenate([dr, dz, dn * r], 1)
    return np.concatenate([dr, dz, dn], 1), dgh, (dsub,), _mm(dgh, whh)


_BACKWARD = {"RNN_TANH": _rnn_tanh_back, "RNN_RELU": _rnn_relu_back, "LSTM": _lstm_back, "GRU": _gru_back}


def _forward_steps(step, gi, batch_sizes, state, whh, bhh, reverse):
    """The composite's time loop (``_rnn_loops``) with the fused steps: step outputs, final state, and per step
    (in processing order) the arrays backward needs and the hidden state it started from."""
    saved, h_in = [], []

    def recorded(gates, st):
        h_in.append(st[0]._data)
        new, kept = step(gates, st, whh, bhh)
        saved.append(kept)
        return new

    outs, final = (_rnn_loops.run_reverse if reverse else _rnn_loops.run_forward)(recorded, gi, batch_sizes, state)
    return outs, final, saved, h_in


class _Layer(Function):
    """All steps of one layer and direction: ``(gi, W_hh, b_hh, *state0) -> (steps' outputs, *final state)``."""

    @staticmethod
    def forward(ctx, gi, whh, bhh, *state0, mode, batch_sizes, reverse, shape, onednn=False):
        outs, final, saved, h_in = _forward_steps(_FORWARD[mode], gi, batch_sizes, state0, whh, bhh, reverse)
        out = core.stack(outs) if shape is not None else core.cat(outs)
        ctx.mode, ctx.batch_sizes, ctx.reverse, ctx.steps, ctx.h_in = mode, batch_sizes, reverse, saved, h_in
        ctx.onednn = onednn
        ctx.save_for_backward(gi, whh, bhh, *state0)
        return (out._data, *(s._data for s in final))

    @staticmethod
    def backward(ctx, grad_out, *grad_final):
        gi, whh, bhh, *state0 = ctx.saved_tensors
        if core.is_grad_enabled():  # create_graph: gradients that can be differentiated again
            return _composite_grads(ctx, (gi, whh, bhh, *state0), (grad_out, *grad_final))
        mode, batch_sizes = ctx.mode, ctx.batch_sizes
        back, w = _BACKWARD[mode], whh._data
        dy = grad_out._data.reshape(-1, grad_out.shape[-1])
        dstate = [g._data.copy() for g in grad_final]  # rows of every sequence, updated as steps are undone
        offsets, n_steps = _rnn_loops.step_offsets(batch_sizes), len(batch_sizes)
        order = range(n_steps) if ctx.reverse else range(n_steps - 1, -1, -1)
        dgi, dgh = np.empty(gi.shape, gi._data.dtype), np.empty(gi.shape, gi._data.dtype)
        need, wrap = ctx.needs_input_grad, core.from_numpy
        dw = db = late = None
        h_in = np.empty((gi.shape[0], whh.shape[1]), gi._data.dtype) if ctx.onednn else None
        for t in order:
            k = n_steps - 1 - t if ctx.reverse else t  # the step's place in processing order
            n, rows = batch_sizes[t], slice(offsets[t], offsets[t] + batch_sizes[t])
            if late is not None and len(late) != n:  # packed, the batch changed: the later step's state was a
                dstate[0][:len(late)] += late  # slice (a cat in reverse) of this one's, whose node adds both terms
                late = None  # before this step's output gradient joins them
            dh = dstate[0][:n] + dy[rows]
            if late is not None:  # the later step's product term of this state's gradient, added last
                dh += late
            d_in, d_hid, prev, *rest = back(ctx.steps[k], dh, dstate[1][:n] if mode == "LSTM" else None, w)
            late = rest[0] if rest else None
            dgi[rows], dgh[rows] = d_in, d_hid
            # NOTE: W_hh's and b_hh's gradients add up step by step, the last step's first, as PyTorch's engine adds
            # each step's addmm gradients (h^T dgh, dgh summed over the batch) into them; one product over all steps
            # rounds differently (snnTorch's LeakyParallel printed b_hh's gradient an ulp off). oneDNN's LSTM
            # (PyTorch's float32 CPU LSTM) takes them over all steps at once, as before
            if ctx.onednn:
                h_in[rows] = ctx.h_in[k]
            elif need[1]:
                part = core.mm(wrap(d_hid).t(), wrap(ctx.h_in[k]))._data  # (addmm's mat2 W_hh^T, column-major)
                dw = part if dw is None else dw + part
            if need[2] and not ctx.onednn:
                part = d_hid.sum(0)
                db = part if db is None else db + part
            for s, p in zip(dstate, prev):
                s[:n] = p
        if late is not None:
            dstate[0][:len(late)] += late
        if ctx.onednn:
            dw, db = (dgh.T @ h_in) if need[1] else None, dgh.sum(0) if need[2] else None
        grads = (dgi, dw, db, *dstate)
        return tuple(wrap(np.ascontiguousarray(g)) if g is not None and wanted else None
                     for g, wanted in zip(grads, need))


def _composite_grads(ctx, inputs, grads):
    """The gradients of the composite recurrence at the saved inputs, recorded (double backward)."""
    from core.nn.modules import _rnn_layers as rnn  # (it imports this module)

    gi, whh, bhh, *state0 = inputs
    w = rnn._Weights(None, whh, None, bhh)
    outs, final = rnn.composite_direction(ctx.mode, gi, ctx.batch_sizes, tuple(state0), w, ctx.reverse)
    out = core.stack(outs) if grads[0].dim() == 3 else core.cat(outs)
    wanted = [t for t in inputs if t is not None and t.requires_grad]
    found = iter(core.autograd.grad((out, *final), wanted, grads, create_graph=True, allow_unused=True))
    return tuple(next(found) if t is not None and t.requires_grad else None for t in inputs)


_CLASSES: dict = {}


def _layer_cls(node_name: str) -> type:
    """``_Layer`` whose node is called ``node_name``: the name PyTorch's (or the composite's) output node has."""
    cls = _CLASSES.get(node_name)
    if cls is None:
        cls = _CLASSES[node_name] = type(node_name[:-len("Backward0")], (_Layer,), {"node_name": node_name})
    return cls


def run_direction(mode: str, gi, batch_sizes: list, state0: tuple, w, reverse: bool, node_name: str, padded: bool,
                  onednn: bool = False):
    """The fused layer over packed rows' gates ``gi``: the outputs, ``(steps, batch, hidden)`` with ``padded`` or
    packed rows otherwise, and the final state tuple (``onednn``: PyTorch runs the layer on oneDNN)."""
    shape = (len(batch_sizes), batch_sizes[0]) if padded else None
    res = _layer_cls(node_name).apply(gi, w.hh, w.b_hh, *state0, mode=mode, batch_sizes=list(batch_sizes),
                                      reverse=reverse, shape=shape, onednn=onednn)
    return res[0], tuple(res[1:])
