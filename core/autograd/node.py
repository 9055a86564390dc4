"""The backward graph's node classes: ``Node`` (every ``grad_fn``, also the ``ctx`` of a Function's forward) and
``AccumulateGrad`` (the sink of a leaf).

Apart from ``Function`` (``core.autograd.function``), which records into them, because a reader who asks what a
``grad_fn`` is (its name, edges, hooks, saved tensors, release) looks here; how ``Function.apply`` fills one in is
there. ``function`` re-exports these names (``core.autograd.graph.Node`` is this ``Node``).
"""

from __future__ import annotations

import weakref

from core.autograd.hooks import RemovableHandle
from core.autograd.node_api import NodeApi
from core.autograd.node_call import call_accumulate_grad
from core.autograd.saved_tensors import _FREED, _unpack

# PyTorch's hand-written C++ nodes (not generated from derivatives.yaml): their name() is the demangled C++ class
# name, torch::autograd::AccumulateGrad, while their type prints as <class 'AccumulateGrad'>
_CPP_NODES = frozenset(("AccumulateGrad", "CopySlices", "CopyBackwards", "NotImplemented", "DelayedError", "Error",
                        "GraphRoot", "UndefinedGrad", "UndefinedGradBackward", "Identity"))


class Node(NodeApi):
    """A node of the backward graph. ``next_functions`` are its edges towards the inputs.

    Every field defaults at class level and is stored on the instance only when set, so making
    the ``ctx`` of an op that records nothing costs one allocation.
    """

    __module__ = "core.autograd.graph"  # PyTorch's (torch.autograd.graph.Node; its subclasses keep their own)

    _edges = ()
    _in_meta = ()
    _out_meta = ()
    _saved = None
    _released = False
    _seq = 0
    _pre_hooks = None
    _post_hooks = None
    _tensor_hooks = None
    _retained = None
    _dirty = ()
    _non_diff = ()
    _forward_saved = None  # ``save_for_forward``'s tensors, for jvp
    _materialize = True
    _trace = None
    _checked_grads = False  # its backward's gradients always match its edges (a replayed plan's node: see _Compiled)
    _edgeless = ()  # inputs PyTorch's node has no edge for (its Function's ``edgeless_inputs``)
    _repr_module = ""  # a custom Function's node: "core.autograd.function.", as PyTorch shows its Python class
    needs_input_grad = ()
    _raw_names_kept = False  # a class with ``_raw_saved_*`` names remembers, when freed, which entries were tensors
    _freed_tensors = ()

    def name(self) -> str:
        name = type(self).__name__
        return f"torch::autograd::{name}" if name in _CPP_NODES else name

    def __repr__(self) -> str:
        return f"<{self._repr_module}{type(self).__name__} object at {hex(id(self))}>"

    @property
    def next_functions(self) -> tuple:
        edges = self._edges
        if self._edgeless:
            edges = shown_per_input(self, edges)
        return tuple((e[0], e[1]) if e is not None else (None, 0) for e in edges)

    @property
    def metadata(self) -> dict:
        return self.__dict__.setdefault("_metadata", {})

    @property
    def is_released(self) -> bool:
        """True once a backward without ``retain_graph`` freed the saved tensors."""
        return self._released

    def register_hook(self, fn) -> RemovableHandle:
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = {}
        return RemovableHandle(self._post_hooks, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        return RemovableHandle(self._pre_hooks, fn)

    # ----- the ctx API of custom Functions ------------------------------------------------------
    def save_for_backward(self, *tensors) -> None:
        self._saved = tensors

    @property
    def _unpacked(self) -> tuple:
        """What the node saved, unpacked: the tensors core's built-in backwards read (``ctx._unpacked``) and a custom
        Function's ``ctx.saved_tensors`` answers; a tensor that an in-place op changed since it was saved raises
        PyTorch's "modified by an inplace operation" error, a freed node PyTorch's "backward through the graph a
        second time".

        NOTE: private, so that a built-in node has no ``saved_tensors`` (PyTorch's C++ nodes have none; torchviz's
        ``make_dot`` asks ``hasattr``): only a custom Function's node (``node_call.BackwardCFunction``) answers it."""
        if self._released:
            raise RuntimeError(_FREED)
        saved = self._saved
        if saved is None:
            return ()
        if type(saved) is tuple:  # not yet packed: we are still inside forward
            return saved
        out = []
        for entry in saved:
            t = entry[0]
            if t is None or entry[2] < 0 and t._vc[0] == entry[1]:
                out.append(t)  # the common case of _unpack: an unmodified input
            else:
                out.append(_unpack(self, entry))
        return tuple(out)

    def save_for_forward(self, *tensors) -> None:
        """Tensors for the Function's ``jvp``, where ``ctx.saved_tensors`` answers them (``forward_ad.DualContext``),
        as PyTorch's ``ctx.save_for_forward``."""
        self._forward_saved = tensors

    def mark_dirty(self, *tensors) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_diff = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize = bool(value)

    def _release(self) -> None:
        saved = self._saved
        if saved is not None:
            if type(saved) is not tuple and self._raw_names_kept:  # which entries were tensors (``_raw_saved_*``)
                self._freed_tensors = tuple([e[0] is not None for e in saved])
            self._saved = None
            self._released = True

    def _run_backward(self, grads):
        return type(self)._forward_cls.backward(self, *grads)


def shown_per_input(node: Node, items) -> tuple:
    """``items`` (one per input of ``node``) without the inputs PyTorch's node has no edge for: a loss's target,
    a mask, a number (``edgeless_inputs``), when nothing flows to them (an input that requires grad stays)."""
    hidden = node._edgeless
    return tuple(item for i, (item, edge) in enumerate(zip(items, node._edges)) if edge is not None or i not in hidden)


class AccumulateGrad(Node):
    """The sink of a leaf tensor: adds incoming gradients into ``variable.grad``."""

    __module__ = "builtins"  # PyTorch's C++ class prints as <class 'AccumulateGrad'>

    _seq = float("inf")

    def __init__(self, variable):
        self._variable = weakref.ref(variable)

    __call__ = call_accumulate_grad

    @property
    def variable(self):
        return self._variable()


def accumulate_node(t) -> AccumulateGrad:
    """The (cached) AccumulateGrad node of a leaf that requires grad."""
    node = t._accum
    if node is None:
        node = AccumulateGrad(t)
        t._accum = node
    return node
