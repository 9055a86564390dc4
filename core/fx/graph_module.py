"""``torch.fx.GraphModule``: a module whose ``forward`` is the Python written from a Graph.

It holds the submodules, parameters and buffers the graph's ``call_module`` and ``get_attr`` nodes name, copied
from ``root`` (a module or a ``{name: object}`` dict). Each GraphModule gets its own class (a subclass of
GraphModule named after ``class_name``) so that ``recompile()`` can set ``forward`` on it, as torch's does; after
editing ``gm.graph``, call ``recompile()`` to rewrite ``gm.code`` and ``forward``. Pickling keeps the code and
rebuilds the graph from it.
"""

from __future__ import annotations

import copy
import linecache
import types

from core.fx.graph import Graph
from core.nn import Module

__all__ = ["GraphModule"]

_READABLE_REMINDER = "# To see more debug info, please use `graph_module.print_readable()`"
_compiled = 0


_USER_PRESERVED_ATTRIBUTES_KEY = "_user_preserved_attributes"  # the meta entry of attributes a copy keeps


class _CodeOnlyModule(Module):
    """A module over a given attribute dict: what a ``GraphModule``'s ``__deepcopy__`` builds the copy from
    (torchvision's ``DualGraphModule`` deep-copies through it)."""

    def __init__(self, body: dict) -> None:
        super().__init__()
        self.__dict__ = body


def _copy_attr(from_module, to_module, target: str) -> None:
    import core

    *prefix, field = target.split(".")
    for item in prefix:
        f = getattr(from_module, item)
        t = getattr(to_module, item, None)
        if f is t:
            return
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        from_module, to_module = f, t
    orig = getattr(from_module, field)
    if isinstance(orig, core.Tensor) and not isinstance(orig, core.nn.Parameter):
        to_module.register_buffer(field, orig)
    else:
        setattr(to_module, field, orig)


def _assign_attr(obj, to_module, target: str) -> None:
    *prefix, field = target.split(".")
    for item in prefix:
        t = getattr(to_module, item, None)
        if t is None:
            t = Module()
            setattr(to_module, item, t)
        to_module = t
    setattr(to_module, field, obj)


def _indent(text: str) -> str:
    """Every line but the first four spaces in, blank lines left empty."""
    first, *rest = text.split("\n")
    return "\n".join([first, *("    " + line if line.strip() else "" for line in rest)])


class GraphModule(Module):
    """A module built from ``root`` and ``graph`` (see the module docstring)."""

    def __new__(cls, *args, **kwargs):
        # each instance gets its own class, so recompile() can set forward on it (a subclass's instance too)
        base = next(t for t in cls.__mro__ if t.__qualname__.split(".")[-1] != "GraphModuleImpl")
        return super().__new__(type("GraphModuleImpl", (base,), {}))

    def __deepcopy__(self, memo):
        res = type(self).__new__(type(self))
        memo[id(self)] = res
        holder = Module()
        holder.__dict__ = copy.deepcopy(self.__dict__, memo)
        GraphModule.__init__(res, holder, holder.__dict__["_graph"], type(self).__name__)
        return res

    def __init__(self, root, graph: Graph, class_name: str = "GraphModule"):
        super().__init__()
        self.__class__.__name__ = class_name
        if isinstance(root, Module):
            if hasattr(root, "training"):
                self.training = root.training
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    _copy_attr(root, self, node.target)
        elif isinstance(root, dict):
            for node in graph.nodes:
                if node.op in ("get_attr", "call_module"):
                    if node.target not in root:
                        raise RuntimeError(f"Node {node} referenced target {node.target} but that target was not "
                                           "provided in ``root``!")
                    _assign_attr(root[node.target], self, node.target)
        else:
            raise RuntimeError("Unsupported type " + str(root) + " passed for root!")
        self.graph = graph

    @property
    def graph(self) -> Graph:
        return self._graph

    @graph.setter
    def graph(self, g: Graph) -> None:
        self.__dict__["_graph"] = g
        g.owning_module = self
        self.recompile()

    @property
    def code(self) -> str:
        """The Python source of ``forward``."""
        return self._code

    def recompile(self):
        """Rewrite ``code`` and ``forward`` from the graph (after editing it)."""
        global _compiled
        python_code = self._graph.python_code(root_module="self")
        self.__dict__["_code"] = python_code.src
        _compiled += 1
        filename = f"<eval_with_key>.{_compiled}"
        linecache.cache[filename] = (len(python_code.src), None, python_code.src.splitlines(True), filename)
        namespace = dict(python_code.globals)
        exec(compile(python_code.src, filename, "exec"), namespace)
        type(self).forward = namespace["forward"]
        return python_code

    def add_submodule(self, target: str, m: Module) -> bool:
        """Install ``m`` at the dotted path ``target``, making empty modules on the way; False where a step of
        the path is no module."""
        *prefix, field = target.split(".")
        mod = self
        for item in prefix:
            sub = getattr(mod, item, None)
            if sub is None:
                sub = Module()
                setattr(mod, item, sub)
            if not isinstance(sub, Module):
                return False
            mod = sub
        mod.add_module(field, m)
        return True

    def delete_submodule(self, target: str) -> bool:
        """Remove the submodule at ``target``; False where there is none."""
        *path, field = target.split(".")
        mod = self
        for item in path:
            if not hasattr(mod, item):
                return False
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                return False
        if not isinstance(getattr(mod, field, None), Module):
            return False
        delattr(mod, field)
        return True

    def delete_all_unused_submodules(self) -> None:
        """Remove the submodules no ``call_module`` or ``get_attr`` node reaches."""
        used: set[str] = set()
        for node in self.graph.nodes:
            if node.op in ("call_module", "get_attr") and isinstance(node.target, str):
                atoms = node.target.split(".")
                used.update(".".join(atoms[:i + 1]) for i in range(len(atoms)))
                if node.op == "call_module":
                    try:
                        sub = self.get_submodule(node.target)
                    except AttributeError:
                        continue
                    used.update(f"{node.target}.{name}" for name, _ in sub.named_modules() if name)
        for name in [name for name, _ in self.named_modules() if name not in used]:
            self.delete_submodule(name)

    def print_readable(self, print_output: bool = True, include_stride: bool = False, include_device: bool = False,
                       colored: bool = False, *, fast_sympy_print: bool = False, expanded_def: bool = False,
                       additional_meta: list[str] | None = None) -> str:
        """The code as a class, with each value's dtype and shape where ShapeProp recorded them; nested
        GraphModules follow."""
        src = self._graph.python_code(root_module="self", verbose=True).src.lstrip("\n")
        text = _indent(f"class {self._get_name()}(torch.nn.Module):\n{src}")
        nested = [""] + [child.print_readable(print_output=False).replace(
            f"class {child._get_name()}(", f"class {name}(", 1)
            for name, child in self.named_children() if isinstance(child, GraphModule)]  # (stride, device and
        # colour options only change values recorded as tensors, which core's passes do not record; core has no
        # symbolic sizes or descriptors for expanded_def, and additional_meta is not shown yet)
        text += _indent("\n".join(nested))
        if print_output:
            print(text)
        return text

    def __str__(self) -> str:
        return "\n".join([Module.__repr__(self), self._code, _READABLE_REMINDER])

    def __repr__(self) -> str:
        return self.__str__()

    def __reduce__(self):
        """Pickled as torch pickles it: the module's ``__dict__`` without the graph, and the code, which
        unpickling runs and traces again (every submodule a leaf) to rebuild the graph (as a ``GraphModule``)."""
        body = dict(self.__dict__)
        del body["_graph"]
        names = {k: v for k, v in self._graph.python_code("self").globals.items()
                 if not isinstance(v, types.ModuleType)}
        return _deserialize_graph_module, (body, names)


def _deserialize_graph_module(body: dict, names: dict) -> GraphModule:
    import core
    from core.fx._symbolic_trace import Tracer

    namespace = {**names, "torch": core}
    exec(compile(body["_code"], "<eval_with_key>", "exec"), namespace)
    code_only = type("CodeOnlyModule", (Module,), {"forward": namespace["forward"]})
    root = Module.__new__(code_only)
    root.__dict__ = body

    class KeepModules(Tracer):
        def is_leaf_module(self, _, __) -> bool:
            return True

    gm = GraphModule(root, KeepModules().trace(root), body.get("_graphmodule_cls_name", "GraphModule"))
    for k, v in body.items():
        if not hasattr(gm, k):
            setattr(gm, k, v)
    return gm
