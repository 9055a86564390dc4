"""``core.autograd.forward_ad``: forward-mode AD with dual tensors, as ``torch.autograd.forward_ad``.

Inside a ``dual_level()`` a tensor made by ``make_dual(primal, tangent)`` carries a tangent; every op
on it computes the output's tangent (the Jacobian-vector product) while it computes the output.
``unpack_dual`` gives the ``(primal, tangent)`` pair back.

How it works: ``Function.apply`` checks one flag (``_state.token``, set only while a level is
active); when an input is dual it calls ``apply_dual`` here, which runs the op as usual and then the
primitive's tangent rule ``jvp(ctx, *tangents)``, written next to its ``forward`` and ``backward``.
``ctx`` is a ``DualContext`` (the op's inputs, keyword arguments and output); each tangent is None
for an input without one. The rule runs with the level switched off (so the primals' own tangents
stay out of it) and in the caller's grad mode (so reverse mode can differentiate a tangent).
A primitive without a rule raises PyTorch's NotImplementedError. One level at a time, as PyTorch, but for
``core.func.jacfwd``: a jacfwd inside another enters a level on top of the outer one (``_enter_level(nested=True)``).
A tensor's ``_fw_grad`` is ``(level, tangent)``, or ``(level, tangent, below)`` with the ``_fw_grad`` of the levels
below; ``apply_dual`` serves the highest level among the inputs' tangents and runs the op and its rule in the level
below, so that the rule's own ops carry the lower level's tangents (a second derivative).

Not supported (they raise): in-place ops on dual tensors, custom ``autograd.Function``s.
"""

from __future__ import annotations as _annotations  # (bound privately: not in dir())

import functools as _functools
import re as _re
import weakref as _weakref
from typing import Any, NamedTuple

from core.autograd import forward_batch as _forward_batch
from core.autograd import shortcuts as _shortcuts
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]


class _Level:
    """One entered level: its number and the tensors given a tangent in it (cleared on exit)."""

    def __init__(self, number: int, batch: int | None = None, parent: _Level | None = None):
        self.number = number
        self.duals: list = []
        self.batch = batch  # jacfwd's: tangents carry a leading dim of this many directions (forward_batch)
        self.parent = parent  # the level below (a nested jacfwd's outer one), or None
        self.active = True


class _State:
    token = None  # the active _Level, or None: the one flag Function.apply checks
    keep = None  # a list while apply_dual runs an op: Function.apply adds the op's ctx (its jvp's ctx too)


_state = _State()


def enter_dual_level() -> int:
    """Enter a new forward-AD level and return its number (0); nesting raises, as in PyTorch."""
    return _enter_level(None)


def _enter_level(batch: int | None, nested: bool = False) -> int:
    """Enter a level; with ``batch`` (core's ``jacfwd``) every tangent carries ``batch`` directions in a leading
    dim (``_make_batched_dual``); ``exit_dual_level`` leaves it. ``nested`` (a jacfwd inside a jacfwd, as
    functorch nests its levels): the new level sits on the active one, whose tangents its tangent rules carry."""
    parent = _state.token
    if parent is not None and not nested:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _state.token = _Level(0 if parent is None else parent.number + 1, batch, parent)
    _shortcuts.block()  # every op goes through Function.apply, which propagates tangents
    return 0


def exit_dual_level(*, level=None) -> None:
    """Leave the current level; every tangent made in it is dropped."""
    current = _state.token
    if current is None:
        raise RuntimeError("Dual level must be a positive number.")
    if level is not None and level != current.number:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    _state.token = current.parent
    current.active = False
    _shortcuts.unblock()
    for ref in current.duals:
        t = ref()
        fw = None if t is None else t.__dict__.get("_fw_grad")
        if fw is not None and fw[0] is current:
            if len(fw) > 2:
                t._fw_grad = fw[2]  # (the tangents of the levels below stay)
            else:
                del t._fw_grad


class dual_level:
    """Context manager (and decorator) for a forward-AD level: ``with dual_level(): ...``."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        exit_dual_level()

    def __call__(self, fn):
        @_functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)
        return wrapper


class UnpackedDualTensor(NamedTuple):
    """What ``unpack_dual`` returns: the primal (a view without tangent) and the tangent (or None)."""

    primal: Any
    tangent: Any


def _level_of(level):
    current = _state.token
    if level is None or current is not None and level == current.number:
        return current
    return None


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` that carries ``tangent`` at the current level (differentiable in reverse mode)."""
    from core import _vmap_batched  # (it imports core, which imports this module)

    _vmap_batched.refuse(tensor, tangent)
    current = _level_of(level)
    if current is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not tensor.is_floating_point():
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not tangent.is_floating_point():
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tangent.shape != tensor.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
    if tangent_of(tensor, current) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                           f"level {current.number} is not supported.")
    _state.token = None
    try:
        dual = tensor.view_as(tensor)
    finally:
        _state.token = current
    _attach(dual, tangent, current)
    return dual


def _make_batched_dual(tensor, tangents):
    """``make_dual`` inside a level entered with ``batch=n``: ``tangents`` is ``(n, *tensor.shape)``."""
    from core import _vmap_batched  # (it imports core, which imports this module)

    _vmap_batched.refuse(tensor, tangents)
    current = _state.token
    _state.token = current.parent  # (the view keeps the tangents of the levels below)
    try:
        dual = tensor.view_as(tensor)
    finally:
        _state.token = current
    _attach(dual, tangents, current)
    return dual


def unpack_dual(tensor, *, level=None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of a tensor at the current level; the tangent is None for a plain tensor."""
    from core import _vmap_batched  # (it imports core, which imports this module)

    _vmap_batched.refuse(tensor)
    current = _level_of(level)
    if current is None:
        return UnpackedDualTensor(tensor, None)
    tangent = tangent_of(tensor, current)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    _state.token = current.parent
    try:
        primal = tensor.view_as(tensor)
    finally:
        _state.token = current
    return UnpackedDualTensor(primal, tangent)


# ----- what Function.apply calls while a level is active ---------------------------------------------
class DualContext:
    """What a primitive's ``jvp`` sees: its positional inputs, keyword arguments and output(s). Any other
    attribute is the forward's ctx's, as PyTorch hands a custom Function's ``jvp`` the ``ctx`` its ``forward``
    filled (``ctx.result = ...`` there, read or deleted in ``jvp``)."""

    __slots__ = ("inputs", "kw", "output", "node")

    def __init__(self, inputs, kw, output, node=None):
        self.inputs = inputs
        self.kw = kw
        self.output = output
        self.node = node

    @property
    def saved_tensors(self) -> tuple:
        """What ``save_for_forward`` saved (nothing: ``()``; in PyTorch's ``jvp`` what ``save_for_backward`` saved is
        not among them)."""
        node = self.node
        if node is None:
            raise AttributeError("'DualContext' object has no attribute 'saved_tensors'")
        return node._forward_saved if node._forward_saved is not None else ()

    def __getattr__(self, name):
        node = object.__getattribute__(self, "node")
        if node is None:
            raise AttributeError(f"'DualContext' object has no attribute '{name}'")
        return getattr(node, name)

    def __setattr__(self, name, value):
        if name in DualContext.__slots__:
            object.__setattr__(self, name, value)
        else:
            setattr(self.node, name, value)

    def __delattr__(self, name):
        delattr(self.node, name)


def tangent_of(t, level=None):
    """The tangent ``t`` carries at ``level`` (default: the active one), or None."""
    fw = getattr(t, "_fw_grad", None)
    level = level or _state.token
    while fw is not None:
        if fw[0] is level:
            return fw[1]
        fw = fw[2] if len(fw) > 2 else None  # (a nested level's tangent sits on those of the levels below)
    return None


def has_dual(args) -> bool:
    token = _state.token
    for a in args:
        fw = getattr(a, "_fw_grad", None)
        if fw is None:
            continue
        if fw[0] is token:
            return True
        if not (token.number or fw[0].number):
            continue
        while fw is not None:  # nested levels: a tangent at or below token's level
            if fw[0].active and fw[0].number <= token.number:
                return True
            fw = fw[2] if len(fw) > 2 else None
    return False


def apply_dual(cls, args, kwargs):
    """Run primitive ``cls`` on arguments of which one is dual; give its float outputs their tangents."""
    token = level = _state.token
    tangents = [tangent_of(a, level) for a in args]
    while level.parent is not None and all(t is None for t in tangents):
        level = level.parent  # (only a lower level's tangents: that level propagates them)
        tangents = [tangent_of(a, level) for a in args]
    outer_keep = _state.keep
    _state.token = level.parent  # NOTE: a nested level's op and rule run in the level below, which carries them
    fallback = cls.jvp is None and cls.__module__.startswith("core.")
    try:
        rng = _generator_state() if fallback else None  # the rerun of a random op must draw the same numbers
        # NOTE: an in-place op's ``self`` is copied even without a tangent (``y.mul_(dual)``): the rule's rerun
        # reads its old value and writes into the copy, not into ``self`` a second time
        writes = fallback and getattr(cls, "writes_self", False)
        before = [_kept_copy(a) if fallback and (t is not None or writes and i == 0 and hasattr(a, "_data")) else None
                  for i, (a, t) in enumerate(zip(args, tangents))]
        keep = _state.keep = []  # NOTE: after the clones above, so that the op's own ctx comes first
        out = cls.apply(*args, **kwargs)
        _state.keep = None
        if outer_keep is not None:  # (a nested level's apply_dual waits for this op's ctx too)
            outer_keep.extend(keep)
        outs = out if type(out) is tuple else (out,)
        if not any(o is not None and o.is_floating_point() for o in outs):
            return out  # comparisons, argmax...: nothing to differentiate
        rule = cls.jvp
        if fallback and level.batch is not None:
            res = _forward_batch.per_direction(lambda *ts: _jvp_from_backward(cls, args, kwargs, ts, rng, before),
                                              tangents, level.batch)
        elif fallback:
            res = _jvp_from_backward(cls, args, kwargs, tangents, rng, before)
        elif rule is None:
            raise _unsupported(cls)
        elif level.batch is not None:
            ctx = DualContext(args, kwargs, out, keep[0] if keep else None)
            res = _forward_batch.run(cls, rule, ctx, tangents, level.batch)
        else:
            res = rule(DualContext(args, kwargs, out, keep[0] if keep else None), *tangents)
    finally:
        _state.token = token
        _state.keep = outer_keep
    res = res if type(res) is tuple else (res,)
    dirty = keep[0]._dirty if keep else ()
    if dirty:  # an in-place op: its tensor is the output, and its tangent changes in place, as in PyTorch
        for o, t in zip(outs, res):
            if o is not None and t is not None and any(o is d for d in dirty):
                _update_in_place(o, t, level)
        return out
    outs = tuple(_attach(_fresh(o, args), t, level) for o, t in zip(outs, res))
    _tangents_to_saved(outs)
    return outs if type(out) is tuple else outs[0]


def _tangents_to_saved(outs) -> None:
    """An output the op saved for backward keeps its tangent there too, so a backward run inside the
    level (forward-over-reverse, e.g. a Hessian) sees it."""
    node = next((o.grad_fn for o in outs if o is not None and o.grad_fn is not None), None)
    saved = getattr(node, "_saved", None)
    if type(saved) is not list:
        return
    for kept, _, nr in saved:
        if kept is not None and nr >= 0 and "_fw_grad" in outs[nr].__dict__:
            kept._fw_grad = outs[nr]._fw_grad


def _fresh(o, args):
    """``o``, or an alias of it when the op handed back one of its inputs (whose tangent must not change)."""
    if o is not None and any(o is a for a in args):
        return o._alias(o._data)
    return o


def _attach(o, tangent, level):
    if o is None or tangent is None or not o.is_floating_point():
        return o
    shape = o.shape if level.batch is None else (level.batch, *o.shape)
    if tangent.shape != shape:  # a broadcast input: its tangent broadcasts with it
        tangent = (tangent if level.batch is None else _forward_batch.pad(tangent, o.dim())).expand(shape)
    if tangent.dtype != o.dtype:
        tangent = tangent.to(o.dtype)
    below = o.__dict__.get("_fw_grad")
    if below is not None and below[0] is level:
        below = below[2] if len(below) > 2 else None
    o._fw_grad = (level, tangent) if below is None or not below[0].active else (level, tangent, below)
    level.duals.append(_weakref.ref(o))
    return o


def _unsupported(cls) -> Exception:
    if not cls.__module__.startswith("core."):
        return NotImplementedError("You must implement the jvp function for custom autograd.Function to use it "
                                   "with forward mode AD (core does not support forward AD through custom "
                                   "Functions yet).")
    name = _re.sub(r"Backward\d*$", "", cls._backward_cls.__name__)
    name = _re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
    return NotImplementedError(f"Trying to use forward AD with {name} that does not support it because it has "
                               "not been implemented yet.")


# ----- helpers for tangent rules ---------------------------------------------------------------------
def total(*terms):
    """The sum of the terms that are not None (the tangent contributions of several inputs)."""
    out = None
    for t in terms:
        if t is not None:
            out = t if out is None else out + t
    return out


def _tangent_sum(like, *terms):
    """A tangent formula's sum of ``terms``, each ``(value, primal)``: ``value`` the term, or None where the input's
    tangent is missing, ``primal`` the primal that term multiplies (None for a sum's own terms). PyTorch fills a
    missing tangent with an efficient zero tensor and still computes the whole formula, so where the sum records
    (grad mode, and a term or a missing term's primal requires grad) the tangent is the sum's node
    (``AddBackward0``) and requires grad; the zero terms (``_zero_term``, -0.0) leave the values' bits as they are.
    ``like``: the op's output (the zeros' shape, dtype and device)."""
    import core

    present = [value for value, _ in terms if value is not None]
    out = total(*present)
    if len(present) == len(terms) or not core.is_grad_enabled():
        return out
    if not ((out is not None and out.requires_grad) or any(
            value is None and isinstance(primal, core.Tensor) and primal.requires_grad for value, primal in terms)):
        return out
    result = None
    for value, primal in terms:
        if value is None:
            value = _zero_term(primal, like)
            if value is None:
                value = core.full(tuple(like.shape), -0.0, dtype=like.dtype, device=like.device)
        result = value if result is None else result + value
    return result


def _zero_term(primal, like):
    """PyTorch's term ``zero_tangent * primal`` of a product's tangent whose other input has no tangent: it fills the
    missing tangent with an efficient zero tensor and still multiplies, so where ``primal`` requires grad (and grad
    mode is on) the tangent is built from it: it requires grad, and its node is the sum's (``AddBackward0``). None
    where nothing records. Its values are -0.0, so the sum keeps the other term's bits (its zeros' signs too)."""
    import core

    if not (isinstance(primal, core.Tensor) and primal.requires_grad and core.is_grad_enabled() and primal.numel()):
        return None
    negative_zero = core.full(tuple(like.shape), -0.0, dtype=like.dtype, device=like.device)
    # (one element of the primal stands for it: a product's primal need not broadcast to the output)
    return core.where(core.zeros((), dtype=core.bool, device=like.device), primal.reshape(-1)[0], negative_zero)


def _apply_to_tangent(cls, ctx, t, *rest):
    return cls.apply(t, *ctx.inputs[1:], **ctx.kw)


linear_jvp = classmethod(_apply_to_tangent)
"""The tangent rule of an op linear in its first input (views, sums...): the op applied to the tangent."""


def _bilinear(cls, ctx, ta, tb):
    a, b = ctx.inputs
    return _tangent_sum(ctx.output, (None if ta is None else cls.apply(ta, b), b),
                       (None if tb is None else cls.apply(a, tb), a))


bilinear_jvp = classmethod(_bilinear)
"""The tangent rule of a product (mm, mv, dot...): ``op(ta, b) + op(a, tb)``."""


def _joint_linear(cls, ctx, *tangents):
    from core._factories import zeros_like  # factories import the tensor layer, which imports this module

    filled = [zeros_like(x) if t is None else t for x, t in zip(ctx.inputs, tangents)]
    return cls.apply(*filled, **ctx.kw)


joint_linear_jvp = classmethod(_joint_linear)
"""The tangent rule of an op linear in all its tensor inputs together (cat, stack): the op on the tangents."""


def _generator_state():
    from core import _random  # the tensor layer (which _random needs) imports this module

    return _random.default_generator.get_state()


def _kept_copy(a):
    """A copy of a dual input before its op runs (an in-place op changes it) for ``_jvp_from_backward``: in the
    caller's grad mode and level, so the copy stays on ``a``'s reverse graph and keeps a lower level's tangent."""
    from core.autograd import grad_mode

    if grad_mode.is_grad_enabled():
        return a.clone()
    with grad_mode.no_grad():
        return a.clone()


def _jvp_from_backward(cls, args, kwargs, tangents, rng, before):
    """The tangents of a core primitive without a jvp rule, from its backward (linear in the gradient and
    written with differentiable ops): with a dummy cotangent ``u``, ``J t = d <J^T u, t> / du``. The op runs
    again on copies of its inputs as they were before the first run (an in-place op changed them), from the
    random state the first run started at.
    NOTE: the copies stay on the inputs' reverse graph (``_kept_copy``), and when an input or tangent requires
    grad the last ``grad`` records its graph, so a tangent is differentiable as PyTorch's (``GeluBackwardBackward0``
    there): a backward through it, or a nested ``jacfwd`` (whose outer level's tangents ride on the copies)."""
    from core import _random
    from core._factories import zeros_like
    from core.autograd import grad_mode
    from core.autograd.engine import grad

    dual = [(i, t) for i, t in enumerate(tangents) if t is not None]
    graph = grad_mode.is_grad_enabled() and any(getattr(x, "requires_grad", False) for x in (*args, *tangents))
    copies = list(args)
    leaves = {i: before[i] if before[i].requires_grad else _set_requires_grad(before[i]) for i, _ in dual}
    for i, _ in dual:
        copies[i] = leaves[i].clone()  # NOTE: not the leaf itself, which an in-place op may not modify
    for i, kept in enumerate(before):
        if kept is not None and i not in leaves:  # an in-place op's ``self`` without a tangent, as it was
            copies[i] = kept
    after = _random.default_generator.get_state()
    _random.default_generator.set_state(rng)
    try:
        with grad_mode.enable_grad():
            out = cls.apply(*copies, **kwargs)
    finally:
        _random.default_generator.set_state(after)
    outs = out if type(out) is tuple else (out,)
    live = [i for i, o in enumerate(outs) if o is not None and o.is_floating_point() and o.requires_grad]
    res = [None if o is None or not o.is_floating_point() else zeros_like(o) for o in outs]
    if live:
        with grad_mode.enable_grad():
            us = [_set_requires_grad(zeros_like(outs[i])) for i in live]
            gs = grad([outs[i] for i in live], [leaves[i] for i, _ in dual], us, create_graph=True, allow_unused=True)
            pairs = [(g * t).sum() for g, (_, t) in zip(gs, dual) if g is not None]
            total = pairs[0] if pairs else None
            for p in pairs[1:]:
                total = total + p
            if total is not None and total.requires_grad:
                for i, j in zip(live, grad([total], us, create_graph=graph, allow_unused=True)):
                    if j is not None:
                        res[i] = j
    return tuple(res) if type(out) is tuple else res[0]


def _update_in_place(t, tangent, level) -> None:
    """The new tangent of a tensor an in-place op changed: written into its old tangent (a view's tangent is a
    view of its base's, so the base sees it), or attached when it had none."""
    old = tangent_of(t, level)
    base = t._base
    if old is None and base is not None and level.batch is None and tangent_of(base, level) is None \
            and base.is_floating_point():
        old = _base_tangent(t, base, level)
    if old is None or old.shape != tangent.shape:
        _attach(t, tangent, level)
        return
    from core.autograd import grad_mode  # grad_mode imports nothing of ours, but keep imports lazy here

    with grad_mode.no_grad():
        old.copy_(tangent)


def _base_tangent(view, base, level):
    """A view without a tangent written in place with a dual: its base gets a zero tangent laid out as the base,
    and the view the same view of it (PyTorch's base then carries the view's tangent); the view's part, for the
    caller to fill."""
    from core import _factories
    from core.autograd import grad_mode

    with grad_mode.no_grad():
        whole = _factories.empty_strided(base.shape, base.stride(), dtype=base.dtype, device=base.device).zero_()
        part = whole.as_strided(view.shape, view.stride(), view.storage_offset() - base.storage_offset()
                                + whole.storage_offset())
    _attach(base, whole, level)
    _attach(view, part, level)
    return part
