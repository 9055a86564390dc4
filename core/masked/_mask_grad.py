"""Where a MaskedTensor's gradient is specified: the mask half of its backward pass.

In torch a MaskedTensor's gradient is itself a MaskedTensor, and each backward op computes the gradient's mask:
elementwise ops pass it on, a reduction's backward spreads it over the reduced elements the input's mask keeps,
``where`` keeps it only on the branch it chose, and a shape op's backward moves it as it moves values (``select``
and indexing leave the other elements masked out). core runs the values' backward on the data tensors with its
ordinary autograd, and this module runs the masks' backward beside it: every MaskedTensor an op returns (while
its data requires grad) records ``(parent, rule)`` pairs, and :func:`propagate` walks them from the outputs to the
leaves, each ``rule`` mapping the result's gradient mask to the parent's share (shares from several uses of a
parent are or-ed).
"""

from __future__ import annotations

import core

__all__ = ["same", "reduced", "chosen", "to_shape", "moved", "propagate", "plain_leaves"]


def same(g):
    """Elementwise ops: the gradient mask passes unchanged."""
    return g


def to_shape(shape, rule=same):
    """``rule``, then or-ed down to ``shape`` over the dims broadcasting added (a broadcast operand's share)."""
    shape = tuple(shape)

    def share(g):
        g = rule(g)
        if tuple(g.shape) == shape:
            return g
        return g.to(core.float32).sum_to_size(shape) != 0

    return share


def reduced(mask, dim, keepdim: bool):
    """A reduction over ``dim`` (None: all): the result's gradient mask spread back over the kept elements."""
    ndim = mask.dim()
    dims = () if dim is None else sorted(d % max(ndim, 1) for d in ((dim,) if isinstance(dim, int) else dim))

    def share(g):
        if dim is not None and not keepdim:
            for d in dims:
                g = g.unsqueeze(d)
        return mask & g

    return share


def chosen(condition, take: bool, shape):
    """``where(condition, x, y)``: x's share is the gradient mask where ``condition`` holds, y's where it does not."""
    def pick(g):
        return core.where(condition, g, False) if take else core.where(condition, False, g)

    return to_shape(shape, pick)


def moved(fn, shape):
    """A linear shape op ``fn`` (view, transpose, select, indexing, expand...): its vector-Jacobian product carries
    the gradient mask back, as it carries values (an element nothing reached stays masked out)."""
    def share(g):
        with core.enable_grad():
            leaf = core.zeros(tuple(shape), requires_grad=True)
            (back,) = core.autograd.grad(fn(leaf), leaf, g.to(core.float32))
        return back != 0

    return share


def _topological(roots) -> list:
    """The MaskedTensors reachable from ``roots`` through recorded parents, each after every user of it."""
    order, seen = [], set()
    for root in roots:
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                order.append(node)
                continue
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.append((node, True))
            stack.extend((parent, False) for parent, _ in getattr(node, "_mask_parents", ()))  # a plain tensor: none
    return order[::-1]


def propagate(roots, stop_at=()) -> dict:
    """Gradient masks of the leaves (and of ``stop_at``) reached from ``roots``, a list of (MaskedTensor, gradient
    mask); returns ``{id(node): (node, mask)}``."""
    stops = {id(s) for s in stop_at}
    pending: dict = {}
    for root, g in roots:
        pending[id(root)] = g if id(root) not in pending else pending[id(root)] | g
    found: dict = {}
    for node in _topological([root for root, _ in roots]):
        g = pending.pop(id(node), None)
        if g is None:
            continue
        if id(node) in stops or not getattr(node, "_mask_parents", ()):
            found[id(node)] = (node, g)
            continue
        for parent, rule in node._mask_parents:
            share = rule(g)
            pending[id(parent)] = share if id(parent) not in pending else pending[id(parent)] | share
    return found


def plain_leaves(reached) -> list:
    """``(leaf, mask)`` of the plain leaf tensors that require grad among the ``(node, mask)`` pairs
    :func:`propagate` reached, and behind its plain non-leaf tensors: a leaf of the mask's shape that such a
    tensor's history reaches gets its mask (as torch's MaskedTensor gradient passes elementwise ops); masks of
    several paths to one leaf are or-ed."""
    found: dict = {}
    for node, g in reached:
        if not isinstance(node, core.Tensor):
            continue
        for leaf in [node] if node.is_leaf else _leaves_behind(node, tuple(g.shape)):
            if leaf.requires_grad:
                found[id(leaf)] = (leaf, g if id(leaf) not in found else found[id(leaf)][1] | g)
    return list(found.values())


def _leaves_behind(tensor, shape) -> list:
    leaves, seen, stack = [], set(), [tensor.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        variable = getattr(fn, "variable", None)  # an AccumulateGrad node: a leaf
        if variable is not None:
            if tuple(variable.shape) == shape:
                leaves.append(variable)
            continue
        stack.extend(f for f, _ in fn.next_functions)
    return leaves
