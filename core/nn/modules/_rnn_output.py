"""How a recurrent layer assembles its padded output, so that its ``grad_fn`` is the one PyTorch's CPU kernels give.

Tutorials print an RNN's output (``tensor([...], grad_fn=<MkldnnRnnLayerBackward0>)``), so the last node matters:

- a float32 (or bfloat16) ``LSTM`` without projection runs on oneDNN in PyTorch: each direction's output is the
  ``MkldnnRnnLayerBackward0`` node of that layer; every other case stacks the step outputs (``StackBackward0``);
- ``batch_first`` output is a transposed view: ``transpose`` for an ``LSTM`` (``TransposeBackward0``), the in-place
  ``transpose_`` for ``RNN`` and ``GRU`` (``TransposeBackward1``);
- two directions are concatenated on the feature dimension (``CatBackward0``).

Core's fused layer (``_fused_rnn``) records one node per direction and takes the name given here; the composite
steps stack their outputs and, in the oneDNN case, end in an identity node of that name (``core.nn._fused_names``:
its gradient passes through unchanged).
"""

from __future__ import annotations

import core
from core.nn._fused_names import fused_name

__all__ = ["uses_onednn", "node_name", "stacked_steps", "time_major_output", "to_batch_first"]


def uses_onednn(mode: str, proj_size: int, data) -> bool:
    """True where PyTorch's CPU build runs the layer on oneDNN: LSTM, no projection, float32 or bfloat16 on the
    CPU."""
    if mode != "LSTM" or proj_size or data.device.type != "cpu" or not core.backends.mkldnn.enabled:
        return False
    return data.dtype == core.float32 or data.dtype == core.bfloat16


def node_name(onednn: bool) -> str:
    """The ``grad_fn`` name of one direction's ``(steps, batch, hidden)`` output."""
    return "MkldnnRnnLayerBackward0" if onednn else "StackBackward0"


def stacked_steps(outs: list, onednn: bool):
    """One direction's ``(steps, batch, hidden)`` output from the composite's list of step outputs."""
    out = core.stack(outs)
    return fused_name(out, "MkldnnRnnLayerBackward0") if onednn else out


def time_major_output(per_direction: list):
    """The last layer's ``(steps, batch, directions * hidden)`` output from each direction's output."""
    return per_direction[0] if len(per_direction) == 1 else core.cat(per_direction, 2)


def to_batch_first(out, mode: str):
    """``(batch, steps, features)``: a transposed view, made in place for ``RNN`` and ``GRU`` as PyTorch does."""
    return out.transpose(0, 1) if mode == "LSTM" else out.transpose_(0, 1)
