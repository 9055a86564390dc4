"""One autograd node per recurrent layer and direction, as PyTorch records it, instead of ~12 nodes per time step.

Why: the composite recurrence (``rnn._STEPS``) records every step's ``linear``, ``chunk``, ``sigmoid``... and
backward then runs them one by one; that made an LSTM 15x slower than PyTorch. ``run_direction`` takes the
input's share of the gates ``gi`` (``x W_ih^T + b_ih``, still an ordinary node) and runs all steps inside one
``Function``:

- forward calls the same core ops on the same views in the same order as the composite steps, without
  recording, so outputs and states are bit for bit the composite's (core's sigmoid/tanh reproduce torch's
  rounding); it keeps, per step, the previous hidden state and the gate activations as arrays;
- backward runs backpropagation through time in NumPy and returns the gradients of ``gi``, ``W_hh``, ``b_hh``
  and the initial state; under ``create_graph`` it differentiates the composite instead, so double backward
  still works.

Packed batches keep the composite's meaning: going forward, finished sequences leave the batch and keep their
last state; in reverse, a sequence joins at its last step from its initial state. ``applies`` says when the
composite must run instead (forward-mode AD, ``core.compile`` capture, autocast, other dtypes and devices).
"""

from __future__ import annotations

import numpy as np

import core
from core import _torch_function
from core._glibc import expf as glibc_expf
from core._sleef import _PAIR, expf_u10
from core._small_gemm import mkl_gemm
from core.autograd import forward_ad as _forward_ad
from core.autograd.function import Function, capturing
from core.nn.functional.misc import linear_arrays
from core.nn.modules import _rnn_loops
from core.ops import math_unary
from core.ops._util import quiet
from core.ops.activation_backward import tanh_grad_arrays

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


# Forward steps: the composite steps of ``rnn`` op for op on arrays (each op's own array kernel: ``linear_arrays``,
# the unary ops' ``compute``), also returning what backward needs. A gate is the column slice ``chunk`` would
# give; where it gives the same values (``_whole_vectors``), one sigmoid call covers several gates.

_sigmoid, _tanh, _relu = math_unary.Sigmoid.compute, math_unary.Tanh.compute, math_unary.Relu.compute
_ONE32 = np.array(1, np.float32)  # (a 0-d operand: a ufunc converts a number on every call)
_sigmoid_grad_arrays = math_unary.Sigmoid.raw  # (g * (1 - o) * o: sigmoid_backward on arrays)


def _rnn_step(act):
    def step(gi, state, wt, b):
        h = act(np, gi + linear_arrays(state[0], wt, b))
        return (h,), (h,)
    return step


def _whole_vectors(t, hidden: int) -> bool:
    """True when core's float32 sigmoid (``core._sleef.vector_loop``) takes every element of each gate and of the
    gates together through its vector form, so one call on them all gives each gate's values bit for bit: the
    gate width a multiple of its step (``_PAIR``: 32 elements on an AVX-512 CPU, 16 on an AVX2 one)."""
    return t.dtype == np.float32 and hidden % _PAIR == 0


def _gates_sigmoid(p, k: int):
    """float32 sigmoid of the ``k``-wide gates side by side in the rows of C-contiguous ``p``, each gate's values as
    core's sigmoid gives them on that gate's own strided view (``_sleef.vector_loop``'s split): row by row, SLEEF's
    exp for the first ``k - k % 32`` of a gate's row, glibc's for the rest (for all of it below 32), then ``1 / (1
    + e)`` in float32. One SLEEF call (and one glibc call) for all the gates, not two for each: both exps
    are elementwise, so the tail elements are recomputed by glibc's over SLEEF's values (an LSTM of hidden size 50:
    three gates ~3x faster). (32: ``_PAIR``, 16 on an AVX2 CPU.)"""
    tail = k % _PAIR if k >= _PAIR else k
    if tail == k:
        e = glibc_expf(-p)
    else:
        e = expf_u10(p, negate=True)
        if tail:
            cols = np.arange(p.shape[1]) % k >= k - tail
            e[:, cols] = glibc_expf(-p[:, cols])
    np.add(e, _ONE32, out=e)  # (loop_sigmoid's last steps, in float32)
    return np.divide(_ONE32, e, out=e)


def _lstm_step(gi, state, wt, b):
    h, c = state
    k = h.shape[1]
    gates = gi + linear_arrays(h, wt, b)
    if gates.dtype == np.float32:  # i, f and o side by side in one call, as each gate's own call gives them
        # NOTE: without g's share (a sigmoid over all four gates, as before, cost 15-30% more than the copy saves)
        s = _gates_sigmoid(np.concatenate((gates[:, :2 * k], gates[:, 3 * k:]), 1), k)
        si, sf, so = s[:, :k], s[:, k:2 * k], s[:, 2 * k:]
        tg = _tanh(np, gates[:, 2 * k:3 * k])
    else:
        sf, si = _sigmoid(np, gates[:, k:2 * k]), _sigmoid(np, gates[:, :k])
        tg, so = _tanh(np, gates[:, 2 * k:3 * k]), _sigmoid(np, gates[:, 3 * k:])
    c_new = sf * c + si * tg
    tc = _tanh(np, c_new)
    return (so * tc, c_new), (si, sf, tg, so, tc, c)


def _gru_step(gi, state, wt, b):
    h = state[0]
    k = h.shape[1]
    hh = linear_arrays(h, wt, b)
    h_n = hh[:, 2 * k:]
    rz = gi[:, :2 * k] + hh[:, :2 * k]
    if _whole_vectors(h, k):  # r and z in one sigmoid call
        s = _sigmoid(np, rz)
        r, z = s[:, :k], s[:, k:]
    elif h.dtype == np.float32:  # r and z as each gate's own call gives them (_gates_sigmoid)
        s = _gates_sigmoid(rz, k)
        r, z = s[:, :k], s[:, k:]
    else:  # each gate's rows a strided view, as PyTorch's in-place sigmoid_ on its gates' chunks (see rnn._gru_step)
        r, z = _sigmoid(np, rz[:, :k]), _sigmoid(np, rz[:, k:])
    n = _tanh(np, gi[:, 2 * k:] + r * h_n)
    return ((h - n) * z + n,), (r, z, n, h_n, h)


_FORWARD = {"RNN_TANH": _rnn_step(_tanh), "RNN_RELU": _rnn_step(_relu), "LSTM": _lstm_step, "GRU": _gru_step}


# Backward steps: from the gradient of the new state (dh, dc) to the gate pre-activations' gradients for the
# input share ``dgi`` and the hidden share ``dgh`` (n, gates) and the gradient of the previous state.

def _mm(a, b):
    """``a @ b`` as the composite's ``addmm`` backward computes it (core's mm on float arrays: MKL's order, else
    NumPy's product)."""
    out = mkl_gemm(a, b)
    return np.matmul(a, b) if out is None else out


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
    d = np.concatenate([_sigmoid_grad_arrays(np, dc * tg, si), _sigmoid_grad_arrays(np, dc * c_prev, sf),
                        tanh_grad_arrays(np, dc * si, tg), _sigmoid_grad_arrays(np, dh * tc, so)], 1)
    return d, d, (_mm(d, whh), dc * sf)


def _gru_back(saved, dh, dc, whh):
    # NOTE: the composite step's autograd op for op (``(h - n) * z + n``: Add, Mul, Sub, then tanh_backward and
    # sigmoid_backward's ``g * (1 - s) * s``), so float32 rounds as PyTorch's (its CPU GRU is that composite). The
    # previous state's gradient comes in two terms, Sub's ``dh * z`` and the addmm's product, which the caller
    # adds after that step's output gradient, in the order PyTorch's engine receives them
    r, z, n, h_n, h_prev = saved
    dsub = dh * z
    dz = _sigmoid_grad_arrays(np, dh * (h_prev - n), z)
    dn = tanh_grad_arrays(np, dh - dsub, n)
    dr = _sigmoid_grad_arrays(np, dn * h_n, r)
    dgh = np.concatenate([dr, dz, dn * r], 1)
    return np.concatenate([dr, dz, dn], 1), dgh, (dsub,), _mm(dgh, whh)


_BACKWARD = {"RNN_TANH": _rnn_tanh_back, "RNN_RELU": _rnn_relu_back, "LSTM": _lstm_back, "GRU": _gru_back}


def _forward_steps(step, gi, batch_sizes, state, wt, b, reverse):
    """The composite's time loop (``_rnn_loops``) with the fused steps on arrays: step outputs, final state, and per
    step (in processing order) the arrays backward needs and the hidden state it started from."""
    saved, h_in = [], []

    def recorded(gates, st):
        h_in.append(st[0])
        new, kept = step(gates, st, wt, b)
        saved.append(kept)
        return new

    run = _rnn_loops.run_reverse if reverse else _rnn_loops.run_forward
    with quiet():
        outs, final = run(recorded, gi, batch_sizes, state, np.concatenate)
    return outs, final, saved, h_in


class _Layer(Function):
    """All steps of one layer and direction: ``(gi, W_hh, b_hh, *state0) -> (steps' outputs, *final state)``."""

    @staticmethod
    def forward(ctx, gi, whh, bhh, *state0, mode, batch_sizes, reverse, shape, onednn=False, done=None):
        if done is None:  # (``done``: the steps' results, run already beside the other direction's: ``_rnn_pair``)
            states = tuple(s._data for s in state0)
            done = _forward_steps(_FORWARD[mode], gi._data, batch_sizes, states, whh._data.T,
                                  None if bhh is None else bhh._data, reverse)
        outs, final, saved, h_in = done
        out = np.stack(outs) if shape is not None else np.concatenate(outs)
        ctx.mode, ctx.batch_sizes, ctx.reverse, ctx.steps, ctx.h_in = mode, batch_sizes, reverse, saved, h_in
        ctx.onednn = onednn
        ctx.save_for_backward(gi, whh, bhh, *state0)
        return (out, *final)

    @staticmethod
    def backward(ctx, grad_out, *grad_final):
        gi, whh, bhh, *state0 = ctx._unpacked
        if core.is_grad_enabled():  # create_graph: gradients that can be differentiated again
            return _composite_grads(ctx, (gi, whh, bhh, *state0), (grad_out, *grad_final))
        mode, batch_sizes = ctx.mode, ctx.batch_sizes
        back, w = _BACKWARD[mode], whh._data
        dy = grad_out._data.reshape(-1, grad_out.shape[-1])
        dstate = [g._data.copy() for g in grad_final]  # rows of every sequence, updated as steps are undone
        offsets, n_steps = _rnn_loops.step_offsets(batch_sizes), len(batch_sizes)
        order = range(n_steps) if ctx.reverse else range(n_steps - 1, -1, -1)
        dgi = np.empty(gi.shape, gi._data.dtype)
        dgh = dgi if mode != "GRU" else np.empty(gi.shape, gi._data.dtype)  # (the two shares differ in a GRU only)
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
            dgi[rows] = d_in
            if dgh is not dgi:
                dgh[rows] = d_hid
            # NOTE: W_hh's and b_hh's gradients add up step by step, the last step's first, as PyTorch's engine adds
            # each step's addmm gradients (h^T dgh, dgh summed over the batch) into them; one product over all steps
            # rounds differently (snnTorch's LeakyParallel printed b_hh's gradient an ulp off). oneDNN's LSTM
            # (PyTorch's float32 CPU LSTM) takes them over all steps at once, as before
            if ctx.onednn:
                h_in[rows] = ctx.h_in[k]
            elif need[1]:
                part = _mm(d_hid.T, ctx.h_in[k])  # (addmm's mat2 W_hh^T, column-major)
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
                  onednn: bool = False, done=None):
    """The fused layer over packed rows' gates ``gi``: the outputs, ``(steps, batch, hidden)`` with ``padded`` or
    packed rows otherwise, and the final state tuple (``onednn``: PyTorch runs the layer on oneDNN; ``done``: the
    steps' results, computed beside the other direction's by ``_rnn_pair``)."""
    shape = (len(batch_sizes), batch_sizes[0]) if padded else None
    res = _layer_cls(node_name).apply(gi, w.hh, w.b_hh, *state0, mode=mode, batch_sizes=list(batch_sizes),
                                      reverse=reverse, shape=shape, onednn=onednn, done=done)
    return res[0], tuple(res[1:])
