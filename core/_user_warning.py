"""Warnings that name the user's line, as PyTorch's do.

PyTorch raises most of its warnings in C++ and reports them at the Python frame that called into it: the user's
line. Core's equivalents run several Python frames deep inside ``core``, so a fixed ``stacklevel`` names one of
core's files as soon as the call path changes (a method, an ``out=`` wrapper, ``__torch_function__``). These
walk out of core's frames instead. The app's engine (``core.nodegraph``) is a user of core, so its frames count
as the user's.
"""

from __future__ import annotations

import sys
import warnings

__all__ = ["user_stacklevel", "warn_user", "warn_caller", "warn_in_core"]

# the wrappers that stand between a public function and its caller: ``__torch_function__``'s dispatching ones (on
# once a Tensor subclass or mode is seen) and ``out=``'s
_WRAPPERS = frozenset({"core._torch_function", "core._torch_function_default", "core.ops.out_arg",
                       "core.ops.method_out"})


def _is_core(frame) -> bool:
    name = frame.f_globals.get("__name__", "")
    return (name == "core" or name.startswith("core.")) and not name.startswith("core.nodegraph.")


def user_stacklevel() -> int:
    """The ``stacklevel`` for a ``warnings.warn`` made by this function's caller that names the first frame
    outside ``core``."""
    frame, level = sys._getframe(1), 1
    while frame is not None and _is_core(frame):
        frame, level = frame.f_back, level + 1
    return level


def warn_user(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` reported at the first caller outside ``core``."""
    frame, level = sys._getframe(1), 2  # (stacklevel 2: the caller of warn_user)
    while frame is not None and _is_core(frame):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def warn_caller(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` reported at the caller of the public function that warns, as PyTorch's
    Python functions do with ``stacklevel=2``: the user's line when the user called it, a line of core when core
    did (``nn.Dropout2d``'s forward calling ``F.dropout2d``). The frames of the warning's own module (its helpers)
    and of the dispatching wrappers are skipped."""
    frame, level = sys._getframe(1), 2
    here = frame.f_globals.get("__name__")
    while frame is not None and (frame.f_globals.get("__name__") == here
                                 or frame.f_globals.get("__name__") in _WRAPPERS):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def warn_in_core(message: str, category: type[Warning] = UserWarning) -> None:
    """``warnings.warn(message, category)`` reported at the line of ``core`` that calls this: for the warnings
    PyTorch reports inside its own files (its Python code's ``stacklevel`` stops there, or a C++ op warns under a
    Python wrapper such as ``torch.functional``). Like PyTorch's, such a warning then shows once per process, not
    once per calling line, under Python's default filter."""
    warnings.warn(message, category, stacklevel=2)
