"""Gradient accumulation into leaves: how a gradient reaching an ``AccumulateGrad`` becomes (or adds to) ``.grad``.

Apart from the engine's walk (``core.autograd.engine``) because this is its own subject: the first ``.grad`` copied
as the leaf is laid out or adopted (``grad_adopt``), later ones added in place (out of place under create_graph,
as PyTorch's ``clone_obey_contract``), ``grad_dtype``, sparse and dispatch-subclass gradients, inference mode.
``engine`` re-exports ``_accumulate`` and ``_accumulate_leaf`` (``engine_tree`` and ``node_call`` call them).
"""

from __future__ import annotations

from core import _torch_dispatch
from core._memory_format import _non_overlapping_and_dense
from core.autograd import function as _function
from core.autograd import grad_adopt as _grad_adopt
from core.autograd import grad_mode
from core.autograd.function import _tensor_cls
from core.autograd.grad_adopt import adopted
from core.autograd.grad_dtype import cast_incoming
from core.autograd.grad_layout import grad_copy, is_grad_layout_enforcement_enabled
from core.autograd.inference import mark
from core.autograd.shortcuts import state as _shortcuts

_object_new = object.__new__
_ndarray = _function._ndarray


def _dispatch_accumulated(g, leaf):
    from core._aten_derivatives import accumulated

    return accumulated(g, leaf)


def _dispatch_add_(grad, g):
    from core._aten_ops import aten

    aten.add_.Tensor(grad, g)


def _new_tensor(arr):
    """A fresh tensor owning ``arr`` (what ``core._tensor.new_tensor`` does, without importing it)."""
    t = _object_new(_function._TENSOR or _tensor_cls())
    t._data = arr
    t._root = arr
    t._vc = [0]
    return t


def _instance_dict(t) -> dict:
    """``t``'s instance dictionary, where core keeps a tensor's fields (``t.__dict__`` is a property that shows only
    the attributes a user set, ~1 µs a test: every leaf's accumulation asks for ``_grad_dtype``).

    NOTE: replaces itself on its first call by the dictionary slot's own getter (the tensor layer imports this
    module, so it is looked up then), ~0.1 µs a call."""
    global _instance_dict
    from core._tensor import _INSTANCE_DICT

    _instance_dict = _INSTANCE_DICT.__get__
    return _instance_dict(t)


def _accumulate_leaf(node, grads_in, create_graph, direct: bool = False):
    """A hook-free AccumulateGrad's work in a plain run: its gradient into the leaf's ``.grad``; the leaf, or None
    when it is gone. ``direct``: a run without steps, where nothing outside the engine sees ``grads_in`` (the
    input buffer's list, the gradient's one reference above ``_accumulate``: see grad_adopt)."""
    leaf = node._variable()
    if leaf is not None and grads_in is not None and grads_in[0] is not None:
        _accumulate(leaf, grads_in[0], create_graph, 1 if direct else 0)
    return leaf


def _accumulate(leaf, g, create_graph, held: int = 0):
    """Add a gradient into a leaf's ``.grad`` (out of place with create_graph, else in place, as PyTorch's).

    ``held``: the references to ``g`` the calling frames hold, where the caller counted them (the engine's hot
    paths): a first ``.grad`` then takes ``g``'s array itself when nothing else can reach it (``grad_adopt``).

    NOTE: the hot path first: a leaf's first ``.grad`` from a small dense gradient (a plain Tensor over a NumPy
    array: not sparse, not a dispatch subclass) outside create_graph, dispatch modes and inference mode, with no
    ``grad_dtype`` given, is what the general route below makes of it (a copy laid out as the leaf, never adopted
    under ``ADOPT_MIN``), without its other checks (~0.3 µs of each leaf's ~1.5)."""
    if leaf._grad is None and type(g) is _function._TENSOR and not create_graph and not _torch_dispatch.live \
            and _shortcuts.ok:
        # (no local for the array: the general route's adoption counts its references)
        if type(g._data) is _ndarray and g._data.size < _grad_adopt.ADOPT_MIN \
                and "_grad_dtype" not in _instance_dict(leaf):
            leaf._grad = _new_tensor(grad_copy(g._data, leaf._data))
            return None
    if g.is_sparse:  # nn.Embedding(sparse=True)'s weight gradient
        from core.autograd.sparse_grad import accumulate_sparse

        return accumulate_sparse(leaf, g)
    if g.is_sparse_csr and leaf._grad is None:  # torch.sparse.mm's masked gradient of a CSR leaf: kept CSR
        leaf._grad = g if create_graph else g.detach()
        return None
    if "_grad_dtype" in _instance_dict(leaf):  # a leaf given a grad_dtype: its gradient in that dtype
        g = cast_incoming(leaf, g)
        held = 0  # (the references the caller counted were to the gradient before the cast)
    if leaf._grad is None:
        if _torch_dispatch.live and not create_graph:  # a TorchDispatchMode sees torch's detach (or copy)
            g, held = _dispatch_accumulated(g, leaf), 0
            if type(g) is not _function._TENSOR and _torch_dispatch.is_dispatch_type(type(g)):
                leaf._grad = g  # a wrapper subclass's gradient: its values are behind the wrapper, not in _data
                return None
        if create_graph:
            leaf._grad = _graph_copy(leaf, g)
        else:
            variable = leaf._data
            # NOTE: a small gradient (a bias; every gradient of a small model) is copied without asking ``adopted``,
            # which declines it (no local holds the array here: ``adopted`` counts its references)
            small = type(g._data) is _ndarray and g._data.size < _grad_adopt.ADOPT_MIN
            arr = None if small else adopted(g, held, variable)
            leaf._grad = _new_tensor(grad_copy(g._data, variable) if arr is None else arr)
        if not _shortcuts.ok and not create_graph:  # perhaps inference mode (it blocks the shortcuts), where the
            mark(leaf._grad)  # new .grad is an inference tensor, as PyTorch's
    elif _torch_dispatch.live and not create_graph and _torch_dispatch.is_dispatch_type(type(leaf._grad)):
        _dispatch_add_(leaf._grad, g)  # a wrapper subclass's .grad: torch's in-place add_, through its handler
    elif create_graph:
        leaf._grad = leaf._grad + g
    # NOTE: outside create_graph a ``.grad`` that itself requires grad (made by an earlier create_graph backward) is
    # added to in place too, as PyTorch's AccumulateGrad does whenever grad mode is off: a reference to it taken
    # before (``g = x.grad; g.backward()``, the second derivative of a scalar) sees the sum, its grad_fn kept
    else:
        leaf._grad._data += g._data
        leaf._grad._vc[0] += 1


def _graph_copy(leaf, g):
    """A new ``.grad`` under create_graph, as PyTorch's ``clone_obey_contract``: the gradient copied into a tensor
    laid out as the leaf (``copy_``, so its grad_fn is ``CopyBackwards``), never the incoming gradient itself.

    NOTE: the incoming gradient may be a view (a bias's gradient, summed over the batch and reshaped), and a
    library's ``p.grad.detach_()`` (Adahessian) must not meet a view there."""
    if g.layout is not leaf.layout or g.is_nested:
        return g
    from core import empty_strided  # (core imports this module)

    with grad_mode.enable_grad():
        dense = _non_overlapping_and_dense(tuple(leaf.shape), tuple(leaf.stride()))
        if not dense or not is_grad_layout_enforcement_enabled():
            return g.clone()
        return empty_strided(tuple(leaf.shape), tuple(leaf.stride()), dtype=leaf.dtype, device=leaf.device).copy_(g)
