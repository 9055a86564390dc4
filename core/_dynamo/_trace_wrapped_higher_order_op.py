"""``torch._dynamo._trace_wrapped_higher_order_op``'s ``TransformGetItemToIndex`` and ``mod_index``.

Mask and score functions (flex attention's, transformers' ``masking_utils``) index tensors with 0-d index tensors,
``padding_mask[batch_idx, kv_idx]``, under ``vmap``. PyTorch turns such a 0-d index into a Python integer (``.item()``,
which vmap refuses); inside ``TransformGetItemToIndex`` a ``Tensor.__getitem__`` whose indices are all tensors or
integers is instead advanced indexing by those tensors (``mod_index``: ``aten.index``), integers made 0-d int64
tensors, as PyTorch does.
"""

from __future__ import annotations

import core
from core.overrides import TorchFunctionMode

__all__ = ["TransformGetItemToIndex", "mod_index"]


def _leaves(index):
    if isinstance(index, (tuple, list)):
        return [leaf for part in index for leaf in _leaves(part)]
    return [index]


def mod_index(x, indices):
    """``x`` indexed by ``indices`` (tensors), each an advanced index: ``aten.index(x, indices)``."""
    return core.ops.aten.index(x, list(indices))


class TransformGetItemToIndex(TorchFunctionMode):
    """``tensor[i, j]`` with tensor (or integer) indices as ``mod_index`` inside the ``with`` block."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func is core.Tensor.__getitem__:
            tensor_to_index = args[0]
            if not isinstance(tensor_to_index, core.Tensor):
                raise AssertionError(f"expected torch.Tensor, got {type(tensor_to_index)}")
            index_args = _leaves(args[1])
            if all(isinstance(x, (core.Tensor, int)) for x in index_args):
                converted = [core.tensor(x, dtype=core.int64, device=tensor_to_index.device) if isinstance(x, int)
                             else x for x in index_args]
                return mod_index(tensor_to_index, converted)
        return func(*args, **(kwargs or {}))
