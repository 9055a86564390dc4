"""``torch._higher_order_ops.associative_scan``: the inclusive prefix "sum" of ``xs`` along ``dim`` under an
associative ``combine_fn``. ``combine_mode="generic"`` computes it as PyTorch's does, by the same recursive
odd-even halving with ``combine_fn`` vmapped over the pairs (so float results round as PyTorch's); the default
``"pointwise"`` mode needs CUDA or XPU tensors in PyTorch and is refused here with its error."""

from __future__ import annotations

from core.utils._pytree import tree_flatten, tree_unflatten

__all__ = ["associative_scan"]


def associative_scan(combine_fn, xs, dim: int, reverse: bool = False, combine_mode: str = "pointwise"):
    """``xs`` (a tensor or pytree of same-shaped tensors) scanned along ``dim``."""
    import core

    leaves, spec = tree_flatten(xs)
    _check(combine_fn, leaves, dim, reverse, combine_mode)
    leaves = [x.movedim(dim, 0) for x in leaves]
    if reverse:
        leaves = [x.flip([0]) for x in leaves]
    pairs = core.vmap(combine_fn, in_dims=(tree_unflatten([0] * len(leaves), spec),) * 2, out_dims=0)
    out = _scan(lambda *halves: tree_flatten(pairs(tree_unflatten(list(halves[:len(leaves)]), spec),
                                                   tree_unflatten(list(halves[len(leaves):]), spec)))[0], leaves)
    if reverse:
        out = [x.flip([0]) for x in out]
    return tree_unflatten([x.movedim(0, dim) for x in out], spec)


def _check(combine_fn, leaves, dim, reverse, combine_mode) -> None:
    """PyTorch's argument checks, in its order (the dim is checked against the first leaf first)."""
    import core

    if leaves and isinstance(leaves[0], core.Tensor):
        leaves[0].size(dim)  # (an out-of-range dim: torch's IndexError)
    if not callable(combine_fn):
        raise ValueError(f"Combine_fn must be a callable, but got {combine_fn}")
    if not isinstance(dim, int):
        raise ValueError("Dim must be an int, but got " + str(type(dim)))
    if not isinstance(reverse, bool):
        raise RuntimeError("Reverse must be a bool, but got " + str(type(reverse)))
    if combine_mode not in ("pointwise", "generic"):
        raise ValueError(f"Combine_mode must either 'pointwise' or 'generic', but got {combine_mode}")
    if combine_mode == "pointwise":
        raise ValueError("For combine_mode='pointwise', all input tensors need to be on CUDA or XPU")
    if not leaves:
        raise ValueError("Expected at least 1 xs leaf")
    if any(not isinstance(x, core.Tensor) for x in leaves):
        raise ValueError("xs leaves must be a Tensor")
    if any(x.ndim <= dim or x.shape[dim] == 0 for x in leaves):
        raise ValueError("All xs leaves must at least have 'dim' number of dimensions and scan dimension > 0")


def _scan(combine, elems: list) -> list:
    """The scan of ``elems`` (leaves, scanned along dim 0): combine neighbours, scan those, then fill in the rest."""
    import core

    n = elems[0].shape[0]
    if n < 2:
        return elems
    odd = _scan(combine, combine(*[e[0:-1:2] if n % 2 == 0 else e[0:n - 1:2] for e in elems],
                                 *[e[1::2] for e in elems]))
    if n % 2 == 0:
        even = combine(*[o[:-1] for o in odd], *[e[2::2] for e in elems])
    else:
        even = combine(*odd, *[e[2::2] for e in elems])
    even = [core.cat([e[:1], r]) if r.numel() > 0 else e[:1] for e, r in zip(elems, even)]
    return [_interleave(a, b) for a, b in zip(even, odd)]


def _interleave(a, b):
    """``a[0], b[0], a[1], b[1], ...`` along dim 0 (``a`` one longer than ``b``, or as long)."""
    import core

    if a.shape[0] > b.shape[0]:
        b = core.cat([b, b[:1]])  # (padding: cut off below)
        out = core.stack([a, b], dim=1).flatten(0, 1)
        return out[:-1]
    return core.stack([a, b], dim=1).flatten(0, 1)
