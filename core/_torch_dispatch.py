"""``__torch_dispatch__``: ATen operators handed to ``TorchDispatchMode``s and to wrapper subclasses.

In PyTorch a call goes through ``__torch_function__`` first, then the dispatcher turns it into ATen operators
(``F.linear`` into ``aten.t`` and ``aten.addmm``; ``x @ w`` into ``aten.mm``) and each operator reaches the
innermost ``TorchDispatchMode``, then the arguments' ``__torch_dispatch__``, and finally its kernel. Core keeps that
order on top of ``core._torch_function``'s wrappers:

- while no dispatch mode is entered and no argument is a ``__torch_dispatch__`` subclass, nothing here runs (the
  wrappers call the op; ``OpOverload.__call__`` one flag test);
- otherwise ``lower`` turns the torch-level call into ATen calls (``core._aten_plan``) and each ``OpOverload``
  call goes through ``call``: the innermost mode (popped while its handler runs, so ``func(*args)`` inside it
  reaches the next one), then the subclass arguments' handlers, then the kernel: core's op, run ``below`` the
  dispatcher so that the calls it makes inside are not seen again (as ATen's C++ kernels are not).

Autograd is recorded by the kernel, so a mode's results have their ``grad_fn``, and a ``backward()`` inside a mode
shows torch's backward operators (``core._aten_derivatives``). For a wrapper subclass that requires grad, autograd
sits above its handler as in torch: one node per operator, whose backward runs on the wrapper gradients
(``core._dispatch_autograd``).
"""

from __future__ import annotations

import threading

__all__ = ["DisableTorchDispatch", "call", "call_with_types", "dispatch_types", "is_dispatch_type", "is_live",
           "lower", "mode_stack", "pop_mode", "push_mode", "run_below", "subclass_defined"]


class _State(threading.local):
    """Per thread: the entered dispatch modes (innermost last) and how deep core is below the dispatcher."""

    def __init__(self):
        self.modes: list = []
        self.below = 0
        self.handling = 0  # mode handlers running (a saved result's detach is seen only outside them)


_state = _State()
_modes_entered = 0  # dispatch modes entered in all threads
_subclasses = False  # some Tensor subclass overrides __torch_dispatch__
live = False  # either of the two: only then does anything here run


def _refresh() -> None:
    global live
    live = bool(_modes_entered) or _subclasses


def is_live() -> bool:
    return live


def mode_stack() -> list:
    return _state.modes


def push_mode(mode) -> None:
    """Enter ``mode`` (``TorchDispatchMode.__enter__``): the ``__torch_function__`` wrappers go on too, since they
    are where a torch-level call is seen."""
    global _modes_entered
    from core import _torch_function

    _torch_function.activate()
    _state.modes.append(mode)
    _modes_entered += 1
    _torch_function.note_dispatch_mode(+1)
    _refresh()


def pop_mode(mode=None):
    """Leave ``mode`` (the innermost one when None) and give it back."""
    global _modes_entered
    from core import _torch_function

    stack = _state.modes
    if not stack:
        raise AssertionError("Trying to pop from empty mode stack")
    if mode is None:
        mode = stack.pop()
    elif mode in stack:
        del stack[len(stack) - 1 - stack[::-1].index(mode)]
    else:
        return mode
    _modes_entered -= 1
    _torch_function.note_dispatch_mode(-1)
    _refresh()
    return mode


def subclass_defined() -> None:
    """A Tensor subclass overriding ``__torch_dispatch__`` was defined: its instances reach ``lower``."""
    global _subclasses
    from core import _torch_function

    _torch_function.activate()
    _subclasses = True
    _refresh()


def is_dispatch_type(kind) -> bool:
    """Whether instances of ``kind`` take part in ``__torch_dispatch__`` (a Tensor subclass defining it)."""
    from core import _torch_function

    impl = getattr(kind, "__torch_dispatch__", None)
    return impl is not None and impl is not _torch_function.disabled_torch_dispatch_impl and isinstance(kind, type) \
        and hasattr(kind, "_make_wrapper_subclass")


def dispatch_types(values) -> list:
    """The arguments (inside lists, tuples and dicts too) whose type overrides ``__torch_dispatch__``, one per
    type, subclasses before their bases."""
    found: list = []
    stack = list(values)
    while stack:
        arg = stack.pop(0)
        kind = type(arg)
        if kind is list or kind is tuple:
            stack[:0] = arg
            continue
        if kind is dict:
            stack[:0] = arg.values()
            continue
        if kind.__module__ == "builtins" or not is_dispatch_type(kind) or any(type(s) is kind for s in found):
            continue
        position = next((i for i, seen in enumerate(found) if issubclass(kind, type(seen))), len(found))
        found.insert(position, arg)
    return found


class DisableTorchDispatch:
    """``torch._C._DisableTorchDispatch`` (and ``_disable_current_modes``' effect on the calls inside): ops run
    their kernels directly, as below the dispatcher."""

    def __enter__(self):
        _state.below += 1
        return self

    def __exit__(self, *exc):
        _state.below -= 1


def run_below(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` below the dispatcher: nothing it calls reaches a mode or a subclass handler."""
    state = _state
    state.below += 1
    try:
        return fn(*args, **kwargs)
    finally:
        state.below -= 1


def call(op, args, kwargs):
    """Dispatch one ATen operator call: the innermost mode, then the subclass arguments, then the kernel."""
    return call_with_types(op, args, kwargs, None)


def call_with_types(op, args, kwargs, types_):
    """``call``, with the ``types`` a mode is handed given (torch's autograd unpacking a saved result hands
    ``detach`` ``[Tensor]``); None: the argument types that override ``__torch_dispatch__``."""
    state = _state
    kwargs = kwargs or {}
    if state.below:
        return run_below(op.kernel, *args, **kwargs)
    overloaded = dispatch_types((*args, *kwargs.values())) if _subclasses else []
    if types_ is None:
        types_ = tuple(type(a) for a in overloaded)
    if state.modes:
        mode = state.modes.pop()  # NOTE: popped while its handler runs: func(*args) there goes to the next one
        state.handling += 1
        try:
            result = mode.__torch_dispatch__(op, types_, args, kwargs)
        finally:
            state.handling -= 1
            state.modes.append(mode)
        if result is not NotImplemented:
            if not state.handling:
                _saved_result(result)
            return result
    for arg in overloaded:
        if arg is overloaded[0] and _needs_grad(args, kwargs):  # autograd above the handler, as torch's
            from core._dispatch_autograd import apply

            return apply(op, type(arg).__torch_dispatch__, types_, args, kwargs)
        result = type(arg).__torch_dispatch__(op, types_, args, kwargs)
        if result is not NotImplemented:
            return result
    if overloaded:
        listed = "".join(f"\n  - tensor subclass {t}" for t in types_)
        raise TypeError(f"Multiple dispatch failed for '{op.__module__}.{op.__name__}'; all __torch_dispatch__ "
                        f"handlers returned NotImplemented:\n{listed}\n\nFor more information, try re-running "
                        "with TORCH_LOGS=not_implemented")
    return run_below(op.kernel, *args, **kwargs)


def _needs_grad(args, kwargs) -> bool:
    from core._dispatch_autograd import needs_grad

    return needs_grad(args, kwargs)


# nodes that save their result for backward: torch's autograd detaches it as it saves it, which a mode sees
SAVES_RESULT = frozenset({"ReluBackward0", "TanhBackward0", "SigmoidBackward0", "ExpBackward0", "SqrtBackward0",
                           "RsqrtBackward0", "SoftmaxBackward0", "LogSoftmaxBackward0", "MaxBackward1",
                           "MinBackward1", "Exp2Backward0", "ExpM1Backward0", "EluBackward0"})


def _saved_result(result) -> None:
    from core._aten_ops import aten
    from core._tensor import Tensor

    node = getattr(result, "_grad_fn", None) if type(result) is Tensor else None
    if node is not None and node.name() in SAVES_RESULT:
        call_with_types(aten.detach.default, (result,), {}, (Tensor,))


def lower(public, original, args, kwargs):
    """A torch-level call that reached the bottom of ``__torch_function__``: as ATen calls when a dispatch mode is
    entered or a ``__torch_dispatch__`` subclass is among the arguments, else the op itself."""
    state = _state
    if state.below or not (state.modes or (_subclasses and dispatch_types((*args, *kwargs.values())))):
        return original(*args, **kwargs)
    from core._aten_plan import PASS, plan

    steps = plan(public, original, args, kwargs)
    if steps is None:  # metadata (sizes, strides, dtype) and printing: not operators
        return run_below(original, *args, **kwargs)
    if steps is PASS:  # backward(): the operators it runs reach the dispatcher one by one
        return original(*args, **kwargs)
    return steps()
