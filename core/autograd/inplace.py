"""History rewriting for in-place ops on non-leaf tensors and on views (PyTorch's rebasing).

``y.relu_()`` makes ``y``'s ``grad_fn`` the in-place node. A write through a view ``v`` of a base
``b`` gives ``b`` a ``CopySlices`` node: its backward passes the gradient through unchanged
outside the view's region and through the in-place op inside it; ``v`` then becomes a view of
the new ``b``.
"""

from __future__ import annotations

import weakref

from core._dtype import from_numpy_dtype
from core._factories import empty_strided, zeros_like
from core.autograd.function import Function, Node, _sequence, accumulate_node
from core.autograd.view_meta import refuse as refuse_view_write
from core.ops.inplace import copy_
from core.ops.views import as_strided, clone

__all__ = ["rebase_history", "CopySlices"]


def _like_base(ctx, grad, zero: bool):
    """A tensor laid out like the base (same strides), holding ``grad`` or zeros.

    NOTE: view geometries are offsets into the base's storage, so the buffer they index must
    have the base's strides, not the gradient's (which may be transposed or contiguous).
    """
    shape, strides, dt = ctx.base_layout
    out = empty_strided(shape, strides, dtype=from_numpy_dtype(dt), device=grad.device)
    if zero:
        out._data[...] = 0
        return out
    return copy_(out, grad)


class CopySlices(Function):
    """Backward of an in-place op written through a view: outside the view the gradient passes
    unchanged; inside, it goes through the in-place op's own backward."""

    node_name = "CopySlices"

    @staticmethod
    def backward(ctx, grad):
        inner: Node = ctx.inner
        size, stride, offset = ctx.geometry
        result = _like_base(ctx, grad, zero=False)
        region = as_strided(result, size, stride, offset)
        res = inner._run_backward([clone(region)])
        if not isinstance(res, tuple):
            res = (res,)
        self_grad = res[0] if res else None
        copy_(region, zeros_like(region) if self_grad is None else self_grad)
        return (result,) + tuple(res[1:])


def _release_copy_slices(node) -> None:
    node.inner._release()
    Node._release(node)


CopySlices._backward_cls._release = _release_copy_slices


class AsStridedView(Function):
    node_name = "AsStridedBackward0"

    @staticmethod
    def backward(ctx, grad):
        size, stride, offset = ctx.geometry
        out = _like_base(ctx, grad, zero=True)
        copy_(as_strided(out, size, stride, offset), grad)
        return (out,)


def _edge_of(t):
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t._requires_grad:
        return (accumulate_node(t), 0)
    return None


def _move_retain(t, node, nr):
    if t._retains_grad:
        old = t._grad_fn
        if old is not None and old._retained:
            old._retained.pop(t._output_nr, None)
        if node._retained is None:
            node._retained = {}
        node._retained[nr] = weakref.ref(t)


def rebase_history(t, ctx: Node, output_nr: int) -> None:
    """Make ``ctx`` the producer of ``t`` after an in-place op (views rewrite their base too).

    The root base's ``_history`` stamp is bumped, so every other view of it regenerates its
    ``grad_fn`` on next access (see ``regenerate_view_grad_fn``), as PyTorch does.
    """
    base = t._base
    if base is None:
        t._history += 1
        _move_retain(t, ctx, output_nr)
        t.grad_fn = ctx
        t._requires_grad = True
        t._output_nr = output_nr
        return
    if t._creation is not None:  # a multi-output or no-grad view: its base's history can't be rewritten
        refuse_view_write(t)
    if base.grad_fn is None and base._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    node = CopySlices._backward_cls()
    node.inner = ctx
    node.geometry = _geometry(t, base)
    node.base_layout = (tuple(base.shape), base.stride(), base._data.dtype)
    node._seq = next(_sequence)
    node._edges = (_edge_of(base),) + tuple(ctx._edges[1:])
    node._in_meta = ((base._data.shape, base._data.dtype),) + tuple(ctx._in_meta[1:])
    node._out_meta = ((base._data.shape, base._data.dtype, base.device),)
    node.needs_input_grad = (node._edges[0] is not None,) + tuple(ctx.needs_input_grad[1:])
    _move_retain(base, node, 0)
    base._history += 1
    base.grad_fn = node
    base._requires_grad = True
    base._output_nr = 0
    _attach_view(t, base)
    outer = t._view_of  # the views it was taken of (``zeros(4, 4)[:, :3]`` then written a column at a time):
    while outer is not None:  # PyTorch's view requires grad once its base does, its grad_fn an AsStridedBackward0
        if outer._grad_fn is None and outer._creation is None:
            _attach_view(outer, base)
        outer = outer._view_of


def _geometry(t, base) -> tuple:
    """``t``'s size, strides and offset into a buffer laid out like ``base``."""
    return tuple(t.shape), t.stride(), t.storage_offset() - base.storage_offset()


def _attach_view(t, base) -> Node:
    """Give the view ``t`` a fresh ``AsStridedBackward0`` node on its base's current history."""
    view = AsStridedView._backward_cls()
    view.geometry = _geometry(t, base)
    view.base_layout = (tuple(base.shape), base.stride(), base._data.dtype)
    view._edges = (_edge_of(base),)
    view._seq = next(_sequence)
    view._in_meta = ((base._data.shape, base._data.dtype),)
    view._out_meta = ((t._data.shape, t._data.dtype, t.device),)
    view.needs_input_grad = (True,)
    _move_retain(t, view, 0)
    t.grad_fn = view
    t._requires_grad = True
    t._output_nr = 0
    return view


def regenerate_view_grad_fn(t):
    """The ``grad_fn`` of view ``t`` after its base's history or its version changed (None if it records none)."""
    base = t._base
    if t._creation is not None and (t._grad_fn is not None or base._requires_grad):
        refuse_view_write(t, indirect=True)  # written (or its base, or a sibling) since: its grad_fn can't be rebuilt
    t._view_stamp = base._history  # (not before a refusal: every later use is refused too, as in PyTorch)
    t._view_version = t._vc[0]
    if t._grad_fn is None and not base._requires_grad:
        return None
    return _attach_view(t, base)
