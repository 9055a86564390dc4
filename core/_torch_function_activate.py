"""Turning ``__torch_function__`` dispatch on: the public functions of torch's namespaces, Tensor's methods and its
dispatching properties become ``core._torch_function``'s dispatching wrappers.

Split out of ``core/_torch_function.py``, whose ``activate()`` calls ``install_dispatch`` once, the first time
something needs dispatch; the wrappers themselves, and the code they run, stay there (frame walks and exported
programs' stack traces skip that module and file by name).
"""

from __future__ import annotations

import importlib

from core._c_namespaces import PREFIXES, register
from core._tensor import Tensor
from core._torch_function import (
    DispatchingField,
    DispatchingProperty,
    UnsetGrad,
    _dispatch_in_place,
    _function_wrapper,
    _GradField,
    _plain_types,
)
from core._torch_function_in_place import _copy, _point_at_ops
from core._torch_function_names import (
    _NAMESPACES,
    _OPERATOR_FUNCS,
    _PROPERTIES,
    _SAME_METHODS,
    _WRAPPER_NAMES,
    _namespace_functions,
    _tensor_methods,
)

__all__ = ["install_dispatch"]


def install_dispatch() -> None:
    """Make the public functions and Tensor methods dispatch (``core._torch_function.activate``, once)."""
    _plain_types.add(Tensor)
    ops: dict = {}  # id(function made to dispatch in place) -> (the function, its op copy)

    def install(obj, module: str, name: str, qualname: str, public=None):
        if id(obj) in ops:  # the function already is another public name: a wrapper of its own
            return _function_wrapper(ops[id(obj)][1], module, name, qualname, public)
        op = _copy(obj)
        ops[id(obj)] = (obj, op)
        _dispatch_in_place(obj, op, module, name, qualname, public)
        return obj

    found = [(namespace, name, obj) for namespace in _NAMESPACES
             for name, obj in _namespace_functions(importlib.import_module(namespace))
             if not hasattr(obj, "dispatches")]
    found.sort(key=lambda entry: entry[1] != entry[2].__name__)  # (stable) torch.abs keeps abs, torch.absolute not
    for namespace, name, obj in found:
        prefix = PREFIXES.get(namespace)  # (torch.linalg.inv is linalg_inv: core._c_namespaces)
        public = install(obj, namespace, f"{prefix}_{name}" if prefix else name, f"{prefix}_{name}" if prefix else name)
        if prefix:
            register(prefix, public)
        setattr(importlib.import_module(namespace), name, public)
    originals = _tensor_methods(Tensor)
    same = {alias: name for alias, name in _SAME_METHODS.items()
            if alias in originals and originals.get(name) is originals[alias]}
    methods = {name: install(obj, "core", name, f"Tensor.{name}") for name, obj in originals.items()
               if name not in _OPERATOR_FUNCS and name not in same}
    for name, obj in originals.items():
        if name in _OPERATOR_FUNCS and name not in same:
            methods[name] = install(obj, "core", name, f"Tensor.{name}", public=methods.get(_OPERATOR_FUNCS[name]))
    for alias, name in same.items():
        methods[alias] = methods[name]
    for name, torch_name in _WRAPPER_NAMES.items():
        if name in methods:
            methods[name].__name__ = torch_name
    for name, method in methods.items():
        setattr(Tensor, name, method)
    _dispatching_properties(Tensor)
    _point_at_ops(ops)


def _dispatching_properties(Tensor) -> None:
    """Put a ``DispatchingProperty`` in place of each of torch's dispatching properties ``Tensor`` defines."""
    for name in _PROPERTIES:
        inner = vars(Tensor).get(name, _NO_ATTRIBUTE)
        if inner is _NO_ATTRIBUTE or not (isinstance(inner, property) or isinstance(inner, (bool, type(None)))
                                          or type(inner).__name__ == "_Layout"):
            continue
        setattr(Tensor, name, DispatchingProperty(name, inner))
    aliases = {"_base": None, "_grad": vars(Tensor)["grad"], "_grad_fn": vars(Tensor)["grad_fn"]}
    for name, alias in aliases.items():
        default = vars(Tensor).get(name, _NO_ATTRIBUTE)
        if default is None or type(default) is UnsetGrad:  # (a class default: the value is in the instance's dict)
            field = _GradField if name == "_grad" else DispatchingField
            setattr(Tensor, name, field(name, alias, dispatch_set=name != "_base"))


_NO_ATTRIBUTE = object()
