"""``einsum``: any equation (ellipsis, repeated indices / diagonals, implicit output, broadcasting).

The public function checks the equation the way PyTorch does, spells every ellipsis out as letters
and expands size-1 dims that broadcast, then one ``Einsum`` primitive calls ``xp.einsum`` (BLAS-backed
through ``optimize``). The gradient of each operand is itself an einsum of the output gradient with
the other operands, so it is differentiable again.
"""

from __future__ import annotations

import string

from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import check_same_device, xp_of
from core.ops.complex_ops import conj_of
from core.ops.linalg import _type_name
from core.ops.views import expand

__all__ = ["einsum"]

_LETTERS = string.ascii_uppercase + string.ascii_lowercase  # PyTorch orders labels A-Z then a-z


class Einsum(Function):
    node_name = "EinsumBackward0"

    @staticmethod
    def forward(ctx, *operands, inputs, output):
        ctx.inputs, ctx.output = inputs, output
        ctx.save_for_backward(*operands)
        arrays = [t._data for t in operands]
        xp = xp_of(arrays[0])
        eq = ",".join(inputs) + "->" + output
        out = xp.einsum(eq, *arrays, optimize=len(arrays) > 1)
        return xp.asarray(out, dtype=arrays[0].dtype)

    @staticmethod
    def backward(ctx, g):
        operands = ctx.saved_tensors
        return tuple(_operand_grad(ctx, g, operands, k) if need else None
                     for k, need in enumerate(ctx.needs_input_grad))


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


def _spell_out(inputs, out, operands):
    """Replace every ``...`` by letters, right-aligned; return explicit inputs and output."""
    explicit = [s.replace("...", "") for s in inputs]
    ell = 0
    for i, (s, e, t) in enumerate(zip(inputs, explicit, operands)):
        if "..." in s:
            if len(e) > t.ndim:
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(e)}) is more than the "
                                   f"number of dimensions ({t.ndim}) for operand {i}")
            ell = max(ell, t.ndim - len(e))
        elif len(s) != t.ndim:
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(s)}) does not match the "
                               f"number of dimensions ({t.ndim}) for operand {i} and no ellipsis was given")
    used = set("".join(explicit) + (out or ""))
    ell_letters = "".join([c for c in _LETTERS if c not in used][:ell])
    spelled = [s.replace("...", ell_letters[ell - (t.ndim - len(e)):] if t.ndim > len(e) else "")
               for s, e, t in zip(inputs, explicit, operands)]
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
    return spelled, out


def _broadcast(inputs, operands):
    """Sizes per label (size 1 broadcasts, like PyTorch) and operands expanded to them."""
    sizes = {}
    for i, (s, t) in enumerate(zip(inputs, operands)):
        mine = {}
        for c, n in zip(s, t.shape):
            if c in mine and mine[c] != n:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {i} but the sizes don't match, "
                                   f"{mine[c]} != {n}")
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


def einsum(equation, *operands):
    if not isinstance(equation, str):
        equation, operands = _from_sublists((equation,) + operands)
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least one "
                         "operand and its subscripts list")
    for t in operands:
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, not {type(t).__name__}")
        if t._data.dtype != operands[0]._data.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(operands[0])} but found {_type_name(t)}")
    check_same_device(*operands)
    inputs, out = _split(equation, len(operands))
    inputs, out = _spell_out(inputs, out, operands)
    operands = _broadcast(inputs, operands)
    return _as_torch_lowers(inputs, out).apply(*operands, inputs=tuple(inputs), output=out)
