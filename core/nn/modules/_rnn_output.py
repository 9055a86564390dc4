"""How a recurrent layer assembles its padded output, so that its ``grad_fn`` is the one PyTorch's CPU kernels give.

Tutorials print an RNN's output (``tensor([...], grad_fn=<MkldnnRnnLayerBackward0>)``), so the last node matters:

- a float32 (or bfloat16) ``LSTM`` without projection runs on oneDNN in PyTorch: each direction's output is the
  ``MkldnnRnnLayerBackward0`` node of that layer; every other case stacks the step outputs (``StackBackward0``);
- ``batch_first`` output is a transposed view: ``transpose`` for an ``LSTM`` (``TransposeBackward0``), the in-place
  ``transpose_`` for ``RNN`` and ``GRU`` (``TransposeBackward1``);
- two directions are concatenated on the feature dimension (``CatBackward0``).

Core computes every case with the same composed steps; the oneDNN case only ends in an identity node of that name
(``core.nn._fused_names``: its gradient passes through unchanged).
"""

from __future__ import annotations

import core
from core.nn._fused_names import fused_name

__all__ = ["uses_onednn", "time_major_output", "to_batch_first"]


def uses_onednn(mode: str, proj_size: int, data) -> bool:
    """True where PyTorch's CPU build runs the layer on oneDNN: LSTM, no projection, float32 or bfloat16 on the
    CPU."""
    if mode != "LSTM" or proj_size or data.device.type != "cpu" or not core.backends.mkldnn.enabled:
        return False
    return data.dtype == core.float32 or data.dtype == core.bfloat16


def time_major_output(step_outputs: list, onednn: bool):
    """The last layer's ``(steps, batch, directions * hidden)`` output from each direction's list of step outputs."""
    per_direction = [core.stack(outs) for outs in step_outputs]
    if onednn:
        per_direction = [fused_name(out, "MkldnnRnnLayerBackward0") for out in per_direction]
    return per_direction[0] if len(per_direction) == 1 else core.cat(per_direction, 2)


def to_batch_first(out, mode: str):
    """``(batch, steps, features)``: a transposed view, made in place for ``RNN`` and ``GRU`` as PyTorch does."""
    return out.transpose(0, 1) if mode == "LSTM" else out.transpose_(0, 1)
