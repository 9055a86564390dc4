"""``torch._higher_order_ops.scan``: ``scan(combine_fn, init, xs, *, dim=0, reverse=False)`` runs ``carry, y =
combine_fn(carry, x)`` over the slices of ``xs`` along ``dim`` and returns the last carry and the ``y``s stacked along
``dim`` (in the order of ``xs``, also when ``reverse`` scans from the end), as PyTorch's operator computes eagerly (it
compiles ``combine_fn`` first; core runs it as Python, step by step, so autograd sees every step)."""

from __future__ import annotations

from core.utils._pytree import tree_flatten, tree_unflatten

__all__ = ["scan"]


def scan(combine_fn, init, xs, *, dim: int = 0, reverse: bool = False):
    """``(final carry, stacked outputs)``; ``init``, ``xs`` and the outputs may be pytrees of tensors."""
    import core

    if not callable(combine_fn):
        raise RuntimeError(f"Combine_fn must be a callable, but got {combine_fn}")
    leaves, spec = tree_flatten(xs)
    if not leaves:
        raise RuntimeError("Scanned xs must have at least one leaf")
    leaves = [x.movedim(dim, 0) for x in leaves]
    steps = range(leaves[0].shape[0])
    carry, ys = init, []
    for i in reversed(steps) if reverse else steps:
        carry, y = combine_fn(carry, tree_unflatten([x[i] for x in leaves], spec))
        ys.append(y)
    if reverse:
        ys.reverse()
    flat = [tree_flatten(y)[0] for y in ys]
    stacked = [core.stack(list(column)).movedim(0, dim) for column in zip(*flat)]
    return carry, tree_unflatten(stacked, tree_flatten(ys[0])[1]) if ys else ys
