"""Classes that turn core's ``__torch_function__`` dispatch on at their ``class`` statement (tensor-likes and
core.Tensor subclasses), kept out of the test modules' top level: importing this module turns dispatch on for
the rest of the process, so the tests that use them import it in their bodies (they run last: tests/conftest.py)
and collection leaves dispatch off."""

from __future__ import annotations

import core


class _Declines:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


class _Answers:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ("handled", func.__name__, [t.__name__ for t in types], len(args), sorted(kwargs or {}))


class _AnswersToo(_Answers):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ("subclass first", [t.__name__ for t in types])


class _LinearOperatorLike:
    """GPyTorch's LinearOperator as torch sees it: no Tensor, a ``__torch_function__`` classmethod."""

    def __init__(self, dense):
        self.dense = dense

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        unwrapped = [a.dense if isinstance(a, cls) else a for a in args]
        return "handled", func.__name__, func(*unwrapped, **(kwargs or {}))


class _Recorder:
    """A tensor-like that answers which function and keyword arguments torch handed it."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func.__name__, sorted(kwargs or {})


class _Identity:
    """A tensor-like that answers the function it was handed, the keyword arguments and how many positional ones."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func, sorted(kwargs or {}), len(args)


class Mean:
    """A tensor-like with no tensor attributes: it answers every call with the function's name."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return func.__name__


class TensorLike:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return "handled"


class CoreTagged(core.Tensor):
    """core's counterpart of ``Tagged``."""


class WithState(core.Tensor):
    def __getstate__(self):
        return {"from_getstate": 1}

    def __setstate__(self, state):
        self.restored = state
