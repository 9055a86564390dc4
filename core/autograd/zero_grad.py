"""Clearing gradients, shared by ``Module.zero_grad`` and ``Optimizer.zero_grad`` (PyTorch's rules)."""

from __future__ import annotations

__all__ = ["zero_grads"]


def zero_grads(params, set_to_none: bool = True) -> None:
    """Drop each tensor's ``.grad`` (``set_to_none``) or zero it in place, detaching a grad that has history."""
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if g.grad_fn is not None:
            g = g.detach()
            p._grad = g
        if g.is_sparse:  # a sparse gradient keeps its layout with no entries, as torch's zero_() leaves it
            from core.autograd.sparse_grad import clear_sparse

            clear_sparse(g)
        g._data[...] = 0
        g._vc[0] += 1
