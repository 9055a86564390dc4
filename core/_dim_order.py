"""``Tensor.dim_order``: the dims from outermost to innermost in memory, with PyTorch's ambiguity checks.

The order is PyTorch's ``compute_elementwise_output_logical_to_physical_perm`` for one tensor: contiguous and
channels-last tensors short-circuit, otherwise an insertion sort by stride that skips stride-0 dims and
breaks ties of equal strides by size.
"""

from __future__ import annotations

_AMBIGUOUS = "The tensor does not have unique dim order, or cannot map to exact one of the given memory formats."
_BAD_CHECK = "The ambiguity_check argument must be a bool or a list of memory formats."


def dim_order(t, ambiguity_check=False) -> tuple:
    """``ambiguity_check`` True raises where several orders are legal (a size-1 dim, equal strides); a list of
    memory formats raises there unless the tensor is contiguous in exactly one of them."""
    from core._memory_format import memory_format

    if not isinstance(ambiguity_check, bool):
        if not isinstance(ambiguity_check, list) or not all(isinstance(f, memory_format) for f in ambiguity_check):
            raise TypeError(_BAD_CHECK)
    strides, sizes = t.stride(), tuple(t.shape)
    if ambiguity_check is not False:
        several = any(a == b for a, b in zip(strides, strides[1:])) or any(s == 1 for s in sizes)
        formats = ambiguity_check if isinstance(ambiguity_check, list) else []
        if several and sum(t.is_contiguous(memory_format=f) for f in formats) != 1:
            raise RuntimeError(_AMBIGUOUS)
    perm, ambiguous = _perm(t, strides, sizes, bool(ambiguity_check))
    if ambiguous:
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(perm)


def _perm(t, strides, shape, check):
    from core._memory_format import channels_last

    ndim = len(shape)
    if ndim <= 1:
        return list(range(ndim)), False
    contiguous = t.is_contiguous()
    last = ndim == 4 and t.is_contiguous(memory_format=channels_last)
    if contiguous and not last:
        return list(range(ndim)), False
    if last and not contiguous:
        return [0, *range(2, ndim), 1], False

    def ge(a, b):
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a, b):
        sa, sb = strides[a], strides[b]
        if sa == 0 or sb == 0:
            return 0
        if sa == sb:
            return 0 if ge(shape[b], shape[a]) else 1
        if ge(sb, sa):
            return -1
        return 1 if ge(sa, sb) else 0

    perm = list(reversed(range(ndim)))
    for i in range(1, ndim):  # insertion sort, back to front, with ambiguous comparisons
        d1 = i
        for d0 in reversed(range(i)):
            order = should_swap(perm[d0], perm[d1])
            if order > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif order < 0:
                break
    ambiguous = check and any(should_swap(perm[i], perm[i + 1]) != -1 for i in range(ndim - 1))
    return list(reversed(perm)), ambiguous
