"""Batched tangents for forward-mode AD: ``jacfwd`` pushes all its basis directions through one call.

PyTorch's ``jacfwd`` is ``vmap`` over ``jvp``: the function runs once and every op's tangent rule runs on a
batch of tangents. Core batches the tangents in forward mode itself: inside a level entered with
``batch=n`` (``forward_ad.enter_dual_level``), each tangent has a leading dimension of ``n`` directions and
``forward_ad.apply_dual`` hands a primitive's rule to ``run`` here, which

- calls an elementwise rule once on the whole batch (its arithmetic broadcasts: a tangent of shape
  ``(n, *input.shape)`` is padded with size-1 dims to the output's rank first, so it broadcasts as its input did);
- calls a matrix product's rule as a batched ``matmul`` (``Mm``, ``Mv``), and a sum's, mean's, softmax's or
  log-softmax's with its dims moved past the batch dim in front;
- and calls any other rule once per direction and stacks the results (correct for every rule, but no faster
  than the op itself per direction: the function still runs once).

Every direction's tangent is computed with the same operations as an unbatched rule would use, so values and the
signs of zeros are those of ``jvp`` one direction at a time.
"""

from __future__ import annotations

__all__ = ["pad", "per_direction", "run"]

_ELEMENTWISE = frozenset({"Add", "Sub", "Mul", "Div", "MulByNumber", "PowScalar", "PowScalarBase", "Pow", "Clamp",
                          "Neg", "Where"})


def pad(tangent, ndim: int):
    """A batched tangent ``(n, *shape)`` with size-1 dims after the batch dim up to ``1 + ndim`` dims."""
    missing = 1 + ndim - tangent.dim()
    if missing <= 0:
        return tangent
    return tangent.reshape((tangent.shape[0],) + (1,) * missing + tuple(tangent.shape[1:]))


def _elementwise(cls) -> bool:
    from core.ops.math_unary import _Unary  # ops import the autograd layer

    return issubclass(cls, _Unary) or cls.__name__ in _ELEMENTWISE


def _out_ndim(ctx) -> int:
    out = ctx.output
    return max((o.dim() for o in out if o is not None), default=0) if type(out) is tuple else out.dim()


def run(cls, rule, ctx, tangents, n: int):
    """The batched tangent(s) of ``cls``'s output(s) from the inputs' batched tangents (None: no tangent)."""
    if _elementwise(cls):
        ndim = _out_ndim(ctx)
        return rule(ctx, *(None if t is None else pad(t, ndim) for t in tangents))
    name = cls.__name__
    if name in ("Mm", "Mv") and len(tangents) == 2:
        return _product(ctx, *tangents)
    ndim = ctx.inputs[0].dim() if ctx.inputs and hasattr(ctx.inputs[0], "dim") else 0
    if name in ("Softmax", "LogSoftmax") and ndim:
        return rule(_shifted(ctx, "dim", ctx.kw["dim"] % ndim + 1), *tangents)
    if name in _REDUCTIONS and ndim:
        from core.ops import reduction  # ops import the autograd layer

        dims = tuple(d + 1 for d in ctx.kw["dims"] if d < ndim)
        return getattr(reduction, _REDUCTIONS[name]).apply(tangents[0], **{**ctx.kw, "dims": dims})
    return per_direction(lambda *ts: rule(ctx, *ts), tangents, n)


_REDUCTIONS = {"Sum": "SumDim", "SumDim": "SumDim", "Mean": "MeanDim", "MeanDim": "MeanDim"}


def _shifted(ctx, key: str, value):
    """``ctx`` with keyword ``key`` (a dim) moved past the batch dim in front."""
    from core.autograd.forward_ad import DualContext

    return DualContext(ctx.inputs, {**ctx.kw, key: value}, ctx.output, ctx.node)


def _product(ctx, ta, tb):
    """``ta @ b + a @ tb`` over the batch: a matrix product's rule (``Mm``: matrices, ``Mv``: matrix-vector)."""
    from core.autograd.forward_ad import total
    from core.ops.linalg import matmul  # ops import the autograd layer

    a, b = ctx.inputs
    left = None if ta is None else matmul(ta, b)
    if tb is None:
        return left
    right = matmul(a, tb) if b.dim() == 2 else matmul(tb, a.mT)  # (n, k) vectors: (n, k) @ (k, m)
    return total(left, right)


def per_direction(rule, tangents, n: int):
    """``rule`` run once per direction (the ``i``-th slice of each batched tangent) and the results stacked."""
    from core.ops.joining import stack  # ops import the autograd layer

    results = [rule(*(None if t is None else t[i] for t in tangents)) for i in range(n)]
    first = results[0]
    if type(first) is tuple:
        return tuple(None if first[k] is None else stack([r[k] for r in results]) for k in range(len(first)))
    return None if first is None else stack(results)
