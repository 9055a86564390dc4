"""Autograd through vmap's batched path: the physical tensors carry the graph and samples never mix, so a backward
pass over the physical outputs gives each sample its gradient.

``grads`` runs ``core.func``'s transforms inside ``vmap`` on the physical tensors of the top level;
``broadcast_entered`` gives an unbatched argument of ``grad`` a per-sample copy; ``batched_vjp`` is PyTorch's
batched backward (only the grad_outputs batched); ``make_dual``/``unpack_dual`` are jacfwd's duals of batched
tensors; ``refuse`` keeps batched tensors away from code that would read their placeholder storage.
"""

from __future__ import annotations

import core
from core import _vmap_level
from core._vmap_level import Unbatchable, _active, _ndim, _wrap, is_batched


def broadcast_entered(leaf):
    """A transform's input ``leaf`` (unbatched at the innermost batched vmap) broadcast over its batch, so that
    its gradient is per sample."""
    top = _active.levels[-1]
    return _wrap(leaf.unsqueeze(0).expand((top.size, *leaf.shape)), top.level)


def any_batched(*groups) -> bool:
    return _vmap_level._class is not None and any(is_batched(t) for g in groups if g is not None for t in g)


def refuse(*values) -> None:
    """Raise Unbatchable where a batched tensor reaches code that would read its placeholder storage (the engine
    called directly, forward-mode duals): only the loop gives such code real tensors."""
    if _vmap_level._class is None:
        return
    for v in values:
        if is_batched(v) or isinstance(v, (tuple, list)) and any(is_batched(t) for t in v):
            raise Unbatchable("autograd on a batched tensor outside core.func")


def batched_vjp(batched_grad, outputs, inputs, grad_outputs, **kwargs):
    """``vmap`` over ``autograd.grad(outputs, inputs, v)`` where only ``v`` is batched (plain outputs and inputs, one
    level): PyTorch's batched backward, one vector-Jacobian product per sample. ``batched_grad`` (the engine's
    ``is_grads_batched`` path) runs them on the physical grad_outputs, an unbatched one expanded, keeping the graph
    until the last sample, so ``retain_graph=False`` frees it once as PyTorch's single backward does (the loop would
    call ``grad`` per sample and find the graph freed at the second). None where the case is not this one."""
    if _vmap_level._class is None or grad_outputs is None:
        return None
    if any(is_batched(t) for t in (*outputs, *inputs)):
        return None
    levels = {g._level for g in grad_outputs if is_batched(g)}
    if len(levels) != 1:
        return None
    level = levels.pop()
    size = next(g._phys.shape[0] for g in grad_outputs if is_batched(g))
    phys = [g if g is None else g._phys if is_batched(g) else g.expand(size, *g.shape) for g in grad_outputs]
    found = batched_grad(outputs, inputs, phys, **kwargs)
    return tuple(None if g is None else _wrap(g, level) for g in found)


def grads(engine_grad, outputs, inputs, grad_outputs, **kwargs):
    """``engine_grad(outputs, inputs, grad_outputs, **kwargs)`` on the physical tensors of the top level among
    them, the results batched again: samples never mix, so the physical backward gives per-sample gradients."""
    level = max(t._level for g in (outputs, inputs, grad_outputs or ()) for t in g if is_batched(t))
    grad_outputs = [None] * len(outputs) if grad_outputs is None else list(grad_outputs)
    phys_outs, phys_gouts = [], []
    for o, g in zip(outputs, grad_outputs):
        if not is_batched(o, level):
            raise Unbatchable("an unbatched output under a batched backward")
        if g is None:
            if _ndim(o, level) != 0:
                raise Unbatchable("implicit grad of a non-scalar")
            g = core.ones_like(o._phys)
        else:
            g = g._phys if is_batched(g, level) else g.expand(o._phys.shape)
        phys_outs.append(o._phys)
        phys_gouts.append(g)
    if not all(is_batched(x, level) for x in inputs):
        raise Unbatchable("an unbatched input under a batched backward")
    found = engine_grad(phys_outs, [x._phys for x in inputs], phys_gouts, **kwargs)
    return [None if g is None else _wrap(g, level) for g in found]


def make_dual(leaf, directions):
    """jacfwd's dual of a batched ``leaf``: its physical tensor carries the basis ``directions`` (``(n,
    *leaf.shape)``) for every sample, the batch dim behind the directions' dim as forward mode's batch wants."""
    from core.autograd import forward_ad

    p = leaf._phys
    tangents = directions.unsqueeze(1).expand((directions.shape[0], p.shape[0], *directions.shape[1:]))
    return _wrap(forward_ad._make_batched_dual(p, tangents), leaf._level)


def unpack_dual(out):
    """``(primal, tangent)`` of a batched output of jacfwd's function, both batched (the tangent ``(n, *shape)``)."""
    from core.autograd import forward_ad

    unpacked = forward_ad.unpack_dual(out._phys)
    tangent = unpacked.tangent
    return forward_ad.UnpackedDualTensor(_wrap(unpacked.primal, out._level),
                                         None if tangent is None else _wrap(tangent.movedim(1, 0), out._level))
