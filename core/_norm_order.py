"""Float32 2-norms in the order PyTorch's CPU kernel adds the squares (``norm``, ``linalg.vector_norm``,
``F.normalize`` over the last dim, or over a whole contiguous tensor).

PyTorch's fast path for a 2-norm over a contiguous last dim (ATen's ``norm_kernel_tensor_iterator_impl``,
built for 8 float32 lanes) reads each row as vectors of 8: each lane adds its squares (rounded products, rounded
sums); the 8 lanes are then added left to right. The tail that does not fill a vector is added to that total one
element at a time: its first 4 elements (when it has 4 or more) as rounded squares, the rest as fused multiply-adds
(``acc + x * x`` rounded once). The square root of the total is the norm. NumPy's pairwise sum of the squares rounds
differently on 5-20% of rows, which ``F.normalize`` then carries into every element of the row.

``two_norm`` reproduces it for float32 arrays whose reduced dims are the trailing, C-contiguous ones (the tests
compare bit for bit with torch), and answers ``None`` for anything else (the caller keeps NumPy's sum).
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import in_order

__all__ = ["two_norm"]

LANES = 8
_F32 = np.float32


def _reduced_trailing(x: np.ndarray, axes) -> int | None:
    """How many trailing dims ``axes`` reduces, when they are exactly the trailing, C-contiguous ones."""
    nd = x.ndim
    axes = tuple(range(nd)) if axes is None else tuple(sorted(a % nd for a in axes))
    k = len(axes)
    if k == 0 or axes != tuple(range(nd - k, nd)):
        return None
    tail = x[(0,) * (nd - k)] if nd > k and x.size else x
    return k if tail.flags.c_contiguous else None


def _row_norms(rows: np.ndarray) -> np.ndarray:
    n, d = rows.shape
    full = d - d % LANES
    if full:  # NOTE: in_order picks the fastest in-order NumPy call (einsum over the vectors: ~10x a cumsum)
        squares = rows[:, :full].reshape(n, full // LANES, LANES) ** 2
        lanes = in_order(squares, 1)  # each lane adds its squares in order
        acc = in_order(lanes, 1)  # then the lanes, left to right
    else:
        acc = np.zeros(n, _F32)
    tail = rows[:, full:]
    plain = 4 if tail.shape[1] >= 4 else 0
    for j in range(plain):
        acc = acc + tail[:, j] * tail[:, j]
    for j in range(plain, tail.shape[1]):  # a fused multiply-add: the exact square, rounded once with the sum
        t = tail[:, j].astype(np.float64)
        acc = (t * t + acc).astype(_F32)
    return np.sqrt(acc)


def two_norm(x: np.ndarray, axes, keepdims: bool):
    """The 2-norm of ``x`` over ``axes`` (``None``: all) as PyTorch's CPU kernel rounds it, or ``None`` when ``x``
    is not a float32 NumPy array reduced over trailing contiguous dims."""
    if type(x) is not np.ndarray or x.dtype != _F32:
        return None
    k = _reduced_trailing(x, axes)
    if k is None:
        return None
    kept = x.shape[:x.ndim - k]
    d = int(np.prod(x.shape[x.ndim - k:], dtype=np.int64))
    rows = np.ascontiguousarray(x).reshape(-1, d) if d else np.zeros((int(np.prod(kept, dtype=np.int64)), 0), _F32)
    with np.errstate(over="ignore", invalid="ignore"):
        out = _row_norms(rows).reshape(kept)
    return out.reshape(kept + (1,) * k) if keepdims else out
