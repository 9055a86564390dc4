"""Sums of non-contiguous arrays (transposed, permuted, sliced views) in the order PyTorch's CPU ``sum`` adds them.

PyTorch's TensorIterator reorders a reduction's dims before its kernel (``cascade_sum``, emulated for contiguous
arrays in ``core._cascade_sum``) sees them: reduced dims go innermost, ordered by the input's strides; kept dims
follow the output's strides (the output is a new contiguous tensor, so its logical order); neighbouring dims that
stride as one merge. The kernel then adds over the two innermost dims at a time, choosing by their strides:

- a contiguous reduced dim of at least one vector: rows, 8-lane vectors (``row_sums``);
- else a contiguous kept dim of at least one vector: columns, 32 at a time (``column_sums``);
- else a reduced dim with the smaller stride: rows one element at a time, 4-way interleaved (``_interleaved``);
- else columns 4 at a time (``column_sums`` without vectors);

and each output adds the results of its outer iterations one after another, the innermost fastest.
``strided_sum`` follows those steps on a strided view of the same memory, so its sums equal torch's bit for bit.
"""

from __future__ import annotations

import math

import numpy as np

from core._cascade_sum import _interleaved, _lanes, _ordered, column_sums, in_order, row_sums

__all__ = ["strided_sum"]

_NO_VECTORS = 1 << 62  # a vector width no dim reaches: column_sums then takes PyTorch's scalar column loop


def strided_sum(x: np.ndarray, axes: tuple, keepdim: bool, vector: int):
    """``x.sum(axes, keepdims=keepdim)`` of a float32/float64 array with non-negative strides in PyTorch's order;
    ``vector``: source elements per vector load (8 float32, 4 float64, 16 for float16/bfloat16 loaded as float32)."""
    sizes, in_strides, out_strides = _iteration_dims(x, axes)
    if vector > _lanes(x) and sizes[1] > 1 and out_strides[0] == out_strides[1] == 0:
        # NOTE: a float16/bfloat16 sum whose two innermost dims are both reduced converts its input to float32 and
        # adds that (PyTorch's accumulation buffer): a dense copy with the input's order of strides (its
        # preserve_format, as NumPy's order "K")
        dense = x if _dense(x) else np.array(x, order="K")
        return _ordered(dense, axes, keepdim) if dense.flags.c_contiguous else \
            strided_sum(dense, axes, keepdim, _lanes(x))
    view = np.lib.stride_tricks.as_strided(x, sizes[::-1], [s * x.itemsize for s in in_strides[::-1]],
                                           writeable=False)
    reduced = [o == 0 for o in out_strides[::-1]]  # per view dim, outermost first
    sums, reduced = _inner_two(view, in_strides, out_strides, reduced, vector)
    outer = [d for d, r in enumerate(reduced) if r]
    kept = [d for d, r in enumerate(reduced) if not r]
    grouped = np.transpose(sums, outer + kept).reshape(math.prod(sums.shape[d] for d in outer), -1)
    total = in_order(grouped, 0) if outer else grouped.reshape(-1)
    shape = x.shape
    return total.reshape(tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdim else
                         tuple(n for d, n in enumerate(shape) if d not in axes))


def _dense(x: np.ndarray) -> bool:
    """Whether ``x`` fills its memory without gaps or overlaps (a permutation of a contiguous array)."""
    expected = x.itemsize
    for s, n in sorted((s, n) for n, s in zip(x.shape, x.strides) if n > 1):
        if s != expected:
            return False
        expected *= n
    return True


def _iteration_dims(x: np.ndarray, axes: tuple):
    """TensorIterator's dims for the reduction, innermost first: sizes, input and output strides (in elements)."""
    dims = [d for d in range(x.ndim) if x.shape[d] > 1]
    stride = {d: x.strides[d] // x.itemsize for d in dims}
    out, step = {}, 1
    for d in reversed(dims):  # the output: a new contiguous tensor over the kept dims
        out[d] = 0 if d in axes else step
        step *= 1 if d in axes else x.shape[d]
    perm = dims[::-1]  # TensorIterator starts from the last dim innermost, then insertion-sorts
    for i in range(1, len(perm)):
        j = i
        for k in range(i - 1, -1, -1):
            order = _should_swap(perm[k], perm[j], out, stride)
            if order > 0:
                perm[k], perm[j] = perm[j], perm[k]
                j = k
            elif order < 0:
                break
    sizes, ins, outs = [], [], []
    for d in perm:  # merge a dim into the previous one when both operands stride as one dim
        if sizes and ins[-1] * sizes[-1] == stride[d] and outs[-1] * sizes[-1] == out[d]:
            sizes[-1] *= x.shape[d]
        else:
            sizes.append(x.shape[d])
            ins.append(stride[d])
            outs.append(out[d])
    while len(sizes) < 2:
        sizes.append(1)
        ins.append(0)
        outs.append(0)
    return sizes, ins, outs


def _should_swap(inner: int, outer: int, out: dict, stride: dict) -> int:
    """TensorIterator's comparison of two dims (1: swap them): reduced dims first, then the output's strides, then
    the input's."""
    if (out[inner] == 0) != (out[outer] == 0):
        return 1 if out[outer] == 0 else -1
    for strides in (out, stride):
        a, b = strides[inner], strides[outer]
        if a and b and a != b:
            return -1 if a < b else 1
    return 0


def _inner_two(view: np.ndarray, in_strides: list, out_strides: list, reduced: list, vector: int):
    """The kernel's sums over the two innermost dims (the view's last two): the results per outer index and, if
    the second dim is reduced too, per its index (then an outer reduced dim, the fastest), and ``reduced`` for the
    result's dims."""
    s0, s1 = view.shape[-1], view.shape[-2]
    i0, i1 = in_strides[0], in_strides[1]
    if out_strides[0] != 0:  # nothing reduced (the reduced dims are all 1s): each element on its own
        return view, reduced
    lead = view.shape[:-2]
    if i0 == 1 and s0 >= vector:
        sums = row_sums(np.ascontiguousarray(view).reshape(-1, s0), vector).reshape(lead + (s1,))
    elif i1 == 1 and s1 >= vector:
        sums = _columns(view, vector)
    elif i0 < i1:
        sums = _interleaved(view, view.ndim - 1)
    else:
        sums = _columns(view, _NO_VECTORS)
    return sums, reduced[:-1]


def _columns(view: np.ndarray, vector: int) -> np.ndarray:
    s0, s1 = view.shape[-1], view.shape[-2]
    cols = np.ascontiguousarray(np.swapaxes(view, -1, -2)).reshape(-1, s0, s1)
    return column_sums(cols, vector).reshape(view.shape[:-2] + (s1,))
