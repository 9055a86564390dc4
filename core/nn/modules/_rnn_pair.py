"""A bidirectional layer's two directions run step by step side by side, their gates in one array: one sigmoid
and one tanh call a step for both (on a small batch each call costs more than its elements), the products apart.

Why: an LSTM step of a batch of 16 spends ~130 of its ~150 µs in SLEEF's exp (the gates' sigmoid) and MKL's tanh,
whose ~30 NumPy passes cost nearly the same for twice the elements. The forward direction's step ``t`` and the
reverse direction's step ``T - 1 - t`` are independent, so their gates go into the rows of one array (forward
first) and every elementwise step runs once on both. The values are ``_fused_rnn``'s bit for bit: every op is
elementwise, and the stacking changes no element's route through the kernels (the sigmoid's split between SLEEF's
and glibc's exp goes by each gate's row, ``_fused_rnn._gates_sigmoid``, the same for every row; the tanh has no
such split); each direction's ``h W_hh^T`` stays its own product on its own rows, a row-block of the stacked state
at an address of the same alignment mod 16 bytes (a hidden size of a multiple of 4: MKL's one-row product follows
the state's address). Each direction is still its own ``_fused_rnn._Layer`` node with its own backward.

``applies`` keeps this to padded batches (one batch size throughout) of float32 with a hidden size of a multiple of
4, where ``_fused_rnn`` applies to both directions.
"""

from __future__ import annotations

import numpy as np

import core
from core._sleef import _PAIR
from core.nn.functional.misc import linear_arrays
from core.nn.modules import _fused_rnn
from core.nn.modules._fused_rnn import _gates_sigmoid, _relu, _sigmoid, _tanh
from core.ops._util import quiet

__all__ = ["applies", "run_pair"]


def applies(mode: str, x, batch_sizes: list, state: tuple, ws: list) -> bool:
    """True when ``run_pair`` gives both directions' values: float32 input ``x`` (its rows' dtype and type are the
    gates'), one batch size, a hidden size of a multiple of 4, and the fused layer for each direction
    (``state``: the stacked initial states, whose dtype and type are each direction's)."""
    if x.dtype != core.float32 or len(set(batch_sizes)) != 1 or ws[0].hh.shape[1] % 4:
        return False
    return all(_fused_rnn.applies(mode, x, state, w) for w in ws)


def _lstm(gis, st, wts, bs, halves):
    h, c = st
    k = h.shape[1]
    gates = np.empty((h.shape[0], 4 * k), h.dtype)
    for gi, wt, b, rows in zip(gis, wts, bs, halves):
        np.add(gi, linear_arrays(h[rows], wt, b), out=gates[rows])
    # (each gate's rows as its own call gives them, _fused_rnn._lstm_step's: the same rule for every row of both)
    s = _gates_sigmoid(np.concatenate((gates[:, :2 * k], gates[:, 3 * k:]), 1), k)
    si, sf, so = s[:, :k], s[:, k:2 * k], s[:, 2 * k:]
    tg = _tanh(np, gates[:, 2 * k:3 * k])
    c_new = sf * c + si * tg
    tc = _tanh(np, c_new)
    return (so * tc, c_new), (si, sf, tg, so, tc, c)


def _gru(gis, st, wts, bs, halves):
    h = st[0]
    k = h.shape[1]
    hh = [linear_arrays(h[rows], wt, b) for wt, b, rows in zip(wts, bs, halves)]
    rz, h_n = np.empty((h.shape[0], 2 * k), h.dtype), np.empty(h.shape, h.dtype)
    for gi, part, rows in zip(gis, hh, halves):
        np.add(gi[:, :2 * k], part[:, :2 * k], out=rz[rows])
        h_n[rows] = part[:, 2 * k:]
    s = _sigmoid(np, rz) if k % _PAIR == 0 else _gates_sigmoid(rz, k)
    r, z = s[:, :k], s[:, k:]
    pre = r * h_n
    for gi, rows in zip(gis, halves):
        np.add(gi[:, 2 * k:], pre[rows], out=pre[rows])
    n = _tanh(np, pre)
    return ((h - n) * z + n,), (r, z, n, h_n, h)


def _rnn(act):
    def step(gis, st, wts, bs, halves):
        h = st[0]
        pre = np.empty(h.shape, h.dtype)
        for gi, wt, b, rows in zip(gis, wts, bs, halves):
            np.add(gi, linear_arrays(h[rows], wt, b), out=pre[rows])
        new = act(np, pre)
        return (new,), (new,)
    return step


_STEPS = {"RNN_TANH": _rnn(_tanh), "RNN_RELU": _rnn(_relu), "LSTM": _lstm, "GRU": _gru}


def _steps(mode: str, gis: list, n: int, steps: int, states: list, wts: list, bs: list) -> list:
    """Both directions' steps over gates' rows ``gis`` (``n`` rows a step): for each direction what
    ``_fused_rnn._forward_steps`` returns (outputs in time order, final state, per step in processing order the
    arrays backward needs and the hidden state it started from)."""
    step, halves = _STEPS[mode], (slice(0, n), slice(n, 2 * n))
    st = tuple(np.concatenate(pair) for pair in zip(*states))
    outs, saved, h_in = ([], []), ([], []), ([], [])
    with quiet():
        for t in range(steps):
            rows = (slice(t * n, (t + 1) * n), slice((steps - 1 - t) * n, (steps - t) * n))
            for d in (0, 1):
                h_in[d].append(st[0][halves[d]])
            st, kept = step([gis[d][rows[d]] for d in (0, 1)], st, wts, bs, halves)
            for d in (0, 1):
                saved[d].append(tuple(a[halves[d]] for a in kept))
                outs[d].append(st[0][halves[d]])
    outs[1].reverse()
    return [(outs[d], tuple(s[halves[d]].copy() for s in st), saved[d], h_in[d]) for d in (0, 1)]


def run_pair(mode: str, gis: list, batch_sizes: list, states: list, ws: list, node_name: str, padded: bool,
             onednn: bool = False) -> list:
    """Both directions of a layer from their gates' input shares ``gis``: ``[(output, final state)]`` forward
    then reverse, each ``_fused_rnn.run_direction``'s."""
    n = batch_sizes[0]
    done = _steps(mode, [g._data for g in gis], n, len(batch_sizes), [tuple(s._data for s in st) for st in states],
                  [w.hh._data.T for w in ws], [None if w.b_hh is None else w.b_hh._data for w in ws])
    return [_fused_rnn.run_direction(mode, gi, batch_sizes, st, w, d == 1, node_name, padded, onednn, done[d])
            for d, (gi, st, w) in enumerate(zip(gis, states, ws))]
