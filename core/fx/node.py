"""``torch.fx.Node``: one operation of an FX graph, and the helpers that walk a node's arguments.

A node records ``op`` (``placeholder``, ``get_attr``, ``call_function``, ``call_method``, ``call_module`` or
``output``), its ``target``, ``args`` and ``kwargs`` (which may hold other nodes), a unique ``name`` and a ``meta``
dict. Nodes keep their use lists in step with their arguments: setting ``args`` or ``kwargs`` updates the
``users`` of the nodes they mention. A graph's nodes form a doubly linked list in execution order (``prev``/``next``).
Targets print as torch prints them (``torch.relu``, ``operator.add``, ``builtins.getattr``).
"""

from __future__ import annotations

import builtins
import re
import sys
import types
from typing import Any, Callable

from core._torch_function_args import TORCH_C_FUNCTIONAL

__all__ = ["Argument", "Node", "Target", "has_side_effect", "map_arg", "map_aggregate"]

Target = Any  # a node's target: a callable for call_function, a name otherwise (torch.fx.node.Target)
Argument = Any  # what node arguments hold: nodes, literals and containers of them (torch.fx.node.Argument)
_side_effectful: set = set()  # functions has_side_effect marked: dead-code elimination keeps their calls


def has_side_effect(fn: Callable) -> Callable:
    """Mark ``fn`` so that dead-code elimination keeps its calls though nothing uses their results."""
    _side_effectful.add(fn)
    return fn

_RANDOM_FUNCTIONS = frozenset(f"torch.{name}" for name in (
    "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "randint_like", "normal", "poisson",
    "bernoulli", "multinomial"))
_CORE_PREFIX = re.compile(r"\bcore\.")
_OPS = ("placeholder", "call_method", "call_module", "call_function", "get_attr", "output", "root")


def map_aggregate(a: Any, fn: Callable[[Any], Any]) -> Any:
    """Apply ``fn`` to every leaf of ``a`` (tuples, named tuples, lists, dicts and slices are walked)."""
    if isinstance(a, tuple):
        items = tuple(map_aggregate(elem, fn) for elem in a)
        return type(a)(*items) if hasattr(a, "_fields") else items
    if isinstance(a, list):
        return [map_aggregate(elem, fn) for elem in a]
    if isinstance(a, dict):
        return {k: map_aggregate(v, fn) for k, v in a.items()}
    if isinstance(a, slice):
        return slice(map_aggregate(a.start, fn), map_aggregate(a.stop, fn), map_aggregate(a.step, fn))
    return fn(a)


def map_arg(a: Any, fn: Callable[[Node], Any]) -> Any:
    """Apply ``fn`` to every Node in ``a``, leaving other values as they are."""
    return map_aggregate(a, lambda x: fn(x) if isinstance(x, Node) else x)


def _typename(obj) -> str:
    from core import typename

    return _torch_module_name(typename(obj)) if isinstance(obj, type) else typename(obj)


def _qualified_name(func) -> str:
    """The name torch prints for a callable: ``getattr``, ``torch.relu``, ``torch.nn.functional.relu``,
    ``torch.Tensor.add`` for core's functions, ``module.name`` for others."""
    from core._aten_ops import OpOverload, OpOverloadPacket
    from core._library import custom_ops
    from core.overrides import resolve_name

    if isinstance(func, (OpOverload, OpOverloadPacket, custom_ops.OpOverload, custom_ops.OpOverloadPacket)):
        # torch.ops.aten.linear.default, torch.ops.mylib.sin.default
        return f"torch.ops.{func}"
    name = getattr(func, "__name__", None) or repr(func)
    if getattr(builtins, name, None) is func:
        return name
    module = getattr(func, "__module__", None) or ""
    if module.startswith("core._C._") and getattr(sys.modules.get(module), name, None) is func:
        return f"torch{module[len('core'):]}.{name}"  # torch._C._linalg.linalg_norm (core._c_namespaces)
    resolved = resolve_name(func) if callable(func) else None
    if resolved and resolved.startswith("torch.") and _names(resolved, func):
        return _c_name(resolved) or resolved
    module = getattr(func, "__module__", None) or "builtins"
    if module == "_operator":
        module = "operator"
    return f"{_torch_module_name(module)}.{name}"  # generated code reads ``torch`` as core


def _c_name(resolved: str) -> str | None:
    """torch's name for an ``nn.functional`` function it writes in C (``torch.conv2d``, ``torch._C._nn.linear``),
    where core has it under that name too."""
    if not resolved.startswith("torch.nn.functional."):
        return None
    c_name = TORCH_C_FUNCTIONAL.get(resolved[len("torch.nn.functional."):])
    if c_name is None:
        return None
    import core

    obj = core
    for atom in c_name.split(".")[1:]:
        obj = getattr(obj, atom, None)
    return c_name if callable(obj) else None


def _name_hint(func) -> str:
    """The base of a ``call_function`` node's name: the function's name in torch (``log_sigmoid``)."""
    from core.overrides import resolve_name

    resolved = resolve_name(func)
    c_name = _c_name(resolved) if resolved else None
    return c_name.rsplit(".", 1)[-1] if c_name else func.__name__


def _names(dotted: str, func) -> bool:
    """Whether ``torch.a.b`` (read in core) is ``func`` or the dispatching wrapper of it."""
    import core

    obj = core
    for atom in dotted.split(".")[1:]:
        obj = getattr(obj, atom, None)
    return obj is not None and (obj is func or getattr(obj, "__wrapped__", None) is func)


def _pretty_print_target(target) -> str:
    """``builtins.getattr``, ``operator.add``, ``torch.relu``; string targets as they are."""
    if isinstance(target, str):
        return target
    module = getattr(target, "__module__", None)
    name = getattr(target, "__name__", None)
    if module == "builtins" and name:
        return f"builtins.{name}"
    if module == "_operator" and name:
        return f"operator.{name}"
    return _qualified_name(target)


def _format_arg(arg) -> str:
    """An argument as ``Graph.__str__`` shows it: nodes as ``%name``."""
    if isinstance(arg, list):
        return "[" + ", ".join(_format_arg(a) for a in arg) + "]"
    if isinstance(arg, tuple):
        return "(" + ", ".join(_format_arg(a) for a in arg) + ("," if len(arg) == 1 else "") + ")"
    if isinstance(arg, dict):
        return "{" + ", ".join(f"{k}: {_format_arg(v)}" for k, v in arg.items()) + "}"
    if isinstance(arg, Node):
        return "%" + str(arg)
    return str(arg)


def _type_repr(t) -> str:
    """A type annotation as torch prints it (core's types under torch's names: ``torch.Tensor``)."""
    if isinstance(t, type) and not isinstance(t, types.GenericAlias):
        if t.__module__ == "builtins":
            return t.__qualname__
        return f"{_torch_module_name(t.__module__)}.{t.__qualname__}"
    if t is ...:
        return "..."
    if isinstance(t, types.FunctionType):
        return t.__name__
    return _CORE_PREFIX.sub("torch.", repr(t))


def _torch_module_name(module: str) -> str:
    return "torch" + module[4:] if module == "core" or module.startswith("core.") else module


class Node:
    """One operation in a :class:`Graph` (see the module docstring)."""

    def __init__(self, graph, name: str, op: str, target, args: tuple, kwargs: dict, return_type=None):
        if op == "call_function":
            if not callable(target):
                raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                                 f"{_typename(target)} but a Callable is expected")
        else:
            if op not in _OPS:
                raise AssertionError(f"op '{op}' is not in _legal_ops")
            if not isinstance(target, str):
                raise ValueError(f"Node [graph = {graph}, name = '{name}'] target {target} has type "
                                 f"{_typename(target)} but a str is expected")
        self.graph = graph
        self.name = name
        self.op = op
        self.target = target
        self._input_nodes: dict[Node, None] = {}
        self.users: dict[Node, None] = {}
        self.type = return_type
        self._prev = self
        self._next = self
        self._erased = False
        self.meta: dict[str, Any] = {}
        self._args: tuple = ()
        self._kwargs: dict = {}
        self._update_args_kwargs(args, kwargs)

    # -- linked list ------------------------------------------------------------------------------------------
    @property
    def next(self) -> Node:
        return self._next

    @property
    def prev(self) -> Node:
        return self._prev

    def prepend(self, x: Node) -> None:
        """Move ``x`` to just before this node."""
        if x is self:
            return
        x._remove_from_list()
        p = self._prev
        p._next, x._prev = x, p
        x._next, self._prev = self, x

    def append(self, x: Node) -> None:
        """Move ``x`` to just after this node."""
        self._next.prepend(x)

    def _remove_from_list(self) -> None:
        p, n = self._prev, self._next
        p._next, n._prev = n, p

    # -- arguments and uses -----------------------------------------------------------------------------------
    @property
    def args(self) -> tuple:
        return self._args

    @args.setter
    def args(self, a: tuple) -> None:
        self._update_args_kwargs(a, self._kwargs)

    @property
    def kwargs(self) -> dict:
        return self._kwargs

    @kwargs.setter
    def kwargs(self, k: dict) -> None:
        self._update_args_kwargs(self._args, k)

    @property
    def all_input_nodes(self) -> list[Node]:
        return list(self._input_nodes)

    def insert_arg(self, idx: int, arg) -> None:
        """Insert ``arg`` into the positional arguments at ``idx``."""
        if not 0 <= idx <= len(self.args):
            raise AssertionError(f"insert_args index must be between 0 and len(self.args), got {idx}")
        self.args = (*self.args[:idx], arg, *self.args[idx:])

    def update_arg(self, idx: int, arg) -> None:
        args = list(self.args)
        args[idx] = arg
        self.args = tuple(args)

    def update_kwarg(self, key: str, arg) -> None:
        self.kwargs = {**self.kwargs, key: arg}

    def _update_args_kwargs(self, new_args, new_kwargs) -> None:
        for old_use in self._input_nodes:
            old_use.users.pop(self)
        self._input_nodes = {}
        self._args = map_arg(tuple(new_args), self._collect_input)
        self._kwargs = map_arg(dict(new_kwargs), self._collect_input)
        for new_use in self._input_nodes:
            new_use.users.setdefault(self)

    def _collect_input(self, n: Node) -> Node:
        self._input_nodes.setdefault(n)
        return n

    def replace_input_with(self, old_input: Node, new_input: Node) -> None:
        """Use ``new_input`` wherever this node's arguments use ``old_input``."""
        swap = lambda n: new_input if n is old_input else n  # noqa: E731
        self._update_args_kwargs(map_arg(self._args, swap), map_arg(self._kwargs, swap))

    def replace_all_uses_with(self, replace_with: Node, delete_user_cb: Callable[[Node], bool] = lambda user: True,
                              *, propagate_meta: bool = False) -> list[Node]:
        """Make every user of this node use ``replace_with`` instead; the users changed, in order."""
        if propagate_meta:
            if len(replace_with.meta) != 0:
                raise AssertionError("Called node.replace_all_uses_with(replace_with, propagate_meta=True), but "
                                     "replace_with already has .meta keys")
            replace_with.meta.update(self.meta)
        changed = []
        for user in list(self.users):
            if not delete_user_cb(user):
                continue
            user.replace_input_with(self, replace_with)
            changed.append(user)
        return changed

    def is_impure(self, impure_random: bool = True) -> bool:
        """Whether dead-code elimination must keep this node, by torch's rule: inputs and outputs, modules marked
        ``_is_impure``, ``torch._assert``, ``operator.setitem`` and (with ``impure_random``) the random factories.
        Methods are never impure (an unused ``x.add_(1)`` goes)."""
        if self.op in ("placeholder", "output"):
            return True
        if self.op == "call_module":
            if self.graph.owning_module is None:
                raise AssertionError("self.graph.owning_module not set for purity check")
            return getattr(self.graph.owning_module.get_submodule(self.target), "_is_impure", False)
        if self.op == "call_function":
            import operator

            from core.overrides import resolve_name

            if self.target is operator.setitem or self.target in _side_effectful:
                return True
            name = resolve_name(self.target) if callable(self.target) else None
            return name == "torch._assert" or (impure_random and name in _RANDOM_FUNCTIONS)
        return False

    # -- printing ---------------------------------------------------------------------------------------------
    @property
    def stack_trace(self) -> str | None:
        """Where the node was traced from (core's tracer records none; a pass may set one)."""
        return self.meta.get("stack_trace")

    @stack_trace.setter
    def stack_trace(self, trace: str | None) -> None:
        self.meta["stack_trace"] = trace

    def __repr__(self) -> str:
        return self.name

    @staticmethod
    def _pretty_print_target(target) -> str:
        return _pretty_print_target(target)

    def format_node(self, placeholder_names: list[str] | None = None,
                    maybe_return_typename: list[str] | None = None) -> str | None:
        """The node's line in ``print(graph)``; for placeholders, collects the signature when given a list."""
        typename = f"{_type_repr(self.type)} " if self.type is not None else ""
        head = f"%{self.name} : {typename}[num_users={len(self.users)}] = "
        if self.op == "placeholder":
            arg_str = self.target + (f": {_type_repr(self.type)}" if self.type else "")
            if placeholder_names:  # NOTE: torch's Graph.__str__ passes an empty list, so this never collects
                placeholder_names.append(arg_str)
                return None
            default = f"(default={self.args[0]})" if self.args else ""
            return f"{head}{self.op}[target={self.target}]{default}"
        if self.op == "get_attr":
            return f"{head}{self.op}[target={_pretty_print_target(self.target)}]"
        if self.op == "output":
            if self.type and maybe_return_typename:
                maybe_return_typename[0] = f" -> {_type_repr(self.type)}"
            return f"return {self.args[0]}"
        return (f"{head}{self.op}[target={_pretty_print_target(self.target)}]"
                f"(args = {_format_arg(self.args)}, kwargs = {_format_arg(self.kwargs)})")
