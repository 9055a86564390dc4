"""``torch.fx.Proxy``: the stand-in value that records what a traced program does with it.

A Proxy wraps a graph node. Python's operators on it add ``operator.*`` calls, attribute reads add
``builtins.getattr`` (or, when called, a ``call_method``), and core's functions and Tensor methods reach
``Proxy.__torch_function__`` through core's ``__torch_function__`` protocol (``core._torch_function``), which adds a
``call_function`` or ``call_method`` node. Using a Proxy's value where Python needs a real one (``if``, ``len``,
iteration other than unpacking) raises torch's errors.
"""

from __future__ import annotations

import collections
import copy
import dis
import inspect
import operator
from typing import Any

from core.fx._codegen import MAGIC_METHODS, REFLECTABLE_MAGIC_METHODS
from core.fx.graph import Graph
from core.fx.node import Node, _name_hint, map_aggregate

__all__ = ["Attribute", "GraphAppendingTracer", "ParameterProxy", "Proxy", "Scope", "TraceError", "TracerBase"]


class TraceError(ValueError):
    pass


class Scope:
    """The module a node was traced in: its path and type."""

    def __init__(self, module_path: str, module_type: Any):
        self.module_path = module_path
        self.module_type = module_type


class TracerBase:
    """What a Proxy needs of a tracer: a graph to add nodes to and how to turn values into arguments."""

    graph: Graph
    trace_asserts = False
    proxy_buffer_attributes = False  # buffers read in forward stay tensors (a get_attr node where they are used)
    module_stack: collections.OrderedDict  # {module key: (path, type)} of the module calls being traced
    scope: Scope
    node_name_to_scope: dict

    def create_node(self, kind: str, target, args: tuple, kwargs: dict, name: str | None = None,
                    type_expr=None) -> Node:
        """Add a node; inside a module call, ``meta['nn_module_stack']`` records the modules it sits in."""
        node = self.graph.create_node(kind, target, args, kwargs, name, type_expr)
        self.node_name_to_scope[node.name] = (self.scope.module_path, self.scope.module_type)
        if self.module_stack:
            node.meta["nn_module_stack"] = copy.copy(self.module_stack)
        return node

    def proxy(self, node: Node) -> Proxy:
        return Proxy(node, self)

    def create_proxy(self, kind: str, target, args: tuple, kwargs: dict, name: str | None = None,
                     type_expr=None, proxy_factory_fn=None) -> Proxy:
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if proxy_factory_fn is None else proxy_factory_fn(node)

    def create_arg(self, a: Any) -> Any:
        """A value as a node argument: proxies become their nodes, containers are walked (a tuple keeps its type:
        a ``torch.Size`` stays one), a dataclass becomes a call of its class; other values must be literals."""
        import dataclasses
        import enum

        import core

        if isinstance(a, Proxy):
            return a.node
        if hasattr(a, "__fx_create_arg__"):
            return a.__fx_create_arg__(self)
        if isinstance(a, tuple):
            items = [self.create_arg(elem) for elem in a]
            return type(a)(*items) if hasattr(a, "_fields") else type(a)(items)
        if isinstance(a, list):
            return [self.create_arg(elem) for elem in a]
        if isinstance(a, dict):
            out = {}
            for k, v in a.items():
                if isinstance(self.create_arg(k), Node):
                    raise RuntimeError(f"Keys for dictionaries used as an argument cannot contain a Node. Got key: {k}")
                out[k] = self.create_arg(v)
            return out
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if dataclasses.is_dataclass(a) and not isinstance(a, type):
            kwargs = {f.name: self.create_arg(getattr(a, f.name)) for f in dataclasses.fields(a)}
            return self.create_node("call_function", a.__class__, (), kwargs)
        literals = (str, int, float, bool, complex, enum.Enum, Node, core.dtype, core.Tensor, core.device,
                    core.memory_format, core.layout)
        if isinstance(a, literals) or a is None or a is ...:
            return a
        raise NotImplementedError(f"argument of type: {type(a)}")

    def to_bool(self, obj: Proxy) -> bool:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def iter(self, obj: Proxy):
        raise TraceError("Proxy object cannot be iterated. This can be attempted when the Proxy is used in a loop or"
                         " as a *args or **kwargs function argument. See the torch.fx docs on pytorch.org for a more "
                         "detailed explanation of what types of control flow can be traced, and check out the Proxy "
                         "docstring for help troubleshooting Proxy iteration errors")

    def keys(self, obj: Proxy) -> Proxy:
        return self.create_proxy("call_method", "keys", (obj,), {})


class GraphAppendingTracer(TracerBase):
    """The tracer of a Proxy made around a node by hand: it appends to the node's graph."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.scope = Scope("", None)
        self.module_stack = collections.OrderedDict()
        self.node_name_to_scope = {}


class Proxy:
    """A node standing in for a value while tracing (see the module docstring)."""

    def __init__(self, node: Node, tracer: TracerBase | None = None):
        self.tracer = tracer if tracer is not None else GraphAppendingTracer(node.graph)
        self.node = node

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"

    def __getattr__(self, k: str) -> Attribute:
        if k.startswith("__") and k.endswith("__"):
            raise AttributeError(k)  # copy, pickle and inspect probe dunders; they are no tensor attributes
        return Attribute(self, k)

    def __call__(self, *args, **kwargs) -> Proxy:
        return self.tracer.create_proxy("call_method", "__call__", (self, *args), kwargs)

    def __iter__(self):
        caller = inspect.currentframe().f_back
        for inst in dis.get_instructions(caller.f_code):
            if inst.offset == caller.f_lasti and inst.opname == "UNPACK_SEQUENCE":
                return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)

    def __abs__(self) -> Proxy:
        return self.tracer.create_proxy("call_function", operator.abs, (self,), {})

    def __bool__(self) -> bool:
        return self.tracer.to_bool(self)

    def keys(self) -> Proxy:
        return self.tracer.keys(self)

    def __len__(self) -> int:
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call to be "
                           "recorded, please call torch.fx.wrap('len') at module scope")

    @classmethod
    def __torch_function__(cls, orig_method, types, args=(), kwargs=None):
        args = args or ()
        kwargs = kwargs or {}
        tracers: dict = {}

        def find_tracer(a):
            if isinstance(a, cls):
                tracers[a.tracer] = None
            return a

        map_aggregate((args, kwargs), find_tracer)
        if len(tracers) > 1:
            raise RuntimeError(f"Found multiple different tracers {list(tracers)} while trying to trace operations "
                               f"{orig_method}")
        tracer = next(iter(tracers))
        if _is_tensor_method(orig_method):
            return tracer.create_proxy("call_method", orig_method.__name__, args, kwargs)
        return tracer.create_proxy("call_function", orig_method, args, kwargs,
                                   name=tracer.graph._target_to_str(_name_hint(orig_method)))


def _is_tensor_method(func) -> bool:
    from core.overrides import is_tensor_method_or_property

    return is_tensor_method_or_property(func)


class ParameterProxy(Proxy):
    """A proxy for a module's parameter (``Tracer(param_shapes_constant=True)``) whose ``shape``, ``size()``,
    ``dim()``, ``ndim``, ``numel()`` and ``nelement()`` are the parameter's own, so code branching on them traces."""

    def __init__(self, tracer: TracerBase, node: Node, name: str, param):
        super().__init__(node, tracer)
        import core

        if not isinstance(param, core.nn.Parameter):
            raise AssertionError(f"Expected Parameter, got {type(param)}")
        self.param = param
        self.name = name

    def __repr__(self) -> str:
        return f"ParameterProxy({self.name})"

    @property
    def shape(self):
        return self.param.shape

    def size(self):
        return self.param.size()

    def dim(self) -> int:
        return self.param.dim()

    @property
    def ndim(self) -> int:
        return self.param.ndim

    def numel(self) -> int:
        return self.param.numel()

    def nelement(self) -> int:
        return self.param.nelement()


class Attribute(Proxy):
    """``proxy.attr``: a ``getattr`` node when used as a value, a ``call_method`` node when called."""

    def __init__(self, root: Proxy, attr: str):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node: Node | None = None

    @property
    def node(self) -> Node:
        if self._node is None:
            self._node = self.tracer.create_proxy("call_function", getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs) -> Proxy:
        return self.tracer.create_proxy("call_method", self.attr, (self.root, *args), kwargs)


def _define_magic(method: str) -> None:
    def impl(*args, **kwargs):
        return args[0].tracer.create_proxy("call_function", getattr(operator, method), args, kwargs)

    impl.__name__ = method
    setattr(Proxy, f"__{method.strip('_')}__", impl)


def _define_reflectable(method: str) -> None:
    name = f"__r{method.strip('_')}__"

    def impl(self, rhs):
        return self.tracer.create_proxy("call_function", getattr(operator, method), (rhs, self), {})

    impl.__name__ = impl.__qualname__ = name
    setattr(Proxy, name, impl)


for _method in MAGIC_METHODS:
    _define_magic(_method)
for _method in REFLECTABLE_MAGIC_METHODS:
    _define_reflectable(_method)
