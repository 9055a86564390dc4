"""Grad-mode switches: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

The mode is thread-local, as in PyTorch: a new thread starts with grad enabled whatever the
thread that started it does. Each switch works as a context manager and as a decorator (bare
``@no_grad`` too, and on generator functions, where the mode holds inside each resumption).
``set_grad_enabled(False)`` called as a plain function sets the mode at once.

Inside ``inference_mode()`` nothing records a graph, even under ``enable_grad()``: ``_state.enabled`` (what ops
read) stays False there, and the grad-mode switches set ``_state.shown``, the mode ``is_grad_enabled()``
reports. The inference tensors the mode makes are ``core.autograd.inference``'s.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading

from core.autograd.shortcuts import state as _shortcuts

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]


class _State(threading.local):
    """Per-thread flags; the class attributes are every new thread's defaults."""

    enabled = True  # ops record a graph
    inference = False
    shown = False  # inside inference mode: the grad mode the switches set, which records nothing


_state = _State()


def is_grad_enabled() -> bool:
    # NOTE: ops ask it in backward passes (grad off): inference mode, which blocks the shortcuts, is looked for
    # behind that plain flag before the thread-local one
    return _state.enabled or (not _shortcuts.ok and _state.inference and _state.shown)


def _set(enabled: bool) -> None:
    _state.enabled = enabled


def is_inference_mode_enabled() -> bool:
    return _state.inference


def _wrap_generator(make_mode, fn):
    """A generator that runs every step of ``fn``'s generator inside a fresh ``make_mode()``."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        gen = fn(*args, **kwargs)
        try:
            with make_mode():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with make_mode():
                        gen.close()
                    raise
                except BaseException:
                    with make_mode():
                        response = gen.throw(*sys.exc_info()[1:2])
                else:
                    with make_mode():
                        response = gen.send(request)
        except StopIteration as stop:
            return stop.value

    return wrapper


class _Mode:
    """Base of the switches: enter sets the mode, exit restores the previous one."""

    _target = True

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses: the class is called with the function itself.
        if cls._bare_ok and len(args) == 1 and not kwargs and callable(args[0]) and not isinstance(args[0], bool):
            mode = object.__new__(cls)
            mode.__init__()
            return mode(args[0])
        return object.__new__(cls)

    _bare_ok = True

    def __call__(self, fn):
        if inspect.isclass(fn):
            raise RuntimeError(f"{type(self).__name__} cannot be used to decorate a class")
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(self.clone, fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        return wrapper

    def _args(self):
        return ()

    _inside = False  # set while this switch holds the mode shown inside inference mode

    def _set(self, enabled: bool) -> None:
        """Set grad mode, keeping what ``_restore`` puts back (inside inference mode: the mode shown)."""
        if _state.inference:
            self._inside = True
            self._prev = _state.shown
            _state.shown = enabled
        else:
            self._prev = _state.enabled
            _state.enabled = enabled

    def _restore(self) -> None:
        if self._inside:
            self._inside = False
            _state.shown = self._prev
        else:
            _state.enabled = self._prev

    # NOTE: ``with no_grad()`` runs once per optimizer step and evaluation batch: _set and _restore inlined,
    # and inference mode (which blocks the shortcuts) looked for behind one plain flag. Blocks nest, so the
    # mode is the same at exit as at enter.
    def __enter__(self):
        if _shortcuts.ok or not _state.inference:
            self._prev = _state.enabled
            _state.enabled = self._target
        else:
            self._set(self._target)
        return None

    def __exit__(self, *exc):
        if _shortcuts.ok or not _state.inference:
            _state.enabled = self._prev
        else:
            self._restore()
        return False

    def clone(self):
        return self.__class__(*self._args())


class no_grad(_Mode):
    """Disable graph recording inside the block (evaluation, parameter updates)."""

    _target = False

    def __init__(self, orig_func=None):
        pass


class enable_grad(_Mode):
    """Enable graph recording inside the block, even within ``no_grad``."""

    _target = True

    def __init__(self, orig_func=None):
        pass


class set_grad_enabled(_Mode):
    """Set grad mode: immediately when called, restored on exit when used with ``with``."""

    _bare_ok = False

    def __init__(self, mode: bool):
        self._target = bool(mode)
        self._set(self._target)

    def _args(self):
        return (self._target,)

    def __call__(self, fn):
        self._restore()  # as a decorator it must not change the mode now
        return super().__call__(fn)

    def __enter__(self):
        return None

    @property
    def mode(self) -> bool:
        return self._target

    def __repr__(self) -> str:  # PyTorch's: its typename and the mode (a notebook cell ending in the call shows it)
        from core._typename import typename

        return f"{typename(self)}(mode={self._target})"


class inference_mode(_Mode):
    """No graph at all inside, and every tensor made there is an inference tensor (``core.autograd.inference``).

    ``mode=False`` turns inference mode off and grad mode on, as PyTorch's ``InferenceMode(false)`` does.
    """

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)
        self._target = None

    def _args(self):
        return (self.mode,)

    def __enter__(self):
        from core.autograd import inference  # it imports ops' machinery, which imports this module

        self._prev = (_state.enabled, _state.inference, _state.shown)
        _state.enabled = not self.mode
        _state.inference = self.mode
        _state.shown = False
        self._undo = inference.begin() if self.mode else None
        return None

    def __exit__(self, *exc):
        if self.mode:
            from core.autograd import inference

            inference.end(self._undo)
        _state.enabled, _state.inference, _state.shown = self._prev
        return False
