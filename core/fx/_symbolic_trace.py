"""``torch.fx.Tracer``, ``symbolic_trace`` and ``wrap``: record a module's ``forward`` as a Graph.

Tracing calls ``forward`` once with Proxies for its inputs. While it runs, ``Module.__call__`` and
``Module.__getattr__`` are patched (and restored after, even on error): a call of a leaf module (core's and torch's
``nn`` modules but ``Sequential``, unless ``is_leaf_module`` says otherwise) becomes one ``call_module`` node, other
modules are traced through, and reading a parameter gives a ``get_attr`` node (a buffer stays a tensor, which
becomes a ``get_attr`` node where an op uses it; ``proxy_buffer_attributes`` makes it one at once, as in torch).
Functions named by ``wrap``, and ``math``'s, are recorded as ``call_function`` nodes instead of being run.
``concrete_args`` fixes inputs to values (a placeholder is still made, with torch's check that the value holds).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import inspect
import math
import types
from typing import Any, Callable

from core.fx.graph import Graph
from core.fx.node import map_aggregate
from core.fx.proxy import ParameterProxy, Proxy, Scope, TracerBase

__all__ = ["PH", "Tracer", "symbolic_trace", "wrap"]

_wrapped: dict[tuple[int, str], dict] = {}  # (id of the calling module's globals, name): those globals
_is_fx_tracing = False


class _PH:
    """``torch.fx.PH``: in ``concrete_args``, an input that stays a placeholder."""

    def __repr__(self) -> str:
        return "PH"


PH = _PH()


def is_fx_tracing() -> bool:
    return _is_fx_tracing


def _assert_is_none(value, msg: str) -> None:
    if value is not None:
        raise AssertionError(msg)


def wrap(fn_or_name):
    """Record calls of this module-level function as ``call_function`` nodes instead of tracing into it
    (call at module scope, with the function or its name)."""
    if not callable(fn_or_name) and not isinstance(fn_or_name, str):
        raise RuntimeError("Unsupported type for global function! Must be either a callable or string name")
    name = fn_or_name if isinstance(fn_or_name, str) else fn_or_name.__name__
    caller = inspect.currentframe().f_back
    if caller.f_code.co_name != "<module>":
        raise NotImplementedError("wrap must be called at the top level of a module")
    _wrapped[(id(caller.f_globals), name)] = caller.f_globals
    return fn_or_name


def _wrapped_function(orig: Callable) -> Callable:
    @functools.wraps(orig)
    def wrapped(*args, **kwargs):
        found: list[Proxy] = []
        map_aggregate((args, kwargs), lambda a: found.append(a) if isinstance(a, Proxy) else None)
        if found:
            proxy = found[0].tracer.create_proxy("call_function", orig, args, kwargs)
            proxy.node.meta["is_wrapped"] = True
            return proxy
        return orig(*args, **kwargs)

    return wrapped


class Tracer(TracerBase):
    """Turns a module or function into a :class:`Graph` (see the module docstring)."""

    def __init__(self, autowrap_modules=(math,), autowrap_functions=(), param_shapes_constant: bool = False):
        # functions of these modules (math.sqrt...) are recorded when a Proxy reaches them, as wrap()'s are
        self._autowrap_function_ids = {id(value) for module in autowrap_modules for name, value in vars(module).items()
                                       if not name.startswith("_") and callable(value)}
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.traced_func_name = "forward"
        self.root = None
        self.submodule_paths: dict | None = None
        self.scope = Scope("", None)
        self.module_stack = collections.OrderedDict()
        self.num_calls: dict[str, int] = {}
        self.node_name_to_scope: dict = {}

    # -- hooks a subclass may override ------------------------------------------------------------------------
    def is_leaf_module(self, m, module_qualified_name: str) -> bool:
        """core's and torch's ``nn`` modules are leaves, ``Sequential`` is traced through."""
        from core import nn

        leaf_prefixes = ("core.nn", "core.ao.nn", "torch.nn", "torch.ao.nn")
        return type(m).__module__.startswith(leaf_prefixes) and not isinstance(m, nn.Sequential)

    def path_of_module(self, mod) -> str:
        if self.submodule_paths is not None:
            path = self.submodule_paths.get(mod)
            if path is not None:
                return path
        for name, sub in self.root.named_modules():
            if sub is mod:
                return name
        raise NameError("module is not installed as a submodule")

    def call_module(self, m, forward: Callable, args: tuple, kwargs: dict) -> Any:
        """A leaf becomes one ``call_module`` node; other modules are traced through (in their scope)."""
        path = self.path_of_module(m)
        saved_scope, self.scope = self.scope, Scope(path, type(m))
        calls = self.num_calls.get(path, 0)
        key = f"{path}@{calls}" if calls > 0 else path
        self.module_stack[key] = (path, type(m))
        self.num_calls[path] = calls + 1
        try:
            if not self.is_leaf_module(m, path):
                return forward(*args, **kwargs)
            return self.create_proxy("call_module", path, args, kwargs)
        finally:
            self.module_stack.pop(key, None)
            self.scope = saved_scope

    def getattr(self, attr: str, attr_val, parameter_proxy_cache: dict) -> Any:
        """Parameters (and, with ``proxy_buffer_attributes``, buffers) read during tracing become ``get_attr``
        nodes, one per name."""
        import core

        stores = []
        if isinstance(attr_val, core.nn.Parameter):
            stores.append(self.root.named_parameters)
        if self.proxy_buffer_attributes and isinstance(attr_val, core.Tensor):
            stores.append(self.root.named_buffers)
        for store in stores:
            for name, value in store():
                if value is attr_val:
                    if name not in parameter_proxy_cache:
                        kwargs = {}  # as torch: only a create_proxy that takes it gets proxy_factory_fn (an override
                        if "proxy_factory_fn" in inspect.signature(self.create_proxy).parameters:  # may not)
                            factory = None  # with param_shapes_constant a parameter's shape reads as the parameter's
                            if self.param_shapes_constant and store == self.root.named_parameters:
                                def factory(node, name=name, value=value):
                                    return ParameterProxy(self, node, name, value)
                            kwargs["proxy_factory_fn"] = factory
                        parameter_proxy_cache[name] = self.create_proxy("get_attr", name, (), {}, **kwargs)
                    return parameter_proxy_cache[name]
        return attr_val

    def get_fresh_qualname(self, prefix: str) -> str:
        i = 0
        while hasattr(self.root, f"{prefix}{i}"):
            i += 1
        return f"{prefix}{i}"

    def create_arg(self, a: Any) -> Any:
        """Parameters, buffers and submodules as ``get_attr`` nodes; other tensors as new constants."""
        import core

        if isinstance(a, core.nn.Parameter):
            for name, p in self.root.named_parameters():
                if a is p:
                    return self.create_node("get_attr", name, (), {})
            raise NameError("parameter is not a member of this module")
        if isinstance(a, core.Tensor):
            for name, b in self.root.named_buffers():
                if a is b:
                    return self.create_node("get_attr", name, (), {})
        if isinstance(a, core.nn.Module):
            for name, m in self.root.named_modules():
                if a is m:
                    return self.create_node("get_attr", name, (), {})
        if isinstance(a, core.Tensor):
            qualname = next((name for value, name in self.tensor_attrs if value is a), None)
            if qualname is None:
                qualname = self.get_fresh_qualname("_tensor_constant")
                self.tensor_attrs.append((a, qualname))
                setattr(self.root, qualname, a)
            return self.create_node("get_attr", qualname, (), {})
        return super().create_arg(a)

    # -- tracing ----------------------------------------------------------------------------------------------
    def trace(self, root, concrete_args: dict | None = None) -> Graph:
        """The graph of ``root``'s ``forward`` (or of the function ``root``)."""
        global _is_fx_tracing
        import core
        from core import _torch_function

        _torch_function.activate()  # core's functions hand Proxies to Proxy.__torch_function__ from now on
        if isinstance(root, core.nn.Module):
            self.root = root
            fn = getattr(type(root), self.traced_func_name)
            self.submodule_paths = {mod: name for name, mod in root.named_modules()}
        else:
            self.root = core.nn.Module()
            fn = root
        self.graph = Graph(tracer_cls=type(self))
        self.tensor_attrs: list = []
        self._collect_tensor_attrs(self.root, [])
        saved, _is_fx_tracing = _is_fx_tracing, True
        try:
            fn_globals = fn.__globals__
            fn, args = self._placeholders(fn, isinstance(root, core.nn.Module), concrete_args)
            with self._patched(core.nn.Module, fn_globals):
                result = fn(*args)
            self.create_node("output", "output", (self.create_arg(result),), {},
                             type_expr=fn.__annotations__.get("return", None))
        finally:
            _is_fx_tracing = saved
            self.submodule_paths = None
        return self.graph

    def _collect_tensor_attrs(self, m, prefix: list[str]) -> None:
        import core

        for k, v in m.__dict__.items():
            if isinstance(v, core.Tensor):
                self.tensor_attrs.append((v, ".".join([*prefix, k])))
        for k, child in m.named_children():
            self._collect_tensor_attrs(child, [*prefix, k])

    @contextlib.contextmanager
    def _patched(self, module_cls, fn_globals: dict):
        orig_getattr, orig_call = module_cls.__getattr__, module_cls.__call__
        cache: dict = {}
        patched: list = []  # (dict, name, original value), restored in reverse
        visited: set[int] = set()

        def patch(globs: dict, name: str) -> None:
            patched.append((globs, name, globs[name]))
            globs[name] = _wrapped_function(globs[name])

        def autowrap(globs: dict) -> None:
            if id(globs) in visited:
                return
            visited.add(id(globs))
            for name, value in list(globs.items()):
                if not name.startswith("_") and callable(value) and id(value) in self._autowrap_function_ids:
                    patch(globs, name)

        def module_getattr(mod, attr):
            return self.getattr(attr, orig_getattr(mod, attr), cache)

        def module_call(mod, *args, **kwargs):
            autowrap(getattr(getattr(mod, "forward", mod), "__globals__", {}))
            return self.call_module(mod, lambda *a, **k: orig_call(mod, *a, **k), args, kwargs)

        for (_, name), globs in _wrapped.items():
            if name in globs and callable(globs[name]):
                patch(globs, name)
        autowrap(fn_globals)
        for module in self._autowrap_search:
            autowrap(vars(module))
        module_cls.__getattr__, module_cls.__call__ = module_getattr, module_call
        try:
            yield
        finally:
            module_cls.__getattr__, module_cls.__call__ = orig_getattr, orig_call
            for globs, name, orig in reversed(patched):
                globs[name] = orig

    def _placeholders(self, fn: Callable, is_module: bool, concrete_args) -> tuple[Callable, list]:
        """Placeholders for ``fn``'s parameters, in its code's order (keyword-only ones follow the positional
        ones, then ``*args`` and ``**kwargs``, as torch's are); ``fn`` rewritten to take them all positionally
        when it has any of the last three."""
        code = inspect.unwrap(fn).__code__
        sig = inspect.signature(fn)
        names = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
        args: list = []
        if is_module:
            names = names[1:]
            args.append(self.root)
        if isinstance(concrete_args, tuple):
            if len(names) != len(concrete_args):
                raise RuntimeError(f"Tracing expected {len(names)} arguments but got {len(concrete_args)} "
                                   "concrete arguments")
            concrete_args = dict(zip(names, concrete_args))
        for name in names:
            default = sig.parameters[name].default
            default = () if default is inspect.Parameter.empty else (default,)
            if concrete_args is not None and name in concrete_args:
                args.append(self._concrete(name, default, concrete_args[name]))
                continue
            args.append(self.create_proxy("placeholder", name, default, {},
                                          type_expr=fn.__annotations__.get(name, None)))
        varstuff = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS
        if code.co_kwonlyargcount or code.co_flags & varstuff:
            extra = len(names) + (1 if is_module else 0)
            if code.co_flags & inspect.CO_VARARGS:
                args.append(self.create_proxy("placeholder", "*" + code.co_varnames[extra], (), {}))
                extra += 1
            if code.co_flags & inspect.CO_VARKEYWORDS:
                args.append(self.create_proxy("placeholder", "**" + code.co_varnames[extra], (), {}))
            flat = code.replace(co_argcount=len(args), co_kwonlyargcount=0, co_flags=code.co_flags & ~varstuff)
            fn = types.FunctionType(flat, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)
        return fn, args

    def _concrete(self, name: str, default: tuple, value):
        out = self.create_proxy("placeholder", f"{name}_1", default, {})
        if value is PH:
            return out
        if value is None:
            msg = f"{name} has been specialized to have value None but got another value"
            self.create_proxy("call_function", _assert_is_none, (out, msg), {})
        elif type(value) in (bool, int, float, str):
            msg = f"{name} has been specialized to have value {value} but got another value"
            import core

            self.create_proxy("call_function", core._assert, (out == value, msg), {})
        return value


def symbolic_trace(root, concrete_args: dict | None = None):
    """Trace ``root`` (a module or function) into a :class:`GraphModule`."""
    import core
    from core.fx.graph_module import GraphModule

    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, core.nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)
