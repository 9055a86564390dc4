"""``torch.overrides``: the ``__torch_function__`` protocol's helpers that library code calls, and modes.

Functions written against PyTorch's protocol start with ``if has_torch_function(args): return
handle_torch_function(f, args, ...)``. Plain tensors (and Parameters) define no overriding
``__torch_function__``, so for them the check is False and the function runs on; an object whose class overrides
it (a Tensor subclass or a tensor-like) gets the call handed to it as PyTorch does: an entered
``TorchFunctionMode`` first, then subclasses before their bases; the first answer that is not ``NotImplemented``
wins, and a TypeError when every one declines. The dispatch itself, and how core's own functions take part,
is ``core._torch_function``'s.
"""

import contextlib
import functools
import inspect as _inspect
import types

from core import _testing_overrides, _torch_function
from core._c_namespaces import PREFIXES as _PREFIXES
from core._tensor import Tensor as _Tensor

__all__ = ["BaseTorchFunctionMode", "TorchFunctionMode", "enable_reentrant_dispatch", "get_default_nowrap_functions",
           "get_ignored_functions", "get_overridable_functions", "get_testing_overrides", "handle_torch_function",
           "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic", "is_tensor_like",
           "is_tensor_method_or_property", "resolve_name", "wrap_torch_function"]


_PUBLIC_PACKAGES = ("core.nn.functional", "core.nn.init", "core.linalg", "core.fft", "core.special")
_C_MODULES = {f"core._C._{prefix}": package for package, prefix in _PREFIXES.items()}  # where their functions live


def _overrides(obj) -> bool:
    kind = type(obj)
    if kind is _Tensor or not _torch_function.is_enabled():
        return False
    impl = getattr(kind, "__torch_function__", None)
    return impl is not None and impl is not _torch_function.disabled_torch_function_impl and \
        not _torch_function.is_torchs_default(impl)


def _mode_on() -> bool:
    return bool(_torch_function.mode_stack()) and _torch_function._state.enabled


def has_torch_function(relevant_args) -> bool:
    return _mode_on() or any(_overrides(a) for a in relevant_args)


def has_torch_function_unary(obj) -> bool:
    return _mode_on() or _overrides(obj)


def has_torch_function_variadic(*args) -> bool:
    return _mode_on() or any(_overrides(a) for a in args)


def is_tensor_like(inp) -> bool:
    return type(inp) is _Tensor or hasattr(type(inp), "__torch_function__")


def is_tensor_method_or_property(func) -> bool:
    """Whether ``func`` is a Tensor method (``torch.Tensor.add``) rather than a function (``torch.add``)."""
    return getattr(func, "__qualname__", "").startswith("Tensor.") or getattr(func, "__name__", None) == "__get__"


def resolve_name(f) -> str | None:
    """``torch.add``, ``torch.Tensor.add``, ``torch.nn.functional.relu``: PyTorch's dotted name of ``f``."""
    owner = getattr(f, "__self__", None)  # Tensor.grad.__get__: a dispatching property's accessor
    if isinstance(owner, _torch_function.DispatchingProperty):
        return f"torch.{owner.__qualname__}.{f.__name__}"
    qualname = getattr(f, "__qualname__", None)
    if qualname is None:
        return None
    if qualname.startswith("Tensor."):
        return f"torch.{qualname}"
    module = getattr(f, "torch_namespace", None) or getattr(f, "__module__", None) or ""  # (a dispatching wrapper's)
    module = _C_MODULES.get(module, module)  # torch.linalg.inv is core._C._linalg.linalg_inv while dispatch is off
    if module != "core" and not module.startswith("core."):
        return None  # not a torch function (torch's answer for one of the user's)
    package = next((p for p in _PUBLIC_PACKAGES if module == p or module.startswith(p + ".")), "core")
    prefix = _PREFIXES.get(package)
    if prefix:  # torch.linalg.inv, whose own name is linalg_inv
        qualname = qualname.removeprefix(f"{prefix}_")
    return f"torch{package[len('core'):]}.{qualname}"  # core.ops.elementwise.add is torch.add


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Hand ``public_api(*args, **kwargs)`` to the entered mode, then to the ``__torch_function__`` of the
    tensor-likes among ``relevant_args``: subclasses first, then in argument order, until one does not return
    NotImplemented. From the first call on, core's own functions dispatch too (``core._torch_function``)."""
    _torch_function.activate()
    overloaded = _torch_function.overloaded_args(relevant_args) if _torch_function.is_enabled() else []
    return _torch_function.dispatch(public_api, None, args, kwargs, overloaded, python_level=True)


def _given_out(out) -> dict:
    """``out=out`` as torch's argument parser hands it to ``__torch_function__``: only when the caller gave one (a
    handler whose method takes no ``out``, GPyTorch's ``LinearOperator.abs``, is never handed ``out=None``)."""
    return {} if out is None else {"out": out}


def wrap_torch_function(dispatcher):
    """A decorator that makes a function take part in the protocol: ``dispatcher(*args, **kwargs)`` names the
    arguments whose ``__torch_function__`` may take the call."""
    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant_args = dispatcher(*args, **kwargs)
            if has_torch_function(relevant_args):
                return handle_torch_function(wrapped, relevant_args, *args, **kwargs)
            return func(*args, **kwargs)

        return wrapped

    return inner


class TorchFunctionMode:
    """``torch.overrides.TorchFunctionMode``: inside ``with mode:``, every torch function and Tensor method call
    goes to ``mode.__torch_function__(func, types, args, kwargs)`` (the mode is left while its handler runs)."""

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _torch_function.activate()
        _torch_function.push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _torch_function.pop_mode(self)

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode whose handler runs the call unchanged (subclass it and override what you need)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _get_current_function_mode():
    stack = _torch_function.mode_stack()
    return stack[-1] if stack else None


def _get_current_function_mode_stack() -> list:
    return list(_torch_function.mode_stack())


@contextlib.contextmanager
def enable_reentrant_dispatch():
    """torch's guard for re-entering the dispatcher from Python; core has no dispatcher below Python."""
    yield


def get_overridable_functions() -> dict:
    """``{namespace: [function, ...]}``: the functions and Tensor methods that ``__torch_function__`` sees
    (``torch``, ``torch.nn.functional``, ``torch.linalg``, ``torch.fft``, ``torch.special``, ``torch.Tensor``)."""
    return _torch_function.overridable_functions()


def get_default_nowrap_functions() -> set:
    """The accessors whose result ``Tensor.__torch_function__`` hands back as it is, not as the subclass:
    ``Tensor._base.__get__``, ``Tensor.grad.__get__`` and ``Tensor._grad.__get__``."""
    _torch_function.activate()  # (the accessors a handler receives are the dispatching properties')
    return {_Tensor._base.__get__, _Tensor.grad.__get__, _Tensor._grad.__get__}


def _is_factory(func) -> bool:
    module = getattr(func, "__wrapped__", func).__module__
    return module in ("core._factories", "core._random_factories", "core.ops.windows") and \
        not func.__name__.endswith("_like")


def get_ignored_functions() -> set:
    """The public callables that tensor arguments cannot override: factories (``torch.zeros``) and the
    utilities (``torch.is_tensor``, ``torch.set_default_dtype``...)."""
    import core

    overridable = get_overridable_functions()
    wrapped = {id(f) for fs in overridable.values() for f in fs}
    ignored = set()
    for namespace in overridable:
        if namespace is _Tensor:
            continue
        for name in dir(namespace):
            obj = getattr(namespace, name)
            if name.startswith("_") or isinstance(obj, (type, types.ModuleType)) or not callable(obj):
                continue
            if id(obj) not in wrapped or _is_factory(obj):
                ignored.add(obj)
    ignored.discard(core.Tensor)
    return ignored


def get_testing_overrides() -> dict:
    """``{function: dummy}``: for every overridable function a dummy with the signature PyTorch's hand-written
    table gives it (``torch.add``: ``(input, other, out=None)``) that returns -1; core's functions that table does
    not list get their own signature. It turns core's dispatch on: the keys are what ``torch.add`` and
    ``torch.Tensor.add`` are from then on (two objects, as in torch, where core's op behind both is one)."""
    _torch_function.activate()
    dummies = {}
    for name, text in _testing_overrides.signatures().items():
        func = _testing_overrides.torch_named(name)
        if func is not None:
            dummies[func] = _testing_overrides.dummy(text)
    ignored = get_ignored_functions()
    for functions in get_overridable_functions().values():
        for func in functions:
            if func in ignored or func in dummies:
                continue
            dummy = lambda *args, **kwargs: -1  # noqa: E731
            try:
                dummy.__signature__ = _inspect.signature(func)
            except (TypeError, ValueError):
                pass
            dummies[func] = dummy
    return dummies
