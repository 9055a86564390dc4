"""``einsum``: any equation (ellipsis, repeated indices / diagonals, implicit output, broadcasting).

The public function checks the equation the way PyTorch does, spells every ellipsis out as letters
and expands size-1 dims that broadcast, then one ``Einsum`` primitive computes the result as PyTorch's
aten lowers it (``_as_aten``: operands permuted to the output's labels then the contracted ones, contracted
left to right by permute / reshape / bmm), so the result has PyTorch's strides (``'bchw,co->bohw'`` is a
channels-last view of a bmm; dropout's mask and ``view`` follow them) and its sums. Recorded (grad mode, an
operand that requires grad), two or more operands are contracted by those same steps as core's tensor ops, so the
graph is PyTorch's (``ViewBackward0`` over ``PermuteBackward0`` over ``BmmBackward0``...) and the gradients are
bmm's products, with its bits. A single operand keeps the primitive, whose gradient is itself an einsum of the
output gradient (with identities for diagonals), so it is differentiable again.
"""

from __future__ import annotations

import functools
import math
import string

import numpy as np

from core import _torch_dispatch, _torch_function
from core._dtype import promote_types
from core._memory_format import copy_preserving
from core._tensor import Tensor
from core.autograd.function import Function, _capture_state
from core.autograd.grad_mode import is_grad_enabled, no_grad
from core.ops._linalg_checks import _TYPE_NAMES, _type_name
from core.ops._strided import strided_array
from core.ops._util import check_same_device, xp_of
from core.ops.complex_ops import conj_of
from core.ops.linalg import bmm
from core.ops.views import compute_view_strides, expand, reshape

__all__ = ["einsum"]

_LETTERS = string.ascii_uppercase + string.ascii_lowercase  # PyTorch orders labels A-Z then a-z


class Einsum(Function):
    node_name = "EinsumBackward0"

    @staticmethod
    def forward(ctx, *operands, inputs, output, raw, ellipsis):
        ctx.inputs, ctx.output = inputs, output
        ctx.save_for_backward(*operands)
        arrays = [t._data for t in operands]
        xp = xp_of(arrays[0])
        if _lowers(raw):
            return _as_aten(raw, inputs, output, ellipsis)
        eq = ",".join(inputs) + "->" + output
        out = xp.einsum(eq, *arrays, optimize=len(arrays) > 1)
        return xp.asarray(out, dtype=arrays[0].dtype)

    @staticmethod
    def backward(ctx, g):
        operands = ctx._unpacked
        return tuple(_operand_grad(ctx, g, operands, k) if need else None
                     for k, need in enumerate(ctx.needs_input_grad))


def _lowers(arrays):
    """Whether ``_as_aten`` computes the einsum of these arrays (NumPy ones, not empty; "V": bfloat16)."""
    return arrays[0].dtype.kind in "fcViu" and all(type(a) is np.ndarray and a.size for a in arrays)


# NOTE: PyTorch lowers einsum to permute / sum / mul / bmm, so its result's grad_fn is the last of those: one
# operand ends in a sum (a label left out) or a permute; two or more in a bmm's view when the last pair sums a
# label of the last operand, else in a mul. The same primitive under those four names prints PyTorch's grad_fn.
class _EinsumSum(Einsum):
    node_name = "SumBackward1"


class _EinsumPermute(Einsum):
    node_name = "PermuteBackward0"


class _EinsumView(Einsum):
    node_name = "ViewBackward0"


class _EinsumMul(Einsum):
    node_name = "MulBackward0"


def _as_torch_lowers(inputs, output):
    """The ``Einsum`` class whose node is named after the op PyTorch's einsum ends with for this equation."""
    if len(inputs) == 1:
        return _EinsumSum if set(inputs[0]) - set(output) else _EinsumPermute
    summed = set(inputs[-1]) - set(output)  # the last operand's labels the last pair sums (a bmm or dot, then a view)
    return _EinsumView if summed else _EinsumMul


def _as_aten(arrays, inputs, output, ellipsis):
    """The einsum of unbroadcast ``arrays`` as aten's ``einsum`` computes it: each operand's diagonals taken,
    missing labels unsqueezed and dims permuted to the output's labels then the contracted ones (the ellipsis's
    first, then A-Z, a-z); then contracted left to right, summing a label as soon as one operand is left that
    holds it, by ``_sumproduct_pair``. Returns the result's array, a view with PyTorch's strides.

    NOTE: the views (diagonal, unsqueeze, permute, view and reshape's view branch) are built on the arrays
    directly (``_ArraySteps``), with the strides core's view ops give; only the ops that compute (sum, mul, bmm,
    reshape's copy) go through core's tensors: a small einsum (einops' models call one per layer) costs about half
    of the dozen tensor ops it was. Under a dispatch or ``__torch_function__`` mode, or while core.compile
    captures, every step is core's tensor op (``_TensorSteps``), so the mode sees aten's ops as PyTorch's does."""
    watched = _torch_dispatch.live or _torch_function.mode_stack() or _capture_state.recorder is not None
    steps = _TensorSteps if watched else _ArraySteps
    with no_grad():
        out = steps.array(_contract(arrays, inputs, output, ellipsis, steps))
    if any(np.may_share_memory(out, a) for a in arrays):  # NOTE: PyTorch returns a view ('ij->ji'); core copies it
        return copy_preserving(out)  # (in its dim order), as the primitive's output has no view tracking
    return out


def _contract(operands, inputs, output, ellipsis, steps):
    """The steps of aten's einsum on ``operands`` (arrays for ``_ArraySteps``, tensors for ``_TensorSteps``)."""
    order, (dims, pairs) = _plan(tuple(inputs), output, ellipsis, tuple(tuple(t.shape) for t in operands))
    ops = [steps.operand(t, term, d, order) for t, term, d in zip(operands, inputs, dims)]
    for a_only, b_only, summed in pairs:
        a, b = ops.pop(0), ops.pop(0)
        a = steps.sum(a, a_only) if a_only else a
        b = steps.sum(b, b_only) if b_only else b
        ops.insert(0, _sumproduct_pair(a, b, list(summed), steps))
    out = ops[0]
    if len(order) > len(output):
        out = steps.view(out, out.shape[:len(output)]) if len(operands) > 1 else \
            steps.sum(out, range(len(output), len(order)), keepdim=False)
    return out


@functools.lru_cache(maxsize=512)
def _plan(inputs: tuple, output: str, ellipsis: str, shapes: tuple):
    """What ``_as_aten`` does for these labels and shapes (the same every call of a model's layer): the labels'
    order; per operand, per label of the order, the operand's dims holding it (several: a diagonal) or None (an
    unsqueezed dim); per contracted pair the dims summed in the left only, in the right only, and in both."""
    contracted = [c for c in ellipsis if c not in output]
    contracted += [c for c in _LETTERS if c in "".join(inputs) and c not in output and c not in contracted]
    order = list(output) + contracted
    counts, operands, sizes = [0] * len(order), [], []
    for term, shape in zip(inputs, shapes):
        where = {}
        for i, c in enumerate(term):
            where.setdefault(c, []).append(i)
        operands.append(tuple(tuple(where[c]) if c in where else None for c in order))
        sizes.append([shape[where[c][0]] if c in where else 1 for c in order])
        counts = [n + (k != 1) for n, k in zip(counts, sizes[-1])]
    pairs = []
    while len(sizes) > 1:
        a, b = sizes.pop(0), sizes.pop(0)
        summed, a_only, b_only = [], [], []
        for d in range(len(output), len(order)):
            if a[d] != 1 and b[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:
                    summed.append(d)
                    counts[d] = 0
            elif counts[d] == 1:
                if a[d] != 1:
                    a_only.append(d)
                    counts[d] = 0
                elif b[d] != 1:
                    b_only.append(d)
                    counts[d] = 0
        both = [1 if d in a_only else k for d, k in enumerate(a)]
        both = [k if k != 1 else (1 if d in b_only else j) for d, (k, j) in enumerate(zip(both, b))]
        sizes.insert(0, [1 if d in summed else k for d, k in enumerate(both)])
        pairs.append((tuple(a_only), tuple(b_only), tuple(summed)))
    return order, (tuple(operands), tuple(pairs))


class _ArraySteps:
    """``_as_aten``'s steps on NumPy arrays: views built with the strides core's view ops give them."""

    @staticmethod
    def operand(array, term, dims, order):
        """``array`` with one dim per label of the order: a label's dims (several for a diagonal: their strides
        add, as ``diagonal``'s) or an unsqueezed size-1 dim (stride 1, as ``unsqueeze`` at the end gives)."""
        if all(d is not None and len(d) == 1 for d in dims):  # a permutation: NumPy's view has these strides
            return array.transpose([d[0] for d in dims])
        strides = [st // array.itemsize for st in array.strides]
        return strided_array(array, [array.shape[d[0]] if d is not None else 1 for d in dims],
                             [sum(strides[i] for i in d) if d is not None else 1 for d in dims], 0)

    @staticmethod
    def view(array, shape):
        """``view(shape)``, where the strides allow it (core's ``View``: PyTorch's ``computeStride``)."""
        shape = tuple(shape)
        if array.shape == shape:
            return array
        if array.flags.c_contiguous and 1 not in shape:  # (NumPy's view then has computeStride's strides; not
            return array.reshape(shape)  # always for size-1 dims)
        strides = compute_view_strides(array.shape, [st // array.itemsize for st in array.strides], shape)
        return strided_array(array, shape, strides, 0)

    @staticmethod
    def reshape(array, shape):
        """``reshape(shape)``: the view where the strides allow one, else core's copy (``UnsafeView``)."""
        if array.flags.c_contiguous and 1 not in shape:
            return array.reshape(shape)
        strides = compute_view_strides(array.shape, [st // array.itemsize for st in array.strides], shape)
        if strides is not None:
            return strided_array(array, shape, strides, 0)
        return reshape(Tensor._wrap(array), shape)._data

    @staticmethod
    def permute(array, perm):
        return array.transpose(perm)

    @staticmethod
    def sum(array, dims, keepdim=True):
        return Tensor._wrap(array).sum(list(dims), keepdim=keepdim)._data

    @staticmethod
    def mul(left, right):
        return (Tensor._wrap(left) * Tensor._wrap(right))._data

    @staticmethod
    def bmm(left, right):
        return bmm(Tensor._wrap(left), Tensor._wrap(right))._data

    @staticmethod
    def array(array):
        return array


class _TensorSteps:
    """``_as_aten``'s steps as core's tensor ops (aten's ops, each seen by a dispatch mode)."""

    @staticmethod
    def operand(array, term, dims, order):
        op, where = array if isinstance(array, Tensor) else Tensor._wrap(array), {}
        for c in term:
            if c in where:  # a repeated label: its diagonal, in the first one's place
                op = op.diagonal(0, where[c], len(where)).movedim(-1, where[c])
            else:
                where[c] = len(where)
        for c in order:
            if c not in where:
                where[c] = op.ndim
                op = op.unsqueeze(op.ndim)
        return op.permute([where[c] for c in order])

    view = staticmethod(lambda t, shape: t.view(shape))
    reshape = staticmethod(lambda t, shape: t.reshape(shape))
    permute = staticmethod(lambda t, perm: t.permute(perm))
    sum = staticmethod(lambda t, dims, keepdim=True: t.sum(list(dims), keepdim=keepdim))
    mul = staticmethod(lambda left, right: left * right)
    bmm = staticmethod(bmm)
    array = staticmethod(lambda t: t._data)


def _sumproduct_pair(left, right, sum_dims, steps):
    """``(left * right).sum(sum_dims, keepdim=True)`` as aten's ``sumproduct_pair``: dims in both, in the left
    only, summed and in the right only permuted into place, flattened into one bmm, its result viewed back and
    permuted to the operands' order (so a permuted view of the bmm's output)."""
    if not sum_dims:
        return steps.mul(left, right)
    lro, lo, ro, sum_size = [], [], [], 1
    for i in range(left.ndim):
        in_left, in_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if in_left and in_right:
                sum_size *= left.shape[i]
            elif in_left:
                left = steps.sum(left, (i,))
            elif in_right:
                right = steps.sum(right, (i,))
        elif in_left and in_right:
            lro.append(i)
        elif in_left:
            lo.append(i)
        else:
            ro.append(i)
    if lo and ro and ro[-1] < lo[0]:  # NOTE: PyTorch 2.13 swaps the pair when all its right-only dims come first
        left, right, lo, ro = right, left, ro, lo
    size = lambda t, dims: math.prod(t.shape[d] for d in dims)  # noqa: E731
    out_size = [left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro]
    lperm, rperm = lro + lo + sum_dims + ro, lro + sum_dims + ro + lo
    operm = [0] * len(out_size)
    for i, d in enumerate(lro + lo + sum_dims + ro):
        operm[d] = i
    left = steps.reshape(steps.permute(left, lperm), (size(left, lro), size(left, lo), sum_size))
    right = steps.reshape(steps.permute(right, rperm), (size(right, lro), sum_size, size(right, ro)))
    return steps.permute(steps.view(steps.bmm(left, right), out_size), operm)


def _operand_grad(ctx, g, operands, k):
    """Einsum of ``g`` with the other operands; identities rebuild diagonals, ones re-broadcast sums."""
    inputs, output = ctx.inputs, ctx.output
    like = operands[k]._data
    xp = xp_of(like)
    used = set("".join(inputs) + output)
    fresh = (c for c in _LETTERS if c not in used)
    subs, terms, tensors = [], [output], [g]
    for j, s in enumerate(inputs):
        if j != k:
            terms.append(s)
            tensors.append(conj_of(operands[j]))  # NOTE: the other factors conjugated (Wirtinger), as in mul
    seen = set()
    for c, size in zip(inputs[k], like.shape):
        if c in seen:  # a diagonal: a fresh label tied to the first by an identity matrix
            f = next(fresh)
            subs.append(f)
            terms.append(c + f)
            tensors.append(Tensor._wrap(xp.eye(size, dtype=like.dtype)))
            continue
        seen.add(c)
        subs.append(c)
        if c not in "".join(terms):  # summed away inside this operand alone: broadcast back
            terms.append(c)
            tensors.append(Tensor._wrap(xp.ones(size, dtype=like.dtype)))
    return einsum(",".join(terms) + "->" + "".join(subs), *tensors)


def _from_sublists(args):
    """``einsum(a, [0, 1], b, [1, 2], [0, 2])`` as an equation and operands."""
    def letters(sub):
        return "".join("..." if s is Ellipsis else _LETTERS[s] for s in sub)

    pairs, out = (args, None) if len(args) % 2 == 0 else (args[:-1], args[-1])
    equation = ",".join(letters(sub) for sub in pairs[1::2])
    return (equation if out is None else equation + "->" + letters(out)), tuple(pairs[0::2])


def _split(equation: str, n: int):
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    inputs = lhs.split(",")
    if len(inputs) > n:
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(inputs) < n:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    pos = 0
    for k, term in enumerate(inputs + ([out] if arrow else [])):
        for i, c in enumerate(term):
            if c not in _LETTERS and c != ".":
                raise RuntimeError(f"einsum(): invalid subscript given at index {pos + i} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
        if term.count(".") != 3 * term.count("...") or term.count("...") > 1:
            where = f"operand {k}" if k < len(inputs) else "the output"
            raise RuntimeError(f"einsum(): found '.' for {where} for which an ellipsis was already found"
                               if term.count("...") else f"einsum(): found '.' for {where} that is not part of "
                               "any ellipsis")
        pos += len(term) + (2 if k == len(inputs) - 1 else 1)  # ',' between inputs, '->' before the output
    return inputs, (out if arrow else None)


@functools.lru_cache(maxsize=512)
def _parsed(equation: str, ndims: tuple):
    """``equation`` for operands of ``ndims`` dims, checked and spelled out: (inputs, output, the ellipsis's
    letters). Cached: a model's layer calls the same einsum every step (a bad one raises, and is not cached)."""
    inputs, out = _split(equation, len(ndims))
    inputs, out, ellipsis = _spell_out(inputs, out, ndims)
    return tuple(inputs), out, ellipsis


def _spell_out(inputs, out, ndims):
    """Replace every ``...`` by letters, right-aligned; return explicit inputs, output and the ellipsis's letters."""
    explicit = [s.replace("...", "") for s in inputs]
    ell = 0
    for i, (s, e, nd) in enumerate(zip(inputs, explicit, ndims)):
        if "..." in s:
            if len(e) > nd:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(e)}) is more than the "
                                   f"number of dimensions ({nd}) for operand {i}")
            ell = max(ell, nd - len(e))
        elif len(s) != nd:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                               f"number of dimensions ({nd}) for operand {i} and no ellipsis was given")
    used = set("".join(explicit) + (out or ""))
    ell_letters = "".join([c for c in _LETTERS if c not in used][:ell])
    spelled = [s.replace("...", ell_letters[ell - (nd - len(e)):] if nd > len(e) else "")
               for s, e, nd in zip(inputs, explicit, ndims)]
    if out is None:
        counts = "".join(explicit)
        out = ell_letters + "".join(sorted(c for c in set(counts) if counts.count(c) == 1))
    else:
        out = out.replace("...", ell_letters)
    for c in out:
        if out.count(c) > 1:
            raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
        if c not in "".join(spelled):
            raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input operand")
    return spelled, out, ell_letters


def _broadcast(inputs, operands):
    """Sizes per label (size 1 broadcasts, like PyTorch) and operands expanded to them."""
    sizes = {}
    for i, (s, t) in enumerate(zip(inputs, operands)):
        mine = {}
        for c, n in zip(s, t.shape):
            if c in mine and mine[c] != n:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} but the sizes don't match, "
                                   f"{n} != {mine[c]}")
            mine[c] = n
            seen = sizes.get(c, 1)
            if n != 1 and seen != 1 and n != seen:
                raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {i} which does not broadcast "
                                   f"with previously seen size {seen}")
            if n != 1 or c not in sizes:
                sizes[c] = n
    out = []
    for s, t in zip(inputs, operands):
        want = tuple(sizes[c] for c in s)
        out.append(t if want == tuple(t.shape) else expand(t, want))
    return out


def _pairwise_dtype(inputs, out, operands):
    """The dtype of operands that differ in dtype, as PyTorch's pairwise contraction (left to right) gives it: a
    pair that sums a label of size > 1 on both sides goes through ``bmm``, which refuses two dtypes; any other pair
    is an elementwise ``mul``, which promotes (S4's ``einsum('h n, b h -> b h n', complex, real)``)."""
    contracted = set("".join(inputs)) - set(out)
    wide = [{c for c, n in zip(s, t.shape) if n != 1} for s, t in zip(inputs, operands)]
    counts = {c: sum(c in w for w in wide) for c in contracted}
    left, dtype, name = wide[0], operands[0].dtype, _type_name(operands[0])
    for right, t in zip(wide[1:], operands[1:]):
        summed, gone = False, set()
        for c in contracted:
            if c in left and c in right:
                counts[c] -= 1
                if counts[c] == 1:
                    summed, counts[c] = True, 0
                    gone.add(c)
            elif counts[c] == 1 and (c in left or c in right):
                counts[c] = 0
                gone.add(c)
        if summed and t.dtype != dtype:
            raise RuntimeError(f"expected scalar type {name} but found {_type_name(t)}")
        if t.dtype != dtype:
            dtype = promote_types(dtype, t.dtype)
            name = _TYPE_NAMES[dtype.name]
        left = (left | right) - gone
    return dtype


_NO_EQUATION = object()  # (einsum() with nothing: torch's ValueError, not Python's TypeError)


def einsum(equation=_NO_EQUATION, *operands):
    """The einsum of ``operands``, which may come as one list (the old interface) or interleaved with their
    subscript lists. Like torch's Python ``einsum``, the call is handed to ``__torch_function__`` only once
    normalised, as ``einsum(equation, *operands)``: an ``fx`` graph traced through opt_einsum's torch backend (which
    passes the operands as a tuple) has einsum nodes with the operands as arguments, which opt_einsum_fx reads."""
    tf = _torch_function
    if equation is _NO_EQUATION:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    if not isinstance(equation, str):
        if not isinstance(equation, Tensor) and (tf._modes_entered or tf._overloading((equation, *operands))):
            return tf.dispatch(einsum, None, (equation, *operands), {}, python_level=True)  # (a Proxy: no Tensor)
        equation, operands = _from_sublists((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if tf._modes_entered or any(type(t) not in tf._plain_types and tf._overloading(t) for t in operands):
        return tf.dispatch(einsum, _einsum, (equation, *operands), {}, python_level=True)
    return _einsum(equation, *operands)


einsum.dispatches = True  # (it hands itself to __torch_function__ once its arguments are normalised)


def _einsum(equation, *operands):
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    for t in operands:
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, not {type(t).__name__}")
    check_same_device(*operands)
    inputs, out, ellipsis = _parsed(equation, tuple(t.ndim for t in operands))
    if any(t.dtype != operands[0].dtype for t in operands):
        result = _pairwise_dtype(inputs, out, operands)
        operands = tuple(t if t.dtype == result else t.to(result) for t in operands)
    raw = tuple(t._data for t in operands)
    if len(operands) > 1 and is_grad_enabled() and any(t.requires_grad for t in operands) and _lowers(raw):
        # NOTE: recorded, the contraction is aten's ops themselves (PyTorch's graph: a bmm under views and
        # permutes, or a mul), so the gradients are bmm's products with PyTorch's bits and nodes
        return _contract(operands, inputs, out, ellipsis, _TensorSteps)
    operands = _broadcast(inputs, operands)
    return _as_torch_lowers(inputs, out).apply(*operands, inputs=inputs, output=out, raw=raw, ellipsis=ellipsis)
