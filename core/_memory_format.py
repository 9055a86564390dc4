"""Memory formats: ``torch.contiguous_format``, ``preserve_format``, ``channels_last`` and ``channels_last_3d``.

A memory format names an order of a tensor's dims in memory. ``channels_last`` keeps an NCHW tensor's channels
innermost (strides ``(H*W*C, 1, W*C, C)``), ``channels_last_3d`` an NCDHW tensor's. The helpers here compute
those strides, test a tensor's strides against them and guess a format from strides, with PyTorch's rules
(``c10/core/MemoryFormat.h``, ``Contiguity.h``): size-1 dims are ignored by the contiguity tests, ambiguous
strides count as contiguous, and a format of the wrong rank is a ``RuntimeError``. They work on shapes and
element strides, and make backend arrays; they import only ``core._backend`` and ``core._meta``.
"""

from __future__ import annotations

from core._backend import xp_of
from core._meta import contiguous_strides

__all__ = ["memory_format", "contiguous_format", "preserve_format", "channels_last", "channels_last_3d",
           "format_strides", "is_contiguous_in", "suggest_format", "empty_in", "copy_in", "preserved_strides",
           "laid_out_like", "empty_strided_array", "copy_preserving", "format_of", "in_format", "in_suggested_format",
           "iterator_strides", "laid_out_like_operands"]


class memory_format:
    """A memory format, printed as PyTorch prints it (``torch.channels_last``)."""

    __module__ = "core"  # PyTorch's class path (torch.memory_format)

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name  # pickles and deep copies give back the module's constant


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

# dims from innermost to outermost, per format and rank
_ORDERS = {"channels_last": (4, (1, 3, 2, 0)), "channels_last_3d": (5, (1, 4, 3, 2, 0))}


def _order(fmt, ndim: int) -> tuple:
    rank, order = _ORDERS[fmt.name]
    if ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt.name} format")
    return order


def _is_channels_last(fmt) -> bool:
    return getattr(fmt, "name", None) in _ORDERS


def format_strides(shape, fmt) -> tuple:
    """Element strides of a fresh tensor of ``shape`` in ``fmt`` (contiguous or a channels-last format)."""
    if not _is_channels_last(fmt):
        return contiguous_strides(shape)
    strides, acc = [0] * len(shape), 1
    for d in _order(fmt, len(shape)):
        strides[d] = acc
        acc *= shape[d]  # NOTE: PyTorch multiplies by 0 here (a size-0 dim zeroes the outer strides)
    return tuple(strides)


def is_contiguous_in(shape, strides, fmt) -> bool:
    """``Tensor.is_contiguous(memory_format=fmt)`` for a channels-last format: False at any other rank."""
    rank, order = _ORDERS[fmt.name]
    if len(shape) != rank:
        return False
    expected = 1
    for d in order:
        if shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= shape[d]
    return True


def _strides_like(shape, strides, order) -> bool:
    """PyTorch's ``is_channels_last_strides_*``: the strides grow along ``order``; ties fall back to NCHW."""
    low = 0
    if strides[1] == 0:
        return False
    for d in order:
        if shape[d] == 0 or strides[d] < low:
            return False
        if d == 0 and low == strides[1]:
            return False
        low = strides[d] * shape[d] if shape[d] > 1 else strides[d]
    return True


def suggest_format(shape, strides):
    """The format PyTorch's ``suggest_memory_format`` reads from strides (contiguous unless channels-last-like)."""
    for fmt in (channels_last, channels_last_3d):
        rank, order = _ORDERS[fmt.name]
        if len(shape) == rank and _strides_like(shape, strides, order):
            return fmt
    return contiguous_format


def empty_in(xp, shape, dtype, fmt):
    """An uninitialised backend array of ``shape`` laid out in ``fmt``."""
    if not _is_channels_last(fmt):
        return xp.empty(shape, dtype=dtype)
    order = _order(fmt, len(shape))
    outer_first = order[::-1]
    arr = xp.empty([shape[d] for d in outer_first], dtype=dtype)
    back = [outer_first.index(d) for d in range(len(shape))]
    return arr.transpose(back)


def copy_in(arr, fmt, dtype=None):
    """A copy of the backend array ``arr`` (cast to ``dtype``) laid out in ``fmt``."""
    out = empty_in(xp_of(arr), arr.shape, arr.dtype if dtype is None else dtype, fmt)
    out[...] = arr
    return out


def format_of(arr):
    """The memory format PyTorch's ``suggest_memory_format`` reads from the backend array ``arr``'s strides."""
    return suggest_format(arr.shape, [st // arr.itemsize for st in arr.strides])


def in_format(arr, fmt):
    """``arr`` laid out in ``fmt`` (contiguous or a channels-last format), copied unless it is laid out so."""
    if not _is_channels_last(fmt):
        return xp_of(arr).ascontiguousarray(arr)
    if tuple(st // arr.itemsize for st in arr.strides) == format_strides(arr.shape, fmt):
        return arr
    return copy_in(arr, fmt)


def in_suggested_format(arr, like):
    """``arr`` laid out in the format ``like`` suggests: what PyTorch's kernels do that allocate their output with
    ``like.suggest_memory_format()`` (upsampling and pooling keep a channels-last image channels-last)."""
    return in_format(arr, format_of(like))


def _non_overlapping_and_dense(shape, strides) -> bool:
    expected = 1
    for size, stride in sorted(((sz, st) for sz, st in zip(shape, strides) if sz != 1), key=lambda p: p[1]):
        if stride != expected:
            return False
        expected *= size
    return True


def _should_swap(shape, strides, d0, d1) -> int:
    """TensorIterator's comparison of two dims: 1 when ``d0`` lies outside ``d1``, -1 inside, 0 undecided."""
    s0, s1 = strides[d0], strides[d1]
    if s0 == 0 or s1 == 0:
        return 0
    if s0 != s1:
        return 1 if s0 > s1 else -1
    return 1 if shape[d0] > shape[d1] else 0


def _dims_innermost_first(ndim: int, should_swap) -> list:
    """The dims ordered innermost first by TensorIterator's insertion sort (``reorder_dimensions``): starting from
    the reverse order, a dim moves outward past another while ``should_swap(outer, inner)`` is positive and stops
    at the first negative answer (0, ambiguous, neither moves nor stops it)."""
    perm = list(range(ndim - 1, -1, -1))
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            cmp = should_swap(perm[d0], perm[d1])
            if cmp > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif cmp < 0:
                break
    return perm


def preserved_strides(shape, strides) -> tuple:
    """The strides of a fresh tensor like one with ``strides`` (PyTorch's ``preserve_format``): the same when
    dense and non-overlapping, else dense strides in the same dim order (PyTorch's ``infer_dense_strides``)."""
    if _non_overlapping_and_dense(shape, strides):
        return tuple(strides)
    ndim = len(shape)
    perm = _dims_innermost_first(ndim, lambda d0, d1: _should_swap(shape, strides, d0, d1))
    out, acc = [0] * ndim, 1
    for d in perm:
        out[d] = acc
        acc *= shape[d] if shape[d] > 1 else 1
    return tuple(out)


def empty_strided_array(xp, shape, strides, dtype):
    """An uninitialised backend array with the given element strides (dense ones: one element per slot)."""
    n = 1
    for size in shape:
        n *= size
    buf = xp.empty(max(n, 1), dtype=dtype)
    return xp.lib.stride_tricks.as_strided(buf, tuple(shape), tuple(st * buf.itemsize for st in strides))


def laid_out_like(res, src):
    """``res``, an elementwise result of ``src``, in the strides PyTorch's TensorIterator gives it: ``src``'s own when
    dense, else dense ones in ``src``'s dim order with broadcast dims outermost (NumPy puts a stride-0 dim innermost:
    ``x.expand(2, 3, 4).exp()`` would not be contiguous). A copy only then; with both C-contiguous, ``res`` as it is."""
    if (res.flags.c_contiguous and src.flags.c_contiguous) or res.ndim != src.ndim or not res.size:
        return res
    want = preserved_strides(src.shape, [st // src.itemsize for st in src.strides])
    if tuple(st // res.itemsize for st in res.strides) == tuple(want):
        return res
    out = empty_strided_array(xp_of(res), res.shape, want, res.dtype)
    out[...] = res
    return out


def _operand_should_swap(shape, operands, d0, d1) -> int:
    """TensorIterator's ``should_swap`` over several operands' (broadcast) strides: the first operand that orders
    the two dims decides (a broadcast dim has no say; equal strides put the smaller dim inside, or ask on)."""
    for strides in operands:
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            continue
        if s0 != s1:
            return 1 if s0 > s1 else -1
        if shape[d0] > shape[d1]:
            return 1
    return 0


def _broadcast_strides(shape, op_shape, op_strides) -> tuple:
    """An operand's element strides seen from the broadcast ``shape``: 0 where it is broadcast."""
    lead = len(shape) - len(op_shape)
    return (0,) * lead + tuple(0 if n == 1 and shape[lead + i] != 1 else st
                               for i, (n, st) in enumerate(zip(op_shape, op_strides)))


def iterator_strides(shape, operands, same_shape_setup: bool = True):
    """The element strides PyTorch's TensorIterator gives the output of an elementwise op on ``operands``
    ((shape, element strides) pairs, in argument order) broadcast to ``shape``; None for contiguous ones.

    Its fast setup first: operands of one shape that are all contiguous give a contiguous output, all
    channels-last ones (4-d) a channels-last output, all dense with equal strides their strides. Otherwise
    (``compute_strides``/``reorder_dimensions``) the dims are insertion-sorted innermost first by the operands'
    strides, the first operand that orders two dims deciding, and the output is dense in that order.
    ``same_shape_setup=False``: a number takes part (PyTorch's wrapped 0-d tensor), so no fast setup."""
    ndim = len(shape)
    if ndim < 2:
        return None
    if same_shape_setup and all(tuple(s) == tuple(shape) for s, _ in operands):
        if all(_is_contiguous(s, st) for s, st in operands):
            return None
        if ndim == 4 and all(is_contiguous_in(s, st, channels_last) for s, st in operands):
            return format_strides(shape, channels_last)
        first = tuple(operands[0][1])
        if all(tuple(st) == first for _, st in operands) and _non_overlapping_and_dense(shape, first):
            return None if _is_contiguous(shape, first) else first
    strides = [_broadcast_strides(shape, s, st) for s, st in operands]
    perm = _dims_innermost_first(ndim, lambda d0, d1: _operand_should_swap(shape, strides, d0, d1))
    if perm == list(range(ndim - 1, -1, -1)):
        return None
    out, acc = [0] * ndim, 1
    for d in perm:
        out[d] = acc
        acc *= shape[d]
    return tuple(out)


def _is_contiguous(shape, strides) -> bool:
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def laid_out_like_operands(res, *arrays):
    """``res``, the result of an elementwise op on the backend arrays ``arrays`` (NumPy scalars and 0-d arrays
    allowed), in the strides PyTorch's TensorIterator gives it (``iterator_strides``): a channels-last or permuted
    operand makes a result laid out as it, where NumPy would often give a C-contiguous one. A copy only then.

    NOTE: called on the elementwise hot path only when ``res`` has two dims or more; with every operand a
    C-contiguous array (NumPy's result is C-contiguous then) it returns ``res`` after one flag test per operand."""
    try:
        for a in arrays:
            if not _c_ordered(a):
                break
        else:
            return res
    except AttributeError:  # a Python number among the operands
        pass
    return _laid_out_general(res, arrays)


def _c_ordered(a) -> bool:
    """C-contiguous with C strides on its size-1 dims too. NOTE: NumPy's flag ignores a size-1 dim's stride, but
    TensorIterator sorts dims by it when shapes differ: ``y + b`` with ``y`` (2, 256, 1, 1) at strides (256, 1,
    256, 256) (an einsum's view) and ``b`` (1, 256, 1, 1) is laid out like ``y``, channels-last."""
    if not a.flags.c_contiguous:
        return False
    if 1 not in a.shape:
        return True
    expected = a.itemsize
    for size, stride in zip(reversed(a.shape), reversed(a.strides)):
        if stride != expected:
            return False
        expected *= size
    return True


def _laid_out_general(res, arrays):
    if getattr(res, "elem_strides", None) is not None:  # a meta array: its strides are its own business
        return res
    ops = [a for a in arrays if getattr(a, "ndim", 0)]
    if all(_c_ordered(a) for a in ops) or not res.size:
        return res if res.flags.c_contiguous else xp_of(res).ascontiguousarray(res)
    want = iterator_strides(res.shape, [(a.shape, [st // a.itemsize for st in a.strides]) for a in ops],
                            same_shape_setup=len(ops) == len(arrays))
    isz = res.itemsize
    if want is None:
        return res if res.flags.c_contiguous else xp_of(res).ascontiguousarray(res)
    if tuple(st // isz for st in res.strides) == want:
        return res
    out = empty_strided_array(xp_of(res), res.shape, want, res.dtype)
    out[...] = res
    return out


def copy_preserving(arr, dtype=None):
    """A copy of the backend array ``arr`` (cast to ``dtype``) with PyTorch's ``preserve_format`` strides."""
    isz = arr.itemsize
    strides = preserved_strides(arr.shape, [st // isz for st in arr.strides])
    out = empty_strided_array(xp_of(arr), arr.shape, strides, arr.dtype if dtype is None else dtype)
    out[...] = arr
    return out
