"""How a view was made (PyTorch's ``CreationMeta``) and the in-place writes PyTorch refuses because of it.

A view can be written in place: its base's history is rewritten (``CopySlices``). PyTorch refuses that where the
history can't be rewritten: an output of an op returning several views (``split``, ``chunk``, ``unbind``, iterating
a tensor: one backward node serves them all), a view made in no_grad mode (nothing recorded how it relates to its
base) or in inference mode. A view of such a view keeps the restriction. The write is refused when it would record
(grad mode on, and the view, its base or another input requires grad); using such a view after its base, a sibling
or the view itself was written in place is refused too, as its ``grad_fn`` can't be rebuilt.

``Tensor._creation`` holds the kind: None (PyTorch's DEFAULT) or one of the names below.
"""

from __future__ import annotations

import re
import weakref

from core.autograd import grad_mode

__all__ = ["MULTI_OUTPUT", "NO_GRAD", "INFERENCE", "made_without_grad", "mark_multi_output",
           "check_direct", "refuse", "note_no_grad_view", "follow_base"]

MULTI_OUTPUT = "multi_output"
NO_GRAD = "no_grad"
INFERENCE = "inference"

_state = grad_mode._state
_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")

_MULTI_OUTPUT_TAIL = (" This view is the output of a function that returns multiple views. Such functions do not "
                      "allow the output views to be modified inplace. You should replace the inplace operation by an "
                      "out-of-place one.")
_NO_GRAD_TAIL = (" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
                 "by moving both the view and the inplace either both inside the no_grad block (if you don't want the "
                 "inplace to be tracked) or both outside (if you want the inplace to be tracked).")
_INFERENCE_TAIL = (" Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code "
                   "by moving both the view and the inplace either both inside the inference_mode block (if you don't "
                   "want the inplace to be tracked) or both outside (if you want the inplace to be tracked).")


def made_without_grad(previous):
    """The kind of a view made while nothing records (an inference-mode view's views stay inference-mode ones)."""
    if previous == INFERENCE or _state.inference:
        return INFERENCE
    return NO_GRAD


# id(base) -> (a weak reference to the base, {id(view): weak reference} of its views made without grad while it
# required grad); a view that dies takes itself out (a training loop makes such views at every step)
_NO_GRAD_VIEWS: dict = {}


def note_no_grad_view(base, view) -> None:
    """Remember ``view`` (made without grad, requiring grad through ``base``) so that it can follow the base."""
    key = id(base)
    entry = _NO_GRAD_VIEWS.get(key)
    if entry is None or entry[0]() is not base:
        entry = _NO_GRAD_VIEWS[key] = (weakref.ref(base, lambda _, key=key: _NO_GRAD_VIEWS.pop(key, None)), {})
    views = entry[1]
    views[id(view)] = weakref.ref(view, lambda _, views=views, vkey=id(view): views.pop(vkey, None))


def follow_base(base) -> None:
    """PyTorch's view without a grad_fn requires grad when its base does: after ``base.detach_()`` or
    ``base.requires_grad_(False)`` the no-grad views noted above stop requiring grad (and start again)."""
    entry = _NO_GRAD_VIEWS.get(id(base))
    if entry is None or entry[0]() is not base:
        return
    for ref in list(entry[1].values()):
        view = ref()
        if view is not None and view._grad_fn is None and view._creation is not None:
            view._requires_grad = base._requires_grad


def mark_multi_output(outs):
    """``outs``, the views one op returned together (split, chunk, unbind), made with grad mode on: each a
    multi-output view (made in no_grad mode, each is already a no-grad view)."""
    if _state.enabled:
        for o in outs:
            if o._creation != INFERENCE:
                o._creation = MULTI_OUTPUT
    return outs


def check_direct(t) -> None:
    """Refuse an in-place write to ``t`` that would record (grad mode is on) when ``t`` is a restricted view whose
    base or itself requires grad (another input requiring grad is checked when the write records)."""
    if t._creation is not None and (t._requires_grad or t._base._requires_grad):
        refuse(t)


def refuse(t, indirect: bool = False) -> None:
    """PyTorch's ``handle_view_on_rebase``: the error for writing the restricted view ``t`` in place, or (indirect)
    for using it after its base or another view of the base was written."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    fn = t._grad_fn
    if fn is not None:
        name = _BACKWARD_SUFFIX.sub("", fn.name())
        head = f"Output {t._output_nr} of {name} is a view and {modified} modified inplace."
    elif t._creation == INFERENCE:
        head = f"A view was created in inference mode and {modified} modified inplace in normal mode."
    else:
        head = f"A view was created in no_grad mode and {modified} modified inplace with grad mode enabled."
    tail = {MULTI_OUTPUT: _MULTI_OUTPUT_TAIL, NO_GRAD: _NO_GRAD_TAIL}.get(t._creation, _INFERENCE_TAIL)
    raise RuntimeError(head + tail)
