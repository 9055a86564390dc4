"""Gradient-free ops that compute straight on arrays, made visible to ``core.compile``'s capture.

Comparisons, ``argmax``, ``isnan``, ``all`` and the like have no gradient, so they build their result
without ``Function.apply``. A capture (``core/autograd/capture.py``) only sees ops that go through apply,
and would freeze such a result into its plan as a constant. ``recorded`` makes the op one recorded call
while the shortcuts are blocked (``core/autograd/shortcuts.py``), so a replay computes it again from the new
values; otherwise it costs one flag check. ``data_dependent`` marks ops whose result's shape depends on the
values (``nonzero``): a plan can't replay them, so the capture is refused and the function runs eagerly.
"""

from __future__ import annotations

import functools

from core.autograd import grad_mode
from core.autograd.function import Function, note_untracked
from core.autograd.inference import mark_result
from core.autograd.shortcuts import state as _shortcuts

__all__ = ["recorded", "data_dependent"]


class _GradientFreeCall(Function):
    """One call of a gradient-free op as a primitive; replays call the op again on the new values."""

    @staticmethod
    def forward(ctx, *args, op, kwargs, result_type):
        res = op(*args, **kwargs)
        if isinstance(res, tuple):  # a named tuple (frexp, histogram): its type is rebuilt by the caller
            result_type[0] = type(res)
            return tuple(res)
        return res

    @staticmethod
    def backward(ctx, *grads):  # never reached: the call runs without grad
        raise RuntimeError("a gradient-free op has no backward")


def recorded(fn):
    """``fn`` (results without a gradient) as one recorded op while the shortcuts are blocked."""
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if _shortcuts.ok or kwargs.get("out") is not None:  # out= writes outside an op: the capture refuses it
            return fn(*args, **kwargs)
        result_type = [tuple]
        with grad_mode.no_grad():
            res = _GradientFreeCall.apply(*args, op=fn, kwargs=kwargs, result_type=result_type)
        return res if result_type[0] is tuple else result_type[0](*res)
    return op


def data_dependent(fn):
    """``fn``, whose result's shape depends on the values: a capture that sees it is refused."""
    @functools.wraps(fn)
    def op(*args, **kwargs):
        if _shortcuts.ok:
            return fn(*args, **kwargs)
        note_untracked(f"{fn.__name__} gives a result whose shape depends on the values")
        return mark_result(fn(*args, **kwargs), args)  # in inference mode: an inference tensor
    return op
