"""Inference tensors: what ``inference_mode`` makes, and what PyTorch refuses to do with them outside it.

Inside ``inference_mode()`` every tensor a factory or an op makes is an inference tensor; a view of a normal
tensor stays normal, a view of an inference tensor (made anywhere) is one. Outside the mode PyTorch refuses
to write into an inference tensor, to make it require grad, to read its version, or to save it for backward.

What makes a tensor one: its version counter (``_vc``, shared by every view of a storage) is an
``InferenceCounter`` instead of a plain list. So views inherit it for free, a ``clone`` outside the mode
(a fresh counter) is normal, and no tensor outside inference mode pays anything to be normal. Writes to
the counter (every in-place op bumps it once it has written) are refused outside the mode: as in PyTorch,
whose check sits at the same place, the op has changed the elements when it raises.

How tensors get it, without a check on the per-op hot path: while the mode is on, it blocks the no-grad
shortcuts (``core.autograd.shortcuts``) so that every op goes through ``Function.apply``, and it installs a
``Marker`` as apply's observer (the slot ``core.compile``'s capture uses; a capture's recorder keeps being
called through it). The marker gives each fresh output an ``InferenceCounter``. Factories mark what they
make themselves (``mark``), and so do the data-dependent ops, which never go through apply (``mark_result``).
"""

from __future__ import annotations

from core.autograd import grad_mode
from core.autograd import shortcuts as _shortcuts

__all__ = ["InferenceCounter", "DetachedCounter",
           "is_inference", "mark", "mark_result", "check_requires_grad", "INPLACE", "REQUIRES_GRAD",
           "VERSION", "SAVED"]

INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
           "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
REQUIRES_GRAD = "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
VERSION = "Inference tensors do not track version counter."
SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
         "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use "
         "it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")

_state = grad_mode._state


class InferenceCounter(list):
    """The version counter of an inference tensor and its views: it moves only inside inference mode.

    NOTE: reads stay a list's (the engine and the capture read versions of whatever they see); the
    tensor-level refusals (``_version``, ``requires_grad``, saving for backward) check the counter's type.
    """

    __slots__ = ()

    def __setitem__(self, index, value) -> None:
        if not _state.inference:
            raise RuntimeError(INPLACE)
        list.__setitem__(self, index, value)


class DetachedCounter(InferenceCounter):
    """The counter of ``detach()`` of an inference tensor made outside the mode: PyTorch gives that tensor a
    version counter of its own, so it stays an inference tensor (no requires_grad, not saved for backward) that
    takes in-place writes and has a ``_version``. NOTE: its views share it here (PyTorch's refuse writes)."""

    __slots__ = ()
    __setitem__ = list.__setitem__


def is_inference(input) -> bool:
    """``torch.is_inference(t)``: True when ``t`` was made in inference mode (or is a view of such a tensor)."""
    vc = getattr(input, "_vc", None)
    if vc is None:
        raise TypeError(f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return isinstance(vc, InferenceCounter)


def mark(t):
    """Make ``t`` (a fresh tensor, owning its storage) an inference tensor when inference mode is on; returns it."""
    if _state.inference and type(t._vc) is not InferenceCounter:
        t._vc = InferenceCounter(t._vc)
    return t


def check_requires_grad(t, requires_grad: bool) -> None:
    """PyTorch refuses to make an inference tensor require grad outside inference mode."""
    if requires_grad and isinstance(t._vc, InferenceCounter) and not _state.inference:
        raise RuntimeError(REQUIRES_GRAD)


def mark_result(result, args):
    """An op's result (a tensor or a tuple of them) made outside ``Function.apply``, marked as apply's would be."""
    if _state.inference:
        _mark_outputs(result if isinstance(result, (tuple, list)) else (result,), args)
    return result


def _mark_outputs(outs, args) -> None:
    """Mark the outputs of one op that own fresh storage: not an input, nor a view sharing an input's counter."""
    shared = [a._vc for a in args if hasattr(a, "_vc")]
    fresh = {}  # outputs of one op that share a fresh counter keep sharing it
    for o in outs:
        if o is None or not hasattr(o, "_vc"):
            continue
        vc = o._vc
        if isinstance(vc, InferenceCounter) or any(vc is s for s in shared):
            continue
        counter = fresh.get(id(vc))
        if counter is None:
            counter = fresh[id(vc)] = InferenceCounter(vc)
        o._vc = counter


class Marker:
    """``Function.apply``'s observer while inference mode is on: marks each op's fresh outputs as inference
    tensors, and passes every call on to the observer it replaced (a ``core.compile`` capture), if any."""

    __slots__ = ("inner",)

    def __init__(self, inner) -> None:
        self.inner = inner

    def enter(self, ctx, args, kwargs) -> None:
        if self.inner is not None:
            self.inner.enter(ctx, args, kwargs)

    def leave(self, cls, ctx, args, kwargs, outs) -> None:
        if _state.inference:  # not under inference_mode(False) inside the mode
            _mark_outputs(outs, args)
        if self.inner is not None:
            self.inner.leave(cls, ctx, args, kwargs, outs)

    def value_read(self) -> None:
        if self.inner is not None:
            self.inner.value_read()

    def untracked(self, what: str) -> None:
        if self.inner is not None:
            self.inner.untracked(what)


def begin():
    """Route every op through ``Function.apply`` with a ``Marker`` watching; returns what ``end`` restores."""
    from core.autograd.function import _capture_state  # function imports this module

    inner = _capture_state.recorder
    if type(inner) is Marker:  # nested in another inference_mode(): its marker watches already
        return _NESTED
    _capture_state.recorder = Marker(inner)
    _shortcuts.block()
    return inner


def end(inner) -> None:
    """Undo what the matching ``begin`` did."""
    from core.autograd.function import _capture_state

    if inner is _NESTED:
        return
    _shortcuts.unblock()
    _capture_state.recorder = inner


_NESTED = object()
