"""``grad_fn._saved_<name>`` of the normalisation nodes that are read from what the node keeps: layer norm's and
batch norm's ``_saved_result1``/``_saved_result2`` (the mean and the inverse standard deviation PyTorch's kernel
returns) and batch norm's running statistics. Nothing is computed or saved for them on the forward path."""

from __future__ import annotations

import numpy as np

from core._tensor import Tensor
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.node_api import SavedFromCtx, SavedFromNode
from core.ops._saved_attrs import operand_shape

__all__ = ["layer_norm_stat", "BATCH_NORM_SAVED", "GROUP_NORM_SAVED"]


def layer_norm_stat(node, i: int):
    """``_saved_result1``/``_saved_result2`` (mean, rstd) of a layer norm, from the kernel's rows (per sample,
    viewed as PyTorch saves them: the input's lead dims, then size-1 dims); only where the kernel ran."""
    kernel = node.__dict__.get("kernel")
    if kernel is None:
        raise KeyError(i)
    shape = operand_shape(node, 0, 0)
    lead = shape[:len(shape) - len(node.dims)]
    return Tensor._wrap(kernel[i].reshape(lead + (1,) * len(node.dims)))


def _batch_norm_stat(node, key: str):
    """Batch norm's ``_saved_result1``/``_saved_result2``: the batch's mean and invstd per channel while training,
    empty tensors in eval (PyTorch's kernel returns none then)."""
    stat = node.__dict__[key]
    if not node.training:
        return Tensor._wrap(np.empty((0,), dtype=stat.dtype))
    return Tensor._wrap(stat.reshape(-1))


# _saved_result1, _saved_result2, _saved_running_mean, _saved_running_var, _saved_eps, _saved_training
BATCH_NORM_SAVED = (
    SavedFromNode(lambda node: _batch_norm_stat(node, "mean"), tensor=True),
    SavedFromNode(lambda node: _batch_norm_stat(node, "invstd"), tensor=True),
    SavedFromNode(lambda node: node.buffers[0], tensor=True),
    SavedFromNode(lambda node: node.buffers[1], tensor=True),
    SavedFromNode(lambda node: node.eps),
    SavedFromNode(lambda node: node.training),
)


def _group_norm_stat(node, nr: int) -> Tensor:
    """Group norm's ``_saved_result1``/``_saved_result2``: its mean and rstd outputs (N, G), as PyTorch shows a
    saved output: with the node as grad_fn (the stats the node kept: nothing more is saved)."""
    out = Tensor._wrap(node.__dict__["stats"][nr - 1])
    if is_grad_enabled():
        out.grad_fn, out._requires_grad, out._output_nr = node, True, nr
    return out


def _input_sizes(node) -> tuple:
    shape = operand_shape(node, 0, 0)
    return shape[0], shape[1], int(np.prod(shape[2:], dtype=np.int64))


# _saved_result1, _saved_result2, _saved_N, _saved_C, _saved_HxW, _saved_group, _saved_eps
GROUP_NORM_SAVED = (
    SavedFromNode(lambda node: _group_norm_stat(node, 1), tensor=True),
    SavedFromNode(lambda node: _group_norm_stat(node, 2), tensor=True),
    SavedFromNode(lambda node: _input_sizes(node)[0]), SavedFromNode(lambda node: _input_sizes(node)[1]),
    SavedFromNode(lambda node: _input_sizes(node)[2]), SavedFromCtx(lambda c: c["groups"]),
    SavedFromCtx(lambda c: c["eps"]),
)
