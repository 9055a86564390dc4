"""The ``__torch_function__`` protocol for Tensor subclasses, tensor-likes and ``TorchFunctionMode``.

PyTorch checks every call of a public function or Tensor method for arguments whose type overrides
``__torch_function__`` (and for an active ``TorchFunctionMode``) and hands the call to them. Doing that in
every core function would slow the plain-tensor path, so core does it lazily, all here:

- until something needs it, core's functions and Tensor methods are the op functions themselves and plain
  tensors pay nothing;
- ``activate()`` runs once, when the first Tensor subclass that keeps ``__torch_function__`` enabled is
  defined, a ``TorchFunctionMode`` is entered, a MaskedTensor is made or a tensor-like reaches one of the ops
  that look for one where a non-Tensor argument failed (``core.overrides.handle_torch_function``). It replaces
  the public functions of ``torch``, ``torch.nn.functional``, ``torch.linalg``, ``torch.fft`` and
  ``torch.special`` and Tensor's methods and operators with dispatching wrappers: each looks at its arguments
  (one type test per argument for plain tensors) and otherwise calls the op it wraps.
- the wrappers are what ``torch.add``, ``torch.Tensor.add`` are from then on, and what ``__torch_function__``
  receives as ``func``; operators pass the method torch passes (``a + b``: ``torch.Tensor.add``).

Dispatch order is torch's: the innermost mode first (popped while its handler runs), then the overriding
arguments, subclasses before their bases, until one answers something other than ``NotImplemented``.
``DisableTorchFunctionSubclass`` turns argument dispatch off (Tensor's default ``__torch_function__`` runs
the op under it); ``DisableTorchFunction`` turns modes off too.

Tensor properties dispatch as torch's do: once active, reading ``x.shape``, ``x.T``, ``x.grad``... of an
overriding tensor hands ``Tensor.shape.__get__`` (a bound method of the property, equal to but not the same
object at each access, as torch's method-wrapper) the call ``func(x)``; writing ``x.grad``, ``x.data`` or
``x.requires_grad`` hands ``Tensor.grad.__set__`` ``func(x, value)``, and ``del x.grad`` ``Tensor.grad.__delete__``.
The fields ``_base``, ``_grad`` and ``_grad_fn`` (class defaults, set in the instance's ``__dict__``) dispatch
as torch's do once active (``DispatchingField``); core's own reads of a subclass's field then reach its handler
unless they run under the default handler's ``DisableTorchFunctionSubclass``.

Which names dispatch is listed in ``_torch_function_names``, how handlers receive a call's arguments in
``_torch_function_args``, copying an op and re-pointing core's modules at the copies in ``_torch_function_in_place``,
and tensor-like classes turn dispatch on from ``_torch_function_tensor_likes``; ``activate`` puts the wrappers in
place with ``_torch_function_activate``, and ``_torch_function_identity`` tells torch's own functions and handlers,
a wrapper's op and a Tensor subclass apart (re-exported here). What stays here is what runs between
a call and its handler (state, ``dispatch``, the wrappers and the dispatching code they run, the properties and
fields): frame walks skip this module by name as dispatch plumbing (``core._user_warning._WRAPPERS``) and this
file by name (``core.export``'s ``_MACHINERY``), and ``core._tensor`` sets ``_INSTANCE_DICT`` here.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
import types
import warnings

from core import _torch_dispatch
from core._torch_function_args import _hands_defaults
from core._torch_function_identity import check_subclass as check_subclass
from core._torch_function_identity import is_torchs_default as is_torchs_default
from core._torch_function_identity import is_torchs_op as is_torchs_op
from core._torch_function_identity import undispatched as undispatched
from core._torch_function_names import (
    _NOWRAP,
    _SETTERS,
    _TYPE_ERROR_NOT_IMPLEMENTED,
    overridable_functions,
)
from core._user_warning import warn_in_core, warn_user

__all__ = ["DisableTorchFunction", "DisableTorchFunctionSubclass", "DispatchingProperty", "activate", "check_subclass",
           "convert", "dispatch",
           "default_torch_function", "disabled_torch_function_impl", "disabled_torch_dispatch_impl",
           "is_enabled", "mode_stack", "overloaded_args", "overridable_functions", "pop_mode", "push_mode"]


class _State(threading.local):
    """Per thread, as torch keeps it: whether dispatch is on, and the stack of entered modes."""

    def __init__(self):
        self.subclass_enabled = True  # DisableTorchFunctionSubclass clears it
        self.enabled = True  # DisableTorchFunction clears it (modes and arguments)
        self.modes: list = []


_state = _State()
_active = False
_warned = False  # the plain-method __torch_function__ warning was given
_tensor_type = None  # core.Tensor, imported at the first dispatch (core._tensor imports this module)
_classmethod_types: set = set()  # types whose __torch_function__ was seen not to be a plain method (each call's
#                                   getattr_static took ~5 µs of a batched vmap op)
_modes_entered = 0  # modes entered in all threads: while 0, the wrappers skip the mode check
_mode_count = [0]  # the same, boxed for the dispatching code, whose globals are its op module's
_plain_types = {type(None), int, float, bool, complex, str}  # types that never take part (core.Tensor joins)


_PLAIN_METHOD = ("Defining your `__torch_function__` as a plain method is deprecated and will be an error in future, "
                 "please define it as a classmethod.")


class _DisabledImpl:
    """``torch._C._disabled_torch_function_impl``: a class that sets ``__torch_function__`` to it (Parameter)
    does not take part in dispatch; called, it runs ``func`` with argument dispatch off and converts nothing."""

    __slots__ = ("_name",)

    def __init__(self, name: str):
        self._name = name

    def __call__(self, func, types, args=(), kwargs=None):
        with DisableTorchFunctionSubclass():
            return func(*args, **(kwargs or {}))

    def __repr__(self) -> str:
        return f"<built-in function {self._name}>"


disabled_torch_function_impl = _DisabledImpl("_disabled_torch_function_impl")
disabled_torch_dispatch_impl = _DisabledImpl("_disabled_torch_dispatch_impl")


class DisableTorchFunctionSubclass:
    """``torch._C.DisableTorchFunctionSubclass``: inside it, arguments' ``__torch_function__`` is not called
    (modes still are)."""

    def __enter__(self):
        self._saved = _state.subclass_enabled
        _state.subclass_enabled = False
        return self

    def __exit__(self, *exc):
        _state.subclass_enabled = self._saved


class DisableTorchFunction:
    """``torch._C.DisableTorchFunction``: inside it, neither modes nor arguments see calls."""

    def __enter__(self):
        self._saved = (_state.enabled, _state.subclass_enabled)
        _state.enabled = _state.subclass_enabled = False
        return self

    def __exit__(self, *exc):
        _state.enabled, _state.subclass_enabled = self._saved


def is_enabled() -> bool:
    return _state.enabled and _state.subclass_enabled


def mode_stack() -> list:
    """The modes entered in this thread, innermost last (the list itself: modes push and pop on it)."""
    return _state.modes


def _overrides(kind) -> bool:
    impl = getattr(kind, "__torch_function__", None)
    return impl is not None and impl is not disabled_torch_function_impl and not is_torchs_default(impl)


def overloaded_args(values) -> list:
    """The arguments (elements of list and tuple arguments too) whose type overrides ``__torch_function__``,
    one per type, subclasses before their bases."""
    global _tensor_type
    Tensor = _tensor_type
    if Tensor is None:  # NOTE: an import statement here took ~2 µs of every dispatched call
        from core._tensor import Tensor
        _tensor_type = Tensor
    found: list = []
    stack = list(values)
    while stack:
        arg = stack.pop(0)
        kind = type(arg)
        if kind is Tensor or arg is None or kind is int or kind is float or kind is bool:
            continue
        if kind is list or kind is tuple:
            stack[:0] = arg
            continue
        if not _overrides(kind) or any(type(seen) is kind for seen in found):
            continue
        position = next((i for i, seen in enumerate(found) if issubclass(kind, type(seen))), len(found))
        found.insert(position, arg)
    return found


def push_mode(mode) -> None:
    """Enter ``mode`` in this thread (``TorchFunctionMode.__enter__``)."""
    global _modes_entered
    _state.modes.append(mode)
    _modes_entered += 1
    _mode_count[0] = _modes_entered


def pop_mode(mode) -> None:
    """Leave ``mode`` (``TorchFunctionMode.__exit__``)."""
    global _modes_entered
    stack = _state.modes
    if mode in stack:
        del stack[len(stack) - 1 - stack[::-1].index(mode)]
        _modes_entered -= 1
        _mode_count[0] = _modes_entered


def _overloading(arg) -> bool:
    """Whether ``arg`` (a list's or tuple's elements too) takes part in dispatch (``__torch_function__``, or
    ``__torch_dispatch__`` below it); a type that cannot joins ``_plain_types``, which the wrappers test first
    (one set lookup per argument)."""
    kind = type(arg)
    if kind is list or kind is tuple:
        return any(type(a) not in _plain_types and _overloading(a) for a in arg)
    if _overrides(kind) and _state.subclass_enabled:
        return True
    if getattr(kind, "__torch_dispatch__", disabled_torch_dispatch_impl) is not disabled_torch_dispatch_impl:
        return _torch_dispatch.is_dispatch_type(kind)  # (reaches _torch_dispatch.lower below the handlers)
    if _overrides(kind):
        return False
    _plain_types.add(kind)
    return False


def note_dispatch_mode(delta: int) -> None:
    """A ``TorchDispatchMode`` was entered (+1) or left (-1): while one is, the wrappers take every call to
    ``dispatch``, whose bottom hands it to ``core._torch_dispatch``."""
    global _modes_entered
    _modes_entered += delta
    _mode_count[0] = _modes_entered


def dispatch(public, original, args, kwargs, overloaded=None, python_level=False):
    """Run ``public(*args, **kwargs)`` as torch would: the innermost mode, then the overloaded arguments; the
    op itself (``original``) where there is nothing to hand the call to."""
    kwargs = kwargs or {}
    handed = kwargs if python_level else kwargs or None  # torch's C functions and methods hand a call without
    # keywords None, its Python functions (handle_torch_function: einsum, the user's) an empty dict
    state = _state
    if overloaded is None:
        overloaded = overloaded_args((*args, *kwargs.values())) if state.subclass_enabled else []
    types_ = tuple(type(arg) for arg in overloaded)
    if state.modes and state.enabled:
        mode = state.modes.pop()  # NOTE: the handler runs without its own mode, as torch pops it meanwhile
        try:
            result = mode.__torch_function__(public, types_, args, handed)
        finally:
            state.modes.append(mode)
        if result is not NotImplemented:
            return result
    if not overloaded and original is not None:
        if _torch_dispatch.live:  # a TorchDispatchMode or a __torch_dispatch__ subclass: as ATen operators
            return _torch_dispatch.lower(public, original, args, kwargs)
        return original(*args, **kwargs)
    for arg in overloaded:
        if not _warned and type(arg) not in _classmethod_types:
            if isinstance(inspect.getattr_static(type(arg), "__torch_function__", None), types.FunctionType):
                _warn_plain_method()
            else:
                _classmethod_types.add(type(arg))
        result = arg.__torch_function__(public, types_, args, handed)
        if result is not NotImplemented:
            return result
    raise TypeError(_declined_message(public, types_, python_level))


def _warn_plain_method() -> None:
    """torch warns once per process (TORCH_WARN_ONCE) about a ``__torch_function__`` that is no classmethod."""
    global _warned
    _warned = True
    warnings.warn(_PLAIN_METHOD, UserWarning, stacklevel=4)


# ----- activation: the public names become dispatching wrappers ------------------------------------------------


def _function_wrapper(original, module: str, name: str, qualname: str, public=None):
    """A new dispatching function for ``original`` (a second public name of a function that dispatches in place)."""
    with_defaults = _hands_defaults(module, name, qualname)

    def dispatching(*args, **kwargs):
        if not _modes_entered:  # NOTE: the hot path: plain tensors and numbers cost a set lookup each
            for arg in args:
                if type(arg) not in _plain_types and _overloading(arg):
                    break
            else:
                if not kwargs or not any(type(v) not in _plain_types and _overloading(v) for v in kwargs.values()):
                    return original(*args, **kwargs)
        if with_defaults:
            args, kwargs = with_defaults(original, args, kwargs)
        if name in _TYPE_ERROR_NOT_IMPLEMENTED and qualname.startswith("Tensor."):
            try:
                return dispatch(public or dispatching, original, args, kwargs)
            except TypeError:
                return NotImplemented
        return dispatch(public or dispatching, original, args, kwargs)

    functools.update_wrapper(dispatching, original)  # (its __module__ stays the op's: core.ops.elementwise)
    dispatching.dispatches = True  # a wrapper: activate() never wraps it again
    dispatching.__name__, dispatching.__qualname__ = name, qualname
    dispatching.torch_namespace = module  # where resolve_name finds it: core.nn.functional.relu
    return dispatching


# The code an op function takes at activation: ``_function_wrapper``'s, reading what it needs from a hidden
# keyword-only default (its globals are the op module's), inside a closure of as many unused cells as the op
# has (Python gives a function new code only with as many free variables as its closure has cells). Compiled
# as this file's lines, so that tracebacks and the frame walks that skip core's dispatch see this file.
_DISPATCHING_LINE = sys._getframe().f_lineno + 1
_DISPATCHING_BODY = """
def _with_cells({cells}):
    def dispatching(*args, _torch_function_=None, **kwargs):
        if False:
            [{cells}]
        op, handle, plain, overloading, modes, type = _torch_function_
        if not modes[0]:  # NOTE: the hot path, as _function_wrapper's
            for arg in args:
                if type(arg) not in plain and overloading(arg):
                    return handle(args, kwargs)
            if not kwargs:
                return op(*args)
            for value in kwargs.values():
                if type(value) not in plain and overloading(value):
                    return handle(args, kwargs)
            return op(*args, **kwargs)
        return handle(args, kwargs)
    return dispatching.__code__
"""
_dispatching_codes: dict = {}  # number of closure cells -> the code


def _dispatching_code(cells: int) -> types.CodeType:
    code = _dispatching_codes.get(cells)
    if code is None:
        names = [f"cell{i}" for i in range(cells)]
        source = "\n" * (_DISPATCHING_LINE - 1) + _DISPATCHING_BODY.format(cells=", ".join(names))
        namespace: dict = {}
        exec(compile(source, __file__, "exec"), namespace)  # (a fixed template)
        code = _dispatching_codes[cells] = namespace["_with_cells"](*names)
    return code


def _dispatch_in_place(fn: types.FunctionType, op, module: str, name: str, qualname: str, public=None) -> None:
    """Make ``fn`` itself ``_function_wrapper``'s wrapper of ``op`` (its copy): references to ``fn`` taken
    before still name the function, which now dispatches."""
    with_defaults = _hands_defaults(module, name, qualname)
    target = public or fn

    def handle(args, kwargs):
        if with_defaults:
            args, kwargs = with_defaults(op, args, kwargs)
        return dispatch(target, op, args, kwargs)

    if name in _TYPE_ERROR_NOT_IMPLEMENTED and qualname.startswith("Tensor."):
        dispatch_only = handle

        def handle(args, kwargs):  # an operator: a TypeError, the handler's too, is NotImplemented
            try:
                return dispatch_only(args, kwargs)
            except TypeError:
                return NotImplemented

    fn.__code__ = _dispatching_code(len(fn.__code__.co_freevars)).replace(co_name=name, co_qualname=qualname)
    fn.__kwdefaults__ = {"_torch_function_": (op, handle, _plain_types, _overloading, _mode_count, type)}
    fn.__wrapped__ = op  # (inspect.signature and getsource follow it to the op)
    fn.dispatches = True
    fn.__name__, fn.__qualname__ = name, qualname
    fn.torch_namespace = module


# TensorBase's ``__dict__`` slot descriptor (core._tensor sets it): a tensor's real dictionary, where its fields
# live (``Tensor.__dict__`` shows only the user's attributes)
_INSTANCE_DICT = None


class DispatchingProperty:
    """A Tensor property (or class constant, ``is_sparse``) that hands its access to ``__torch_function__``:
    ``func`` is ``Tensor.<name>.__get__`` (``__set__``, ``__delete__``), called as ``func(tensor[, value])``."""

    def __init__(self, name: str, inner):
        self.__name__, self.__qualname__ = name, f"Tensor.{name}"
        self.__doc__ = inner.__doc__ if isinstance(inner, property) else None
        self.undispatched = inner  # the property (or constant) it stands for
        self._property = inner if isinstance(inner, property) else None
        self._constant = None if isinstance(inner, property) else inner
        self.nowrap = name in _NOWRAP
        self._dispatch_set = name in _SETTERS

    def read(self, obj):
        """The property's plain read, without dispatch (what ``__torch_function__`` is handed as ``func``'s body)."""
        return self._constant if self._property is None else self._property.fget(obj)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        if not _modes_entered and (type(obj) in _plain_types or not _overloading(obj)):
            return self.read(obj)  # NOTE: the hot path: a plain tensor reads the property
        return dispatch(self.__get__, self.read, (obj,), {})

    def __set__(self, obj, value):
        if self._property is None:  # a class constant: the instance's own value (as before, in its __dict__)
            _INSTANCE_DICT.__get__(obj)[self.__name__] = value
            return
        if _modes_entered or (type(obj) not in _plain_types and _overloading(obj)):
            if self._dispatch_set:
                dispatch(self.__set__, self._property.__set__, (obj, value), {})
                return
            with DisableTorchFunction():  # NOTE: torch's setter (x.real = v) is C++: nothing inside it dispatches
                self._property.__set__(obj, value)
            return
        self._property.__set__(obj, value)

    def __delete__(self, obj):
        if self._property is None:
            _INSTANCE_DICT.__get__(obj).pop(self.__name__, None)
            return
        if self._property.fdel is not None and self._dispatch_set and (
                _modes_entered or (type(obj) not in _plain_types and _overloading(obj))):
            dispatch(self.__delete__, self._property.__delete__, (obj,), {})
            return
        self._property.__delete__(obj)

    def __repr__(self) -> str:
        return f"<attribute '{self.__name__}' of 'torch._C.TensorBase' objects>"


class DispatchingField(DispatchingProperty):
    """A field core keeps in the tensor's ``__dict__`` (``_base``, ``_grad``, ``_grad_fn``) whose access goes to
    ``__torch_function__`` as torch's getset descriptor's does. torch's ``_grad`` is ``grad`` under another name
    (a handler receives ``Tensor.grad.__get__``, ``__set__``, ``__delete__``) and reading ``_grad_fn`` hands it
    ``Tensor.grad_fn.__get__`` (writing it, ``Tensor._grad_fn.__set__``); ``alias`` is that property. core's own
    reads and writes go through the field too: a plain tensor pays one type test, and nothing before activation
    (the field is a class default then)."""

    def __init__(self, name: str, alias: DispatchingProperty | None, dispatch_set: bool):
        super().__init__(name, None)
        self.nowrap = name == "_base"
        self._dispatch_set = dispatch_set
        self._alias = alias

    def _read(self, obj):
        return _INSTANCE_DICT.__get__(obj).get(self.__name__)

    def _write(self, obj, value):
        _INSTANCE_DICT.__get__(obj)[self.__name__] = value

    def _clear(self, obj):
        _INSTANCE_DICT.__get__(obj).pop(self.__name__, None)

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        if not _modes_entered and (type(obj) in _plain_types or not _overloading(obj)):
            return _INSTANCE_DICT.__get__(obj).get(self.__name__)  # NOTE: the hot path: core's reads of a plain tensor
        return dispatch((self._alias or self).__get__, self._read, (obj,), {})

    def __set__(self, obj, value):
        if self._dispatch_set and (_modes_entered or (type(obj) not in _plain_types and _overloading(obj))):
            public = self._alias.__set__ if self.__name__ == "_grad" else self.__set__  # (torch's _grad_fn.__set__)
            dispatch(public, self._write, (obj, value), {})
            return
        _INSTANCE_DICT.__get__(obj)[self.__name__] = value

    def __delete__(self, obj):
        if self.__name__ == "_grad" and (_modes_entered or (type(obj) not in _plain_types and _overloading(obj))):
            dispatch(self._alias.__delete__, self._clear, (obj,), {})
            return
        _INSTANCE_DICT.__get__(obj).pop(self.__name__, None)


class UnsetGrad:
    """``Tensor._grad``'s class default. A stored gradient is in the tensor's ``__dict__``, which Python reads
    first; a tensor without one reads ``None`` here, and a non-leaf that does not retain its gradient warns when read
    from outside core, as ``grad`` does (torch's ``_grad`` is ``grad`` under another name)."""

    def __get__(self, obj, objtype=None):
        if obj is not None and _INSTANCE_DICT.__get__(obj).get("_grad_fn") is not None:
            _warn_nonleaf_grad(obj, sys._getframe(1))


class _GradField(DispatchingField):
    """``_grad`` once dispatching is active: ``DispatchingField`` with ``UnsetGrad``'s warning."""

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        if not _modes_entered and (type(obj) in _plain_types or not _overloading(obj)):
            value = _INSTANCE_DICT.__get__(obj).get("_grad")  # NOTE: the hot path, as DispatchingField's
            if value is None and _INSTANCE_DICT.__get__(obj).get("_grad_fn") is not None:
                _warn_nonleaf_grad(obj, sys._getframe(1))
            return value
        return dispatch(self._alias.__get__, self._read, (obj,), {})


def _warn_nonleaf_grad(obj, caller) -> None:
    if obj._retains_grad or caller.f_globals.get("__name__", "").split(".")[0] == "core":
        return
    from core._tensor import _NONLEAF_GRAD_WARNING, Tensor  # (core._tensor imports this module)

    if type(obj) is Tensor:
        warn_user(_NONLEAF_GRAD_WARNING)
    else:  # a subclass's goes through Tensor.__torch_function__, so torch's names its _tensor.py
        warn_in_core(_NONLEAF_GRAD_WARNING)


def activate() -> None:
    """Make the public functions and Tensor methods dispatch (once: ``core._torch_function_activate``)."""
    global _active
    if _active:
        return
    _active = True
    from core._torch_function_activate import install_dispatch  # (it imports this module)

    install_dispatch()


# Tensor's default handler and the declined-call message live in their own module (it imports this one's
# DisableTorchFunctionSubclass, so it is imported last); re-exported for core._tensor and dispatch
from core._torch_function_default import _declined_message, convert, default_torch_function  # noqa: E402
