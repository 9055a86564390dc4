"""``torch._higher_order_ops.map``: ``map(f, xs, *args)`` applies ``f`` to each slice of ``xs`` along its first dim
(``xs`` a tensor or a pytree of tensors of one leading size) and stacks the results, as PyTorch's operator computes
eagerly (it compiles ``f`` first; core runs it as Python, slice by slice)."""

from __future__ import annotations

import builtins

from core.utils._pytree import tree_flatten, tree_unflatten

__all__ = ["map"]


def map(f, xs, *args):
    """``stack([f(xs[i], *args) for i in range(len(xs))])``, slice and stack done leaf by leaf of the pytrees."""
    import core

    leaves, spec = tree_flatten(xs)
    if not leaves or not builtins.all(isinstance(x, core.Tensor) for x in leaves):
        raise RuntimeError("Mapped xs can only consist of tensors")
    sizes = {x.shape[0] if x.dim() else None for x in leaves}
    if len(sizes) != 1 or None in sizes:
        raise RuntimeError("Leaves of xs must have same leading dimension size")
    outs = [f(tree_unflatten([x[i] for x in leaves], spec), *args) for i in range(sizes.pop())]
    flat = [tree_flatten(o)[0] for o in outs]
    return tree_unflatten([core.stack(list(column)) for column in zip(*flat)], tree_flatten(outs[0])[1])
