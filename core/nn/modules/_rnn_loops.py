"""The time loop of one recurrent layer in one direction over packed rows, shared by the composite steps
(``rnn``) and the fused layer (``_fused_rnn``), so both walk a packed batch the same way.

Going forward, a sequence that ends leaves the batch and keeps its last state; in reverse, a sequence joins the
batch at its own last step, starting from its initial state. ``step(gates, state)`` returns the new state.
"""

from __future__ import annotations

import core

__all__ = ["step_offsets", "run_forward", "run_reverse"]


def step_offsets(batch_sizes) -> list:
    """The first packed row of each time step."""
    offsets = [0]
    for n in batch_sizes[:-1]:
        offsets.append(offsets[-1] + n)
    return offsets


def run_forward(step, gi, batch_sizes, state, cat=core.cat):
    """Steps 0..T-1 over the gates' rows ``gi``: each step's output and the final state (``cat``: how the rows
    of finished sequences join the final state: ``core.cat`` for tensors, ``numpy.concatenate`` for arrays)."""
    offsets, done, outs = step_offsets(batch_sizes), [], []
    for t, n in enumerate(batch_sizes):
        if n < state[0].shape[0]:
            done.append(tuple(s[n:] for s in state))
            state = tuple(s[:n] for s in state)
        state = step(gi[offsets[t]:offsets[t] + n], state)
        outs.append(state[0])
    final = tuple(cat([s] + [d[k] for d in reversed(done)]) if done else s for k, s in enumerate(state))
    return outs, final


def run_reverse(step, gi, batch_sizes, state0, cat=core.cat):
    """Steps T-1..0 over the gates' rows ``gi``: each step's output (in time order) and the final state (``cat``
    as ``run_forward``'s, for the sequences that join)."""
    offsets = step_offsets(batch_sizes)
    state = tuple(s[:batch_sizes[-1]] for s in state0)
    outs = []
    for t in range(len(batch_sizes) - 1, -1, -1):
        n, have = batch_sizes[t], state[0].shape[0]
        if n > have:
            state = tuple(cat([s, s0[have:n]]) for s, s0 in zip(state, state0))
        state = step(gi[offsets[t]:offsets[t] + n], state)
        outs.append(state[0])
    outs.reverse()
    return outs, state
