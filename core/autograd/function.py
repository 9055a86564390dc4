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
import threading
import traceback
import warnings

import numpy as np

from core._device import CPU
from core.autograd import anomaly as _anomaly
from core.autograd import forward_ad as _forward_ad
from core.autograd import grad_mode
from core.autograd import saved_hooks as _saved_hooks
from core.autograd.inference import SAVED as _INFERENCE_SAVED
from core.autograd.inference import InferenceCounter as _InferenceCounter
from core.autograd.node import AccumulateGrad, Node, accumulate_node, shown_per_input  # noqa: F401 - re-exported
from core.autograd.node_api import RawDerived, RawSaved, SavedFromCtx
from core.autograd.node_call import BackwardCFunction, CallableNode, FunctionCtx
from core.autograd.saved_tensors import _FREED, _modified_message, _SavedByName, _unpack  # noqa: F401 - re-exported
from core.autograd.shortcuts import state as _shortcuts

__all__ = ["Function", "Node", "AccumulateGrad", "once_differentiable", "FunctionCtx"]

_sequence = itertools.count()


def _no_setup_context(ctx, inputs, output):
    raise NotImplementedError("setup_context is not implemented.")


def _forward_with_ctx(cls):
    """What ``Function.apply`` calls as ``(ctx, *args)``: ``forward`` itself, or for a class that overrides
    ``setup_context`` (PyTorch 2's style, ``forward(*args)`` without ctx) forward, then
    ``setup_context(ctx, inputs, output)``."""
    forward, setup = cls.forward, getattr(cls, "setup_context", _no_setup_context)
    if setup is _no_setup_context:
        run = forward
    else:
        def run(ctx, *args, **kwargs):
            output = forward(*args, **kwargs)
            setup(ctx, args, output)
            return output

    if cls.__module__.startswith("core."):  # core's own ops are never refused under vmap
        return run

    def checked(ctx, *args, **kwargs):
        from core import _vmap_batched
        from core._random import vmap_state  # (core._random imports the tensor module, which imports this one)

        if _vmap_batched.any_batched(args, kwargs.values()):  # a user's Function runs in vmap's loop, per sample
            raise _vmap_batched.Unbatchable(cls.__name__)
        forward, setup = cls.forward, getattr(cls, "setup_context", _no_setup_context)  # looked up now, as torch's
        if vmap_state.depth:  # apply does: a test may patch them (GPyTorch's patch.object(F, "forward", wraps=...))
            _refuse_under_vmap(cls, setup is _no_setup_context)
        if setup is _no_setup_context:
            return forward(ctx, *args, **kwargs)
        output = forward(*args, **kwargs)
        setup(ctx, args, output)
        return output

    return checked


def _refuse_under_vmap(cls, old_style: bool) -> None:
    """PyTorch's errors for a user's Function applied inside ``vmap`` that can't be: one whose forward takes ctx, and
    one with neither a ``vmap`` staticmethod nor ``generate_vmap_rule = True``.

    NOTE: a user's Function sends core's vmap to its loop, which runs the function once per sample, so a Function
    that has a vmap rule runs its forward on each sample (the rule itself is never called); PyTorch calls the rule
    once on the batch."""
    url = "https://pytorch.org/docs/main/notes/extending.func.html"
    if old_style:
        raise RuntimeError("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
                           f"...), it must override the setup_context staticmethod. For more details, please see {url}")
    if not cls.generate_vmap_rule and cls.vmap is Function.vmap:
        raise RuntimeError(f"You tried to vmap over {cls.__name__}, but it does not have vmap support. Please override "
                           "and implement the vmap staticmethod or set generate_vmap_rule=True. For more details, "
                           f"please see {url}")


class _FunctionMeta(type):
    """Gives every Function subclass its Node class, named like PyTorch's grad_fn, and the forward that
    ``apply`` calls with the ctx (``_core_forward``: not ``_forward``, a name Functions use for their own helpers)."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        node_name = ns.get("node_name") or f"{name}Backward"
        if cls.__module__.startswith("core."):  # a built-in node: callable, a class without a module (C++'s)
            cls._backward_cls = type(node_name, (CallableNode, Node), {"_forward_cls": cls, "__module__": "builtins"})
        else:  # a user's Function: its node repr names its module; node.apply(grad) runs its backward
            cls._backward_cls = type(node_name, (BackwardCFunction, Node), {"_forward_cls": cls})
            cls._backward_cls._repr_module = f"{__name__}."
        cls._backward_cls._edgeless = tuple(getattr(cls, "edgeless_inputs", ()))
        kept = {}  # saved ints and sizes read from the ctx (SavedFromCtx), a subclass's None removing one
        for klass in reversed(cls.__mro__):
            kept.update((k, v) for k, v in vars(klass).items() if k.startswith("_saved_")
                        and (v is None or isinstance(v, SavedFromCtx)))
        for key, value in kept.items():
            if value is not None:
                setattr(cls._backward_cls, key, value)
                if value.tensor:  # (a tensor PyTorch saves: its SavedVariable handle too)
                    setattr(cls._backward_cls, "_raw" + key, RawDerived(key))
        names = getattr(cls, "saved_names", ())
        for name in dict.fromkeys(names):
            if name:  # (an unused slot is "")
                setattr(cls._backward_cls, f"_saved_{name}", _SavedByName(names.index(name), name))
                if name not in getattr(cls, "saved_numbers", ()):  # (PyTorch's Scalar: no SavedVariable handle)
                    setattr(cls._backward_cls, f"_raw_saved_{name}", RawSaved(names.index(name)))
                cls._backward_cls._raw_names_kept = True
        if cls.__module__ != __name__ or name not in ("_SingleLevelFunction", "Function"):
            cls._core_forward = staticmethod(_forward_with_ctx(cls))  # (the base classes are never applied)


class _SingleLevelFunction(metaclass=_FunctionMeta):
    """What every Function has (PyTorch's ``_SingleLevelFunction``): ``forward``, ``backward``, ``setup_context``,
    the tangent rule and our node names. ``Function`` below holds only what PyTorch's own class does, so its
    ``__dict__`` lists the same names (a FastCampus lesson prints it)."""

    node_name = None
    jvp = None  # the tangent rule of forward-mode AD, ``jvp(ctx: DualContext, *tangents)``; None: not supported
    edgeless_inputs: tuple = ()  # positions of inputs PyTorch's node lists no edge for (a target, a mask, a number)

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    setup_context = staticmethod(_no_setup_context)  # overridden: forward takes no ctx (PyTorch 2's style)


def _apply(cls, *args, **kwargs):
    """``Function.apply``: run ``forward`` with grad mode off; record a node when grad mode is on and
    an input needs it.

    NOTE: the per-op hot path: one pass over the inputs, module-level aliases, no generators. Forward-mode
    AD and ``core.compile``'s capture cost it one check while neither is active: both block the ops' shortcuts
    (``core.autograd.shortcuts``) while they are, so with the shortcuts open no dual level, forward AD's ctx list
    or recorder is set.
    """
    rare = not _shortcuts.ok
    if rare and _dual_state.token is not None and _forward_ad.has_dual(args):
        return _forward_ad.apply_dual(cls, args, kwargs)
    Tensor = _TENSOR or _tensor_cls()
    state = _grad_state
    ctx = _new_object(cls._backward_cls)
    if rare and _dual_state.keep is not None:  # forward-mode AD runs this op: its jvp gets this ctx, as in PyTorch
        _dual_state.keep.append(ctx)
    recorder = _capture_state.recorder if rare else None
    if recorder is not None:  # core.compile is capturing a step (core.autograd.capture)
        recorder.enter(ctx, args, kwargs)
    flags = None
    recording = state.enabled
    if recording:
        for a in args:
            if isinstance(a, Tensor) and a._requires_grad:  # an input needs grad: flag them all
                flags = ctx.needs_input_grad = _input_flags(args, Tensor)
                break
        state.enabled = False
        try:
            raw = cls._core_forward(ctx, *args, **kwargs) if kwargs else cls._core_forward(ctx, *args)
        finally:
            state.enabled = True
    else:
        raw = cls._core_forward(ctx, *args, **kwargs) if kwargs else cls._core_forward(ctx, *args)
    if type(raw) is not _ndarray and isinstance(raw, _generic):  # a 0-d ufunc's NumPy scalar: a 0-d array
        raw = _np.asarray(raw)
    multi = type(raw) is tuple
    fresh = False  # True when the output is a tensor made here, so it can't be one of the inputs
    if multi:
        outs = tuple([_as_output(o, Tensor) for o in raw])
    elif type(raw) is _ndarray and raw.size:  # the common case: one fresh array from an internal primitive
        out = _new_object(Tensor)
        out._data = raw
        out._root = raw
        out._vc = [0]
        outs = (out,)
        fresh = True
    else:
        outs = (_as_output(raw, Tensor),)
    if recording and not fresh:  # views made in forward (grad mode off there) are views made with it on
        _regrade_views(outs, args, Tensor)
    dirty = ctx._dirty
    early = None
    if dirty:
        if flags is not None:
            early = _read_views(args, flags, dirty)
        for t in dirty:
            t._vc[0] += 1
    if flags is not None:
        if not dirty and not fresh and _returns_an_input(outs, args):
            outs = tuple([o._alias(o._data) if isinstance(o, Tensor) and any(o is a for a in args) else o
                          for o in outs])
        _record(ctx, args, flags, outs, early)
    elif ctx._saved is not None:
        ctx._saved = None
    if recorder is not None:
        recorder.leave(cls, ctx, args, kwargs, outs)
    return outs if multi else outs[0]


_apply.__name__, _apply.__qualname__ = "apply", "Function.apply"  # prints as torch's bound method


def apply_pair(cls, a, b):
    """``cls.apply(a, b)`` for two tensors when grad mode is on and one of them requires grad: a binary operator's
    route (``Tensor.__add__``/``__mul__``, ``core.ops._fastpath.binary_operator``).

    NOTE: the per-op hot path: ``_apply`` and ``_record`` unrolled for two CPU tensors that are not views, whose
    op returns one fresh array and marks nothing dirty or non-differentiable (Add, Mul): the same ctx, edges,
    metadata, sequence number, saved versions and output, without the argument tuples' loops (``x * w`` with
    grad ~25% less). Views (their grad_fn may need regenerating), other devices, empty operands, forward-mode
    AD and ``core.compile``'s recorder (while the shortcuts are blocked) take ``_apply``; anomaly mode and
    saved-tensor hooks are honoured here.
    """
    x = a._data
    y = b._data
    if type(x) is not _ndarray or type(y) is not _ndarray or a._base is not None or b._base is not None \
            or not (x.size and y.size) or not _shortcuts.ok:
        return _apply(cls, a, b)
    Tensor = _TENSOR or _tensor_cls()
    ctx = _new_object(cls._backward_cls)
    flags = ctx.needs_input_grad = (a._requires_grad, b._requires_grad)
    state = _grad_state
    state.enabled = False
    try:
        raw = cls._core_forward(ctx, a, b)
    finally:
        state.enabled = True
    if type(raw) is not _ndarray and isinstance(raw, _generic):  # a 0-d ufunc's NumPy scalar: a 0-d array
        raw = _np.asarray(raw)
    if type(raw) is not _ndarray or raw.dtype.kind not in "fVc" or ctx._dirty or ctx._non_diff:
        outs = (_as_output(raw, Tensor),)  # (not an op this route is for: _apply's general tail)
        _regrade_views(outs, (a, b), Tensor)
        _record(ctx, (a, b), flags, outs)
        return outs[0]
    out = _new_object(Tensor)  # (both operands have elements, so the broadcast result has some)
    out._data = out._root = raw
    out._vc = [0]
    if flags[0]:
        fn = a._grad_fn
        if fn is None:
            acc = a._accum
            edge_a = (acc if acc is not None else accumulate_node(a), 0)
        else:
            edge_a = (fn, a._output_nr)
        meta_a = (x.shape, x.dtype)
    else:
        edge_a = meta_a = None
    if flags[1]:
        fn = b._grad_fn
        if fn is None:
            acc = b._accum
            edge_b = (acc if acc is not None else accumulate_node(b), 0)
        else:
            edge_b = (fn, b._output_nr)
        meta_b = (y.shape, y.dtype)
    else:
        edge_b = meta_b = None
    ctx._edges = (edge_a, edge_b)
    ctx._in_meta = (meta_a, meta_b)
    ctx._seq = next(_sequence)
    ctx._out_meta = ((raw.shape, raw.dtype, _CPU),)
    out._grad_fn = ctx
    out._requires_grad = True
    saved = ctx._saved
    if saved is not None:
        packed = []
        for t in saved:
            if t is None:
                packed.append(_NOTHING_SAVED)
            elif t is out:
                packed.append(_pack(t, (out,)))
            else:
                vc = t._vc
                if type(vc) is not list and isinstance(vc, _InferenceCounter):
                    _refuse_inference(t)
                packed.append((t, vc[0], -1))
        ctx._saved = packed if not _hooks_state.stack else _saved_hooks.pack(packed)
    if _anomaly._enabled:
        ctx._trace = "".join(traceback.format_stack()[:-1])  # up to the operator that called this
    return out


def apply_single(cls, a, **kwargs):
    """``cls.apply(a, **kwargs)`` for one tensor when grad mode is on and it requires grad: ``t.sum()``'s route
    (``Sum``, from ``core.ops._fastpath.whole_sum``).

    NOTE: the per-op hot path: ``_apply`` and ``_record`` unrolled for one CPU tensor that is not a view, whose op
    returns one fresh float array with elements and marks nothing dirty or non-differentiable, as ``apply_pair``
    for two: the same ctx, edge, metadata, sequence number, saved versions and output, without the argument
    tuples' loops (``x.sum()`` with grad ~1 µs less). Anything else (no grad to record, a view, another device,
    an empty input, forward-mode AD, ``core.compile``'s recorder) takes ``_apply``.
    """
    x = a._data
    if type(x) is not _ndarray or not (a._requires_grad and _grad_state.enabled) or a._base is not None \
            or not x.size or not _shortcuts.ok:
        return _apply(cls, a, **kwargs)
    Tensor = _TENSOR or _tensor_cls()
    ctx = _new_object(cls._backward_cls)
    ctx.needs_input_grad = _ONE_INPUT
    state = _grad_state
    state.enabled = False
    try:
        raw = cls._core_forward(ctx, a, **kwargs)
    finally:
        state.enabled = True
    if type(raw) is not _ndarray and isinstance(raw, _generic):  # a 0-d reduction's NumPy scalar: a 0-d array
        raw = _np.asarray(raw)
    if type(raw) is not _ndarray or not raw.size or raw.dtype.kind not in "fVc" or ctx._dirty or ctx._non_diff:
        outs = (_as_output(raw, Tensor),)  # (not an op this route is for: _apply's general tail)
        _regrade_views(outs, (a,), Tensor)
        _record(ctx, (a,), _ONE_INPUT, outs)
        return outs[0]
    out = _new_object(Tensor)
    out._data = out._root = raw
    out._vc = [0]
    fn = a._grad_fn
    if fn is None:
        acc = a._accum
        ctx._edges = ((acc if acc is not None else accumulate_node(a), 0),)
    else:
        ctx._edges = ((fn, a._output_nr),)
    ctx._in_meta = ((x.shape, x.dtype),)
    ctx._seq = next(_sequence)
    ctx._out_meta = ((raw.shape, raw.dtype, _CPU),)
    out._grad_fn = ctx
    out._requires_grad = True
    if ctx._saved is not None:
        _record_saved(ctx, (out,))
    if _anomaly._enabled:
        ctx._trace = "".join(traceback.format_stack()[:-1])  # up to the method that called this
    return out


class Function(_SingleLevelFunction):
    """A differentiable operation; subclass it and call ``apply``.

    ``forward(ctx, *args)`` runs without recording a graph; ``backward(ctx, *grad_outputs)``
    returns one gradient (or None) per positional argument of ``forward``.
    """

    def __init__(self, *args, **kwargs):
        warnings.warn(f"{self.__class__} should not be instantiated. Methods on autograd functions are all static, "
                      "so you should invoke them on the class itself. Instantiating an autograd function will raise "
                      "an error in a future version of PyTorch.", DeprecationWarning, stacklevel=2)

    def __call__(self, *args, **kwargs):  # a 2017 tutorial's ``MyReLU()(x)``: refused with torch's words
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use "
                           "new-style autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, *args):
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap "
                                  "staticmethod or set generate_vmap_rule=True.")

    apply = classmethod(_apply)  # ``apply(*args, **kwargs)``: ``_apply`` itself, one call less per op

    @staticmethod
    def _compiled_autograd_key(ctx):
        return (id(ctx._forward_cls),)


_ONE_INPUT = (True,)


def _regrade_views(outs, args, Tensor) -> None:
    """Views an op's forward made (where grad mode is off, so marked as no-grad views) when the op ran with grad
    mode on: each keeps the kind of the input it views, as PyTorch's ``propagate_creation_meta`` does.

    NOTE: loops, not generator expressions (every Linear's ``weight.t()`` comes here: two generator frames less)."""
    for o in outs:
        if isinstance(o, Tensor) and o._creation is not None:
            root = o._root
            creation = None
            for a in args:
                if isinstance(a, Tensor) and a._root is root:
                    creation = a._creation
                    break
            o._creation = creation
            if o._grad_fn is None:  # recording decides whether it requires grad, unless the view is an input
                for a in args:
                    if o is a:
                        break
                else:
                    o._requires_grad = False


def _input_flags(args, Tensor) -> tuple:
    """``needs_input_grad`` once some input of ``args`` requires grad: for each, whether it is a tensor that does.

    NOTE: one and two inputs (nearly every op) without a list comprehension, a function call of its own here.
    """
    n = len(args)
    if n == 1:
        return _ONE_INPUT  # (the only input is the one that requires grad)
    if n == 2:
        a, b = args
        return isinstance(a, Tensor) and a._requires_grad, isinstance(b, Tensor) and b._requires_grad
    return tuple([isinstance(a, Tensor) and a._requires_grad for a in args])


def _returns_an_input(outs, args) -> bool:
    for o in outs:
        for a in args:
            if o is a:
                return True
    return False


def _as_output(o, Tensor):
    """An op's result as a tensor: arrays are wrapped (fast path for NumPy arrays). Anything else a custom
    Function's forward returns (a number, a string: ``LegendrePolynomial3.apply(3)``) is returned as it is, as
    torch's ``apply`` does."""
    if o is None or isinstance(o, Tensor):
        return o
    if not hasattr(o, "dtype"):  # not an array: a Python number or any other object
        return o
    if isinstance(o, _generic):  # a NumPy scalar from a 0-d ufunc: keep it a 0-d array
        o = _np.asarray(o)
    if not o.size and o.ndim:  # NOTE: NumPy gives empty results zero strides, PyTorch contiguous ones
        from core.ops._strided import dense  # only empty results get here; ops import this module

        o = dense(o)
    if type(o) is _ndarray:
        t = _new_object(Tensor)
        t._data = o
        t._root = o
        t._vc = [0]
        return t
    return Tensor._wrap(o)


_UNSET_OUTPUT = object()


_NO_EARLY = itertools.repeat(None)


def _read_views(args, flags, dirty) -> list | None:
    """The grad_fn of each input view an in-place op reads but does not write, read before the write bumps the
    version its base shares (None for the other inputs): ATen collects the edges before the op runs, so ``out[:1]
    .copy_(out[4:])`` keeps the source's SliceBackward0 (read after the write it would be regenerated, an
    AsStridedBackward0)."""
    nodes, found = [], False
    for a, f in zip(args, flags):
        if f and a._base is not None and not any(a is t for t in dirty):
            nodes.append(a.grad_fn)
            found = True
        else:
            nodes.append(None)
    return nodes if found else None


def _record(ctx: Node, args, flags, outs, early=None) -> None:
    """Wire ``ctx`` into the graph: edges to the inputs, grad_fn of the outputs, saved tensors (``early``: nodes of
    input views read before an in-place write, ``_read_views``)."""
    edges, meta = [], []
    for a, f, read in zip(args, flags, _NO_EARLY if early is None else early):
        if f:
            fn = a._grad_fn if a._base is None else read if read is not None else a.grad_fn  # (a view: regenerated)
            if fn is None:
                if a._creation is not None and a._base._requires_grad and a._creation != "multi_output":
                    edges.append(None)  # a no-grad view requires grad through its base, but leads nowhere
                else:
                    acc = a._accum
                    edges.append((acc if acc is not None else accumulate_node(a), 0))
            else:
                edges.append((fn, a._output_nr))
            arr = a._data
            meta.append((arr.shape, arr.dtype))
        else:
            edges.append(None)
            meta.append(None)
    ctx._edges = tuple(edges)
    ctx._in_meta = tuple(meta)
    ctx._seq = next(_sequence)
    o = outs[0] if len(outs) == 1 else None
    if o is not None and not hasattr(o, "_data"):  # a custom Function's number or other object: no grad_fn
        o = None
    if o is not None and not ctx._non_diff and not ctx._dirty:
        # NOTE: the common case of _record_outputs, inlined: one output, not in-place, differentiable
        arr = o._data
        ctx._out_meta = ((arr.shape, arr.dtype, _CPU if type(arr) is _ndarray else o.device),)
        if arr.dtype.kind in "fVc":  # floating, complex ("V": ml_dtypes' bfloat16, float8_e4m3fn)
            if o._base is None:
                o._grad_fn = ctx  # a fresh tensor: no view stamp to keep (the setter's work)
            else:
                o.grad_fn = ctx
            o._requires_grad = True
    else:
        _record_outputs(ctx, outs)
    if ctx._saved is not None:
        _record_saved(ctx, outs, o)
    if _anomaly._enabled:
        ctx._trace = "".join(traceback.format_stack()[:-2])  # up to the caller of apply


def _record_saved(ctx: Node, outs, o=_UNSET_OUTPUT) -> None:
    """Pack what ``save_for_backward`` kept: an input with its version, an output as ``_pack`` keeps it (``o``:
    the single output, None when there are several; unset: ``outs[0]``)."""
    if o is _UNSET_OUTPUT:
        o = outs[0]
    packed = []
    for t in ctx._saved:
        if t is None:
            packed.append(_NOTHING_SAVED)
        elif o is not None and t is not o:  # an input (or other tensor): kept as it is, with its version
            vc = t._vc
            if isinstance(vc, _InferenceCounter):
                _refuse_inference(t)
            packed.append((t, vc[0], -1))
        else:
            packed.append(_pack(t, outs))
    ctx._saved = packed if not _hooks_state.stack else _saved_hooks.pack(packed)  # saved_tensors_hooks


_NOTHING_SAVED = (None, 0, -1)
_hooks_state = _saved_hooks.state


def _record_outputs(ctx: Node, outs) -> None:
    non_diff, dirty = ctx._non_diff, ctx._dirty
    out_meta = []
    for i, o in enumerate(outs):
        if o is None or not hasattr(o, "_data"):  # None, or a custom Function's number or other object
            out_meta.append(None)
            continue
        arr = o._data
        out_meta.append((arr.shape, arr.dtype, _CPU if type(arr) is _ndarray else o.device))
        if arr.dtype.kind not in "fVc" or (non_diff and any(o is n for n in non_diff)):
            continue
        if dirty and any(o is d for d in dirty):
            _rebase_inplace(o, ctx, i)
        else:
            if o._base is None:
                o._grad_fn = ctx  # a fresh tensor: no view stamp to keep (the setter's work)
            else:
                o.grad_fn = ctx
            o._requires_grad = True
            if i:
                o._output_nr = i
    ctx._out_meta = tuple(out_meta)


def _pack(t, outs):
    """A saved tensor with its version; an output of the node is kept detached (no cycle)."""
    if t is None:
        return (None, 0, -1)
    for i, o in enumerate(outs):
        if o is t:
            kept = t._alias(t._data, base=False)
            kept._base = t._base
            return (kept, t._vc[0], i)
    if isinstance(t._vc, _InferenceCounter):  # an input made in inference mode (an output never is: grad mode is on)
        _refuse_inference(t)
    return (t, t._vc[0], -1)


def _refuse_inference(t) -> None:
    """PyTorch refuses to save an inference tensor for backward.

    NOTE: PyTorch saves an operand only when a gradient that needs it is wanted (``W @ x`` saves ``W`` only
    when ``x`` requires grad); core's ops save theirs always. So an inference tensor that requires grad (a
    parameter made in inference mode) is let through: a ``Linear`` with such parameters runs forward and
    backward as in PyTorch, whose optimizer step then refuses to update them in place. One that doesn't
    require grad is saved for another input's gradient, and refused.
    """
    if not t._requires_grad:
        raise RuntimeError(_INFERENCE_SAVED)


def _rebase_inplace(t, ctx: Node, output_nr: int) -> None:
    """An in-place op on ``t``: ``t``'s history continues through ``ctx``."""
    if t.grad_fn is None and t._requires_grad and ctx._edges and any(
            e is not None and e[0] is t._accum for e in ctx._edges):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    from core.autograd.inplace import rebase_history  # view handling; it imports ops, which import this module

    rebase_history(t, ctx, output_nr)


def once_differentiable(fn):
    """Mark a custom backward as not double-differentiable (runs it under no_grad)."""
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            return fn(ctx, *args)
    wrapper.__name__ = fn.__name__
    return wrapper


class _CaptureState(threading.local):
    """Who records ``Function.apply`` calls: ``core.autograd.capture`` sets ``recorder`` while it captures.

    Per thread, as grad mode is: ops another thread runs meanwhile (a code import, a data loader) are not part
    of the captured function. The recorder's ``enter(ctx)`` runs before an op's forward and ``leave(...)`` after
    it; ``value_read()`` is called when Python reads a tensor's value (``item``, ``bool``, ``tolist``, ``numpy``),
    ``untracked(what)`` when code writes into a tensor outside an op.
    """

    recorder = None


_capture_state = _CaptureState()


def note_value_read() -> None:
    """Tell a capturing recorder that Python read a tensor's value (the capture can't replay that)."""
    recorder = _capture_state.recorder
    if recorder is not None:
        recorder.value_read()


def capturing() -> bool:
    """True while ``core.compile`` records ops: in-place ops then take their recorded route even without grad."""
    return _capture_state.recorder is not None


def note_untracked(what: str) -> None:
    """Tell a capturing recorder that code changed tensors outside an op (``what`` says how; no replay)."""
    recorder = _capture_state.recorder
    if recorder is not None:
        recorder.untracked(what)


_TENSOR = None
_CPU = None  # core's cpu device, bound by _tensor_cls (core._device imports nothing of autograd)
_grad_state = grad_mode._state
_dual_state = _forward_ad._state
_new_object = object.__new__
_ndarray = np.ndarray
_generic = np.generic
_np = np


def _tensor_cls():
    global _TENSOR, _CPU
    if _TENSOR is None:
        from core._tensor import Tensor  # Tensor imports autograd first

        _TENSOR, _CPU = Tensor, CPU
    return _TENSOR
