"""``torch.hash_tensor``: an xor of the elements' 64-bit patterns (PyTorch's only mode, 0).

Each element is widened to float64 (floating dtypes) or int64/uint64 (integers and bool) and its bits are read
as uint64; the xor runs over ``dim`` (all dims by default). The result is uint64 and has no gradient.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._tensor import Tensor, new_tensor
from core.ops._util import xp_of
from core.ops.reduction import reduce_dims

__all__ = ["hash_tensor"]


def hash_tensor(input: Tensor, dim=None, *, keepdim: bool = False, mode: int = 0) -> Tensor:
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    x = input._data
    xp = xp_of(x)
    if x.dtype.kind == "c":
        raise NotImplementedError(f"\"xor_sum_cpu\" not implemented for '{_dtype.SCALAR_NAMES[input.dtype.name]}'")
    if dim is None:
        if x.size == 0:
            raise RuntimeError("hash_tensor: Expected reduction dim to be specified for input.numel() == 0. Specify "
                               "the reduction dim with the 'dim' argument.")
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(reduce_dims(input, dim))
        for d in axes:
            if x.shape[d] == 0:
                raise IndexError(f"hash_tensor: Expected reduction dim {d} to have non-zero size.")
    wide = np.float64 if x.dtype.kind in "fV" or input.dtype.is_floating_point else \
        (np.uint64 if x.dtype.kind == "u" and x.dtype != np.uint8 else np.int64)
    bits = x.astype(wide).view(np.uint64) if x.ndim else x.astype(wide).reshape(1).view(np.uint64).reshape(())
    out = xp.bitwise_xor.reduce(bits, axis=axes, keepdims=keepdim) if axes else bits.copy()
    return new_tensor(xp.asarray(out, dtype=np.uint64))
