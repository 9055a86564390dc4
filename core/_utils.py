"""``torch._utils``' flat-buffer helpers that research code imports (guided-diffusion's and apex's mixed-precision
masters, DDP-style gradient buckets): ``_flatten_dense_tensors`` and ``_unflatten_dense_tensors``.

Both are differentiable compositions of ``core`` ops, as PyTorch's ``flatten_dense_tensors`` kernels are of
ATen's: the flat buffer is a ``cat`` of each tensor's contiguous ``view(-1)``, and unflattening gives views of
the buffer (``narrow`` then ``view``) in the given tensors' shapes.
"""

from __future__ import annotations

import core

__all__ = ["_flatten_dense_tensors", "_unflatten_dense_tensors"]


def _flatten_dense_tensors(tensors):
    """One contiguous 1-D buffer holding ``tensors`` one after another (a single tensor is its flat view)."""
    flat = [t.contiguous().view(-1) for t in tensors]
    return flat[0] if len(flat) == 1 else core.cat(flat)


def _unflatten_dense_tensors(flat, tensors):
    """Views of ``flat`` shaped as each of ``tensors``, in order (what ``_flatten_dense_tensors`` laid out)."""
    outputs, offset = [], 0
    for t in tensors:
        n = t.numel()
        outputs.append(flat.narrow(0, offset, n).view(t.shape))
        offset += n
    return tuple(outputs)
