"""The order PyTorch's CPU kernels give equal values where they use the C++ library's unstable algorithms.

``topk`` puts each row's ``(value, index)`` pairs in a buffer and runs ``partial_sort`` (when ``k * 64 <= n``)
or ``nth_element`` followed (when ``sorted``) by ``sort`` of the first ``k - 1``; ``sort`` without ``stable``
runs ``std::sort``; ``mode`` runs ``std::sort`` on ``(value, index)`` pairs with a plain ``<``. None is stable,
so among equal values the indices come out in the order the swaps leave them. This module replays the GNU
implementations (introselect, introsort, heap select) on a Python list, comparing as PyTorch does (NaN above
everything for ``largest``/descending). Callers run it only on rows where ties change the answer: a stable
sort gives every other row.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["torch_topk_rows", "torch_sort_rows", "torch_mode_index", "std_sort_pairs", "rows_with_ties"]


def _greater(a, b) -> bool:
    return a[0] > b[0] or (math.isnan(a[0]) and not math.isnan(b[0]))


def _less(a, b) -> bool:
    return a[0] < b[0] or (not math.isnan(a[0]) and math.isnan(b[0]))


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _median_to_first(q, result, a, b, c, comp) -> None:
    if comp(q[a], q[b]):
        pick = b if comp(q[b], q[c]) else (c if comp(q[a], q[c]) else a)
    elif comp(q[a], q[c]):
        pick = a
    else:
        pick = c if comp(q[b], q[c]) else b
    q[result], q[pick] = q[pick], q[result]


def _partition(q, first, last, pivot, comp) -> int:
    while True:
        while comp(q[first], q[pivot]):
            first += 1
        last -= 1
        while comp(q[pivot], q[last]):
            last -= 1
        if not first < last:
            return first
        q[first], q[last] = q[last], q[first]
        first += 1


def _partition_pivot(q, first, last, comp) -> int:
    _median_to_first(q, first, first + 1, first + (last - first) // 2, last - 1, comp)
    return _partition(q, first + 1, last, first, comp)


def _push_heap(q, base, hole, top, value, comp) -> None:
    parent = (hole - 1) // 2
    while hole > top and comp(q[base + parent], value):
        q[base + hole] = q[base + parent]
        hole = parent
        parent = (hole - 1) // 2
    q[base + hole] = value


def _adjust_heap(q, base, hole, length, value, comp) -> None:
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if comp(q[base + child], q[base + child - 1]):
            child -= 1
        q[base + hole] = q[base + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        q[base + hole] = q[base + child - 1]
        hole = child - 1
    _push_heap(q, base, hole, top, value, comp)


def _make_heap(q, first, last, comp) -> None:
    length = last - first
    if length < 2:
        return
    for parent in range((length - 2) // 2, -1, -1):
        _adjust_heap(q, first, parent, length, q[first + parent], comp)


def _pop_heap(q, first, last, result, comp) -> None:
    value = q[result]
    q[result] = q[first]
    _adjust_heap(q, first, 0, last - first, value, comp)


def _heap_select(q, first, middle, last, comp) -> None:
    _make_heap(q, first, middle, comp)
    for i in range(middle, last):
        if comp(q[i], q[first]):
            _pop_heap(q, first, middle, i, comp)


def _sort_heap(q, first, last, comp) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(q, first, last, last, comp)


def _linear_insert(q, last, comp) -> None:
    value = q[last]
    while comp(value, q[last - 1]):
        q[last] = q[last - 1]
        last -= 1
    q[last] = value


def _insertion_sort(q, first, last, comp) -> None:
    for i in range(first + 1, last):
        if comp(q[i], q[first]):
            value = q[i]
            q[first + 1:i + 1] = q[first:i]
            q[first] = value
        else:
            _linear_insert(q, i, comp)


def _introsort_loop(q, first, last, depth, comp) -> None:
    while last - first > 16:
        if depth == 0:
            _heap_select(q, first, last, last, comp)
            _sort_heap(q, first, last, comp)
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, comp)
        _introsort_loop(q, cut, last, depth, comp)
        last = cut


def _sort(q, first, last, comp) -> None:
    if last - first < 2:
        return
    _introsort_loop(q, first, last, 2 * _lg(last - first), comp)
    if last - first > 16:
        _insertion_sort(q, first, first + 16, comp)
        for i in range(first + 16, last):
            _linear_insert(q, i, comp)
    else:
        _insertion_sort(q, first, last, comp)


def _nth_element(q, nth, comp) -> None:
    first, last = 0, len(q)
    if nth == last:
        return
    depth = 2 * _lg(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(q, first, nth + 1, last, comp)
            q[first], q[nth] = q[nth], q[first]
            return
        depth -= 1
        cut = _partition_pivot(q, first, last, comp)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(q, first, last, comp)


def _select(row, k: int, largest: bool, sorted_: bool) -> list:
    q = [(float(v), i) for i, v in enumerate(row)]
    comp = _greater if largest else _less
    if k * 64 <= len(q):
        _heap_select(q, 0, k, len(q), comp)
        _sort_heap(q, 0, k, comp)
    elif k > 0:
        _nth_element(q, k - 1, comp)
        if sorted_:
            _sort(q, 0, k - 1, comp)
    return [i for _, i in q[:k]]


def rows_with_ties(ordered_values: np.ndarray, k: int) -> np.ndarray:
    """Rows (of a (rows, n) array sorted best-first) where equal values meet among the first ``k + 1``."""
    head = ordered_values[:, :k + 1]
    a, b = head[:, :-1], head[:, 1:]
    same = (a == b) | (np.isnan(a) & np.isnan(b)) if head.dtype.kind == "f" else (a == b)
    return np.flatnonzero(same.any(axis=1))


def _plain_less(a, b) -> bool:
    return a[0] < b[0]


def std_sort_pairs(row) -> list:
    """``std::sort`` of a row's ``(value, index)`` pairs by value with a plain ``<`` (PyTorch's ``mode``)."""
    q = [(float(v), i) for i, v in enumerate(row)]
    _sort(q, 0, len(q), _plain_less)
    return q


def torch_mode_index(row) -> int:
    """PyTorch's CPU ``mode`` index: after ``std::sort``, the last index of the first longest run of equal values."""
    q = std_sort_pairs(row)
    best, index, run = 0, 0, 0
    for i, (value, position) in enumerate(q):
        run += 1
        if i == len(q) - 1 or value != q[i + 1][0]:
            if run > best:
                best, index = run, position
            run = 0
    return index


def _comparison_keys(row: np.ndarray, descending: bool) -> np.ndarray:
    """Integer keys with ``comp(a, b) == key[a] < key[b]`` for the comparison ``sort`` uses: each value's dense rank
    (NaN above every number), negated for a descending sort."""
    values = row.astype(np.float64) if row.dtype.kind == "f" else row
    nan = np.isnan(values) if values.dtype.kind == "f" else np.zeros(len(values), dtype=bool)
    ranks = np.zeros(len(values), dtype=np.int64)
    if (~nan).any():
        ranks[~nan] = np.unique(values[~nan], return_inverse=True)[1].reshape(-1)
    ranks[nan] = ranks.max(initial=-1) + 1
    return -ranks if descending else ranks


_VECTOR_RANGE = 256  # ranges longer than this partition in NumPy, shorter ones in a Python loop on lists


def _pick_median(k, first: int, last: int) -> int:
    a, b, c = first + 1, first + (last - first) // 2, last - 1
    ka, kb, kc = k[a], k[b], k[c]
    if ka < kb:
        return b if kb < kc else (c if ka < kc else a)
    if ka < kc:
        return a
    return c if kb < kc else b


def _partition_vectorised(k: np.ndarray, ix: np.ndarray, first: int, last: int) -> int:
    """``_partition`` of ``[first, last)`` around the pivot at ``first`` in one pass of array operations.

    The left scan stops at keys not below the pivot, the right scan at keys not above it. Until the scans cross,
    every stop is where the range as it was says (the L-th left stop, the R-th right stop from the top), and each
    swap exchanges the j-th of each; the swaps continue while ``L[j] < R[j]`` (a prefix: L rises, R falls).
    Where they stop, the left scan ends at ``L[J]`` or, sooner, at ``R[J-1]``, which now holds a key not below
    the pivot."""
    pivot = k[first]
    left = np.flatnonzero(k[first + 1:last] >= pivot) + (first + 1)
    right = (np.flatnonzero(k[first:last] <= pivot) + first)[::-1]
    m = min(len(left), len(right))
    swaps = int(np.count_nonzero(left[:m] < right[:m]))
    if swaps:
        lo, hi = left[:swaps], right[:swaps]
        k[lo], k[hi] = k[hi], k[lo].copy()
        ix[lo], ix[hi] = ix[hi], ix[lo].copy()
    cut = int(left[swaps]) if swaps < len(left) else last
    return min(cut, int(right[swaps - 1])) if swaps else cut


def _partition_lists(k: list, ix: list, first: int, last: int) -> int:
    pivot, lo, hi = k[first], first + 1, last
    while True:
        while k[lo] < pivot:
            lo += 1
        hi -= 1
        while pivot < k[hi]:
            hi -= 1
        if not lo < hi:
            return lo
        k[lo], k[hi], ix[lo], ix[hi] = k[hi], k[lo], ix[hi], ix[lo]
        lo += 1


def _heap_sort_range(k, ix, first: int, last: int) -> None:
    q = list(zip(list(k[first:last]), list(ix[first:last])))
    _heap_select(q, 0, len(q), len(q), _plain_less)
    _sort_heap(q, 0, len(q), _plain_less)
    k[first:last], ix[first:last] = [a for a, _ in q], [b for _, b in q]


def _introsort_ranges(k, ix, stack: list, partition, small: list | None) -> None:
    """``_introsort_loop`` over the ranges on ``stack`` (disjoint ranges partition independently, so their order
    does not matter); with ``small``, ranges of at most ``_VECTOR_RANGE`` are put there instead."""
    while stack:
        first, last, depth = stack.pop()
        while last - first > 16:
            if small is not None and last - first <= _VECTOR_RANGE:
                small.append((first, last, depth))
                break
            if depth == 0:  # heap sort of the range, as _introsort_loop falls back to
                _heap_sort_range(k, ix, first, last)
                break
            depth -= 1
            pick = _pick_median(k, first, last)
            k[first], k[pick] = k[pick], k[first]
            ix[first], ix[pick] = ix[pick], ix[first]
            cut = partition(k, ix, first, last)
            stack.append((cut, last, depth))
            last = cut


def _introsort_by_keys(keys: np.ndarray) -> np.ndarray:
    """GNU ``std::sort`` of positions by integer keys (``_sort`` with ``comp`` a ``<`` on keys), fast: long ranges
    partition in NumPy (``_partition_vectorised``), short ones on two flat lists with the pivot's key held (it stays
    put while its range is partitioned), and the closing insertion sort, which is stable and meets ranges already
    in order, is a stable argsort."""
    n = len(keys)
    k, ix = np.array(keys, dtype=np.int64), np.arange(n, dtype=np.int64)
    small: list = []
    if n > 1:
        _introsort_ranges(k, ix, [(0, n, 2 * _lg(n))], _partition_vectorised, small)
    k_list, ix_list = k.tolist(), ix.tolist()
    _introsort_ranges(k_list, ix_list, small, _partition_lists, None)
    order = np.asarray(ix_list, dtype=np.int64)
    return order[np.argsort(np.asarray(k_list, dtype=np.int64), kind="stable")]


def torch_sort_rows(rows: np.ndarray, descending: bool) -> np.ndarray:
    """The ``(len(rows), n)`` indices PyTorch's CPU ``sort`` (not stable) gives each row of ``rows``."""
    out = [_introsort_by_keys(_comparison_keys(row, descending)) for row in rows]
    return np.array(out, dtype=np.int64).reshape(rows.shape)


def _torch_sort_rows_replayed(rows: np.ndarray, descending: bool) -> np.ndarray:
    """``torch_sort_rows`` by the generic replay on ``(value, index)`` pairs (the reference the fast one matches)."""
    comp = _greater if descending else _less
    out = []
    for row in rows:
        q = [(float(v), i) for i, v in enumerate(row)]
        _sort(q, 0, len(q), comp)
        out.append([i for _, i in q])
    return np.array(out, dtype=np.int64).reshape(rows.shape)


def torch_topk_rows(rows: np.ndarray, k: int, largest: bool, sorted_: bool) -> np.ndarray:
    """The ``(len(rows), k)`` indices PyTorch's CPU kernel picks for each row of ``rows``."""
    return np.array([_select(r, k, largest, sorted_) for r in rows], dtype=np.int64).reshape(len(rows), k)
