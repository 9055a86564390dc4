"""Graph recording: ``Function`` (a differentiable primitive) and ``Node`` (a ``grad_fn``).

A primitive is a ``Function`` subclass with ``forward(ctx, *args)`` and ``backward(ctx, *grads)``
side by side. ``forward`` may return backend arrays (internal primitives) or tensors (custom
Functions); ``backward`` receives and returns tensors and is written with differentiable ``core``
ops, so ``create_graph=True`` gives a graph that can be differentiated again.

Each ``Function`` has a ``Node`` subclass named like PyTorch's (``MulBackward0``); an instance
of it is both the ``ctx`` of ``forward`` and the ``grad_fn`` of the outputs.
"""

from __future__ import annotations

import itertools
import traceback
import weakref

from core.autograd import grad_mode
from core.autograd.hooks import RemovableHandle

__all__ = ["Function", "Node", "AccumulateGrad", "once_differentiable"]

_sequence = itertools.count()
_FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
          "after they have already been freed). Saved intermediate values of the graph are freed "
          "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
          "backward through the graph a second time or if you need to access saved tensors after "
          "calling backward.")


class Node:
    """A node of the backward graph. ``next_functions`` are its edges towards the inputs."""

    __slots__ = ("_edges", "_in_meta", "_out_meta", "_saved", "_released", "_seq", "_pre_hooks",
                 "_post_hooks", "_tensor_hooks", "_retained", "_dirty", "_non_diff",
                 "_materialize", "_trace", "needs_input_grad", "__dict__", "__weakref__")

    def __init__(self):
        self._edges = ()
        self._in_meta = ()
        self._out_meta = ()
        self._saved = None
        self._released = False
        self._seq = next(_sequence)
        self._pre_hooks = None
        self._post_hooks = None
        self._tensor_hooks = None
        self._retained = None
        self._dirty = ()
        self._non_diff = ()
        self._materialize = True
        self._trace = None
        self.needs_input_grad = ()

    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"<{type(self).__name__} object at {hex(id(self))}>"

    @property
    def next_functions(self) -> tuple:
        return tuple((e[0], e[1]) if e is not None else (None, 0) for e in self._edges)

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
    def saved_tensors(self) -> tuple:
        if self._released:
            raise RuntimeError(_FREED)
        saved = self._saved
        if saved is None:
            return ()
        if type(saved) is tuple:  # not yet packed: we are still inside forward
            return saved
        return tuple(_unpack(self, entry) for entry in saved)

    def mark_dirty(self, *tensors) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *tensors) -> None:
        self._non_diff = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize = bool(value)

    def _release(self) -> None:
        if self._saved is not None:
            self._saved = None
            self._released = True
        elif type(self) is not AccumulateGrad:
            self._released = True

    def _run_backward(self, grads):
        return type(self)._forward_cls.backward(self, *grads)


def _unpack(node: Node, entry):
    """Rebuild a saved tensor; check that no in-place op changed it since it was saved."""
    tensor, version, output_nr = entry
    if tensor is None:
        return None
    if tensor._vc[0] != version:
        raise RuntimeError(
            "one of the variables needed for gradient computation has been modified by an inplace "
            f"operation: [{tensor.type()} {list(tensor.shape)}], which is output {output_nr if output_nr >= 0 else 0} "
            f"of {node.name()}, is at version {tensor._vc[0]}; expected version {version} instead. "
            "Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True).")
    if output_nr >= 0:  # an output of this node: re-attach it without a reference cycle
        out = tensor._alias(tensor._data, base=False)
        out._base = tensor._base
        out.grad_fn = node
        out._requires_grad = True
        out._output_nr = output_nr
        return out
    return tensor


class AccumulateGrad(Node):
    """The sink of a leaf tensor: adds incoming gradients into ``variable.grad``."""

    __slots__ = ("_variable",)

    def __init__(self, variable):
        super().__init__()
        self._variable = weakref.ref(variable)
        self._seq = float("inf")

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


class _FunctionMeta(type):
    """Gives every Function subclass its Node class, named like PyTorch's grad_fn."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        node_name = ns.get("node_name") or f"{name}Backward"
        cls._backward_cls = type(node_name, (Node,), {"_forward_cls": cls, "__slots__": ()})


class Function(metaclass=_FunctionMeta):
    """A differentiable operation; subclass it and call ``apply``.

    ``forward(ctx, *args)`` runs without recording a graph; ``backward(ctx, *grad_outputs)``
    returns one gradient (or None) per positional argument of ``forward``.
    """

    node_name = None

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        return _apply(cls, args, kwargs)


def _apply(cls, args, kwargs):
    Tensor = _tensor_cls()
    needs = False
    if grad_mode.is_grad_enabled():
        for a in args:
            if isinstance(a, Tensor) and a._requires_grad:
                needs = True
                break
    ctx = cls._backward_cls()
    prev = grad_mode.is_grad_enabled()
    grad_mode._set(False)
    try:
        raw = cls.forward(ctx, *args, **kwargs)
    finally:
        grad_mode._set(prev)
    single = not isinstance(raw, tuple)
    outs = (raw,) if single else raw
    outs = tuple(o if (o is None or isinstance(o, Tensor)) else Tensor._wrap(o) for o in outs)
    for t in ctx._dirty:
        t._vc[0] += 1
    if needs:
        _record(ctx, args, outs, Tensor)
    elif ctx._saved is not None:
        ctx._saved = None
    return outs[0] if single else outs


def _record(ctx: Node, args, outs, Tensor) -> None:
    """Wire ``ctx`` into the graph: edges to the inputs, grad_fn of the outputs, saved tensors."""
    from core.autograd import anomaly  # noqa: PLC0415 - rarely used

    edges, meta, needs = [], [], []
    for a in args:
        if isinstance(a, Tensor) and a._requires_grad:
            fn = a.grad_fn
            if fn is None:
                edges.append((accumulate_node(a), 0))
            else:
                edges.append((fn, a._output_nr))
            meta.append((a._data.shape, a._data.dtype))
            needs.append(True)
        else:
            edges.append(None)
            meta.append(None)
            needs.append(False)
    ctx._edges = tuple(edges)
    ctx._in_meta = tuple(meta)
    ctx.needs_input_grad = tuple(needs)
    non_diff = ctx._non_diff
    out_meta = []
    for i, o in enumerate(outs):
        if o is None:
            out_meta.append(None)
            continue
        out_meta.append((o._data.shape, o._data.dtype, o.device))
        if o._data.dtype.kind != "f" or any(o is n for n in non_diff):
            continue
        if any(o is d for d in ctx._dirty):
            _rebase_inplace(o, ctx, i)
        else:
            o.grad_fn = ctx
            o._requires_grad = True
            o._output_nr = i
    ctx._out_meta = tuple(out_meta)
    if ctx._saved is not None:
        ctx._saved = [_pack(s, outs) for s in ctx._saved]
    if anomaly.is_anomaly_enabled():
        ctx._trace = "".join(traceback.format_stack()[:-3])


def _pack(t, outs):
    if t is None:
        return (None, 0, -1)
    for i, o in enumerate(outs):
        if o is t:
            return (t, t._vc[0], i)
    return (t, t._vc[0], -1)


def _rebase_inplace(t, ctx: Node, output_nr: int) -> None:
    """An in-place op on ``t``: ``t``'s history continues through ``ctx``."""
    if t.grad_fn is None and t._requires_grad and ctx._edges and any(
            e is not None and e[0] is t._accum for e in ctx._edges):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    from core.autograd.inplace import rebase_history  # noqa: PLC0415 - view handling lives there

    rebase_history(t, ctx, output_nr)


def once_differentiable(fn):
    """Mark a custom backward as not double-differentiable (runs it under no_grad)."""
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            return fn(ctx, *args)
    wrapper.__name__ = fn.__name__
    return wrapper


_TENSOR = None


def _tensor_cls():
    global _TENSOR
    if _TENSOR is None:
        from core._tensor import Tensor  # noqa: PLC0415 - Tensor imports autograd first

        _TENSOR = Tensor
    return _TENSOR
