"""``jit.trace``'s recordings shown as PyTorch shows a trace: ``graph`` (TorchScript IR) and ``code``.

One node per recorded primitive (``aten::mul``), inputs typed as PyTorch types them, a module's parameters read with
``prim::GetAttr``, a submodule's call as a ``prim::CallMethod`` node (``core.jit._submodule_calls``) unless
``inline`` (``inlined_graph``). Also the slots a recording's steps read and write (``_Slot``).
"""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING

from core.jit import _submodule_calls

if TYPE_CHECKING:
    from core.jit._trace import Recording

__all__ = ["render"]


class _Slot:
    """Where a recording's step finds a tensor the run makes or takes (an input, an op's output)."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index



_TYPE_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long",
               "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
               "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _tensor_type(t) -> str:
    name = _TYPE_NAMES.get(str(t.dtype).rpartition(".")[2], "Tensor")
    sizes = ", ".join(str(s) for s in t.shape)
    strides = ", ".join(str(s) for s in t.stride())
    layout = f"{sizes}, strides=[{strides}], " if sizes else ""
    return f"{name}({layout}requires_grad={int(t.requires_grad)}, device={t.device})"


def _scalar_type(v) -> str:
    from core import dtype

    if isinstance(v, dtype):
        return "ScalarType"
    return {bool: "bool", int: "int", float: "float", str: "str", type(None): "NoneType"}.get(type(v), "Any")


def _op_name(cls) -> str:
    name = re.sub(r"Backward\d*$", "", getattr(cls, "node_name", None) or cls.__name__).lstrip("_")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


class _Namer:
    """Names of the recording's values in the IR (``%x``, ``%3``) and in the code (``x``, ``_0``): slots by index,
    constants by identity."""

    def __init__(self, recording: Recording, params: list, owner):
        self.types = recording.types
        self.ir: dict = {}
        self.py: dict = {}
        self.lines: list = []
        self.code: list = []
        self.counter = len(params) - 1  # (PyTorch numbers the first node after the inputs)
        self.constants = 0
        self.attrs = {}
        if owner is not None:
            self.attrs = {id(t): name for name, t in [*owner.named_parameters(), *owner.named_buffers()]}
        for i, name in enumerate(params):
            self.ir[("slot", i)], self.py[("slot", i)] = f"%{name}", name

    def fresh(self) -> str:
        self.counter += 1
        return f"%{self.counter}"

    def value_of_slot(self, index: int) -> tuple:
        return self.value(_Slot(index))

    def value(self, v) -> tuple:
        """The IR name and code text of an argument, adding the nodes that make a constant."""
        from core import Tensor

        if type(v) is _Slot:
            key = ("slot", v.index)
            if key not in self.ir:  # (a tensor made inside and written in place: made afresh each run)
                ir = self.fresh()
                self.ir[key], self.py[key] = ir, f"CONSTANTS.c{self.constants}"
                self.constants += 1
                self.lines.append(f"  {ir} : {self.types.get(v.index, 'Tensor')} = prim::Constant[value=<Tensor>]()")
            return self.ir[key], self.py[key]
        if isinstance(v, Tensor):
            key = ("constant", id(v))
            if key not in self.ir:
                if id(v) in self.attrs:
                    name = self.attrs[id(v)]
                    self.ir[key], self.py[key] = f"%{name}", f"self.{name}"
                    self.lines.append(f'  %{name} : Tensor = prim::GetAttr[name="{name}"](%self.1)')
                else:
                    ir = self.fresh()
                    self.ir[key], self.py[key] = ir, f"CONSTANTS.c{self.constants}"
                    self.constants += 1
                    self.lines.append(f"  {ir} : {_tensor_type(v)} = prim::Constant[value=<Tensor>]()")
            return self.ir[key], self.py[key]
        if isinstance(v, (list, tuple)):
            parts = [self.value(x) for x in v]
            ir = self.fresh()
            self.lines.append(f"  {ir} : {'int' if all(type(x) is int for x in v) else 'Any'}[] = "
                              f"prim::ListConstruct({', '.join(p[0] for p in parts)})")
            return ir, f"[{', '.join(p[1] for p in parts)}]"
        ir, kind = self.fresh(), _scalar_type(v)
        shown = repr(v) if kind != "Any" else "<object>"
        self.lines.append(f"  {ir} : {kind} = prim::Constant[value={shown}]()" if v is not None
                          else f"  {ir} : NoneType = prim::Constant()")
        return ir, shown


def _class_path(cls) -> str:
    """TorchScript's name of a module class: ``__torch__.`` and its module's path (none for ``__main__``'s)."""
    module = cls.__module__
    if module.startswith("core."):  # (core's classes under the names of PyTorch's, which core mirrors)
        module = "torch." + module[5:]
    return f"__torch__.{'' if module == '__main__' else module + '.'}{cls.__name__}"


def _signature_names(fn) -> list:
    try:
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    except (TypeError, ValueError):
        return []


def _slots_in(obj) -> list:
    found: list = []

    def visit(o):
        if type(o) is _Slot:
            found.append(o.index)
        elif isinstance(o, (tuple, list)):
            for x in o:
                visit(x)
        elif type(o) is dict:
            for x in o.values():
                visit(x)
    visit(obj)
    return found


def _live_steps(recording: Recording) -> list:
    """The steps whose results reach the output, and in-place ones, with their indices: a Python branch's comparison
    is left out, as PyTorch's graph leaves it (the tracer records it; dead-code elimination removes it)."""
    live = set(_slots_in(recording.result))
    kept = []
    for index in range(len(recording.steps) - 1, -1, -1):
        _cls, a, k, out_slots = step = recording.steps[index]
        read = _slots_in((a, k))
        if any(i is not None and (i in live or i in read) for i in out_slots):
            kept.append((index, step))
            live.update(read)
    return kept[::-1]


def render(recording: Recording | None, fn, owner=None, inline: bool = False) -> tuple:
    """``(graph, code)`` texts of ``recording`` (``fn``: the function or forward traced; ``owner``: its module);
    submodule calls as ``prim::CallMethod`` nodes, or with ``inline`` their operations (``inlined_graph``)."""
    if recording is None:
        return None, None
    names = _signature_names(fn)
    params = [names[i] if i < len(names) else f"input{i}" for i in range(recording.input_count)]
    namer = _Namer(recording, params, owner)
    self_ir = [f"%self.1 : {_class_path(type(owner))}"] if owner is not None else []
    heads = self_ir + [f"%{p} : {recording.types[i]}" for i, p in enumerate(params)]
    calls = [] if inline else getattr(recording, "calls_shown", [])
    shown: set = set()
    for index, (cls, a, k, out_slots) in _live_steps(recording):
        call = next((c for c in calls if c.start <= index < c.end), None)
        if call is not None:  # (a submodule's operation: its call is shown once, where its first one runs)
            if call not in shown:
                shown.add(call)
                _submodule_calls.show_call(call, namer)
            continue
        parts = [namer.value(v) for v in (*a, *k.values())]
        op = _op_name(cls) + ("_" if set(out_slots) & set(_slots_in((a, k))) else "")  # (in place: add_)
        results = [i for i in out_slots if i is not None]
        ir_names = [namer.fresh() for _ in results]
        py_names = [f"_{len(namer.code)}{'_' + str(n) if len(results) > 1 else ''}" for n in range(len(results))]
        typed = ", ".join(f"{n} : {recording.types.get(i, 'Tensor')}" for n, i in zip(ir_names, results))
        namer.lines.append(f"  {typed} = aten::{op}({', '.join(p[0] for p in parts)})")
        namer.code.append(f"  {', '.join(py_names)} = torch.{op}({', '.join(p[1] for p in parts)})")
        for i, ir, py in zip(results, ir_names, py_names):
            namer.ir[("slot", i)], namer.py[("slot", i)] = ir, py
    outputs = _outputs(recording.result)
    returned = [namer.value(t) for t in outputs]
    if len(returned) == 1 and outputs[0] is recording.result:
        ret_ir, ret_py = returned[0]
    else:
        ret_ir = namer.fresh()
        types = ", ".join(recording.types.get(t.index, "Tensor") if type(t) is _Slot else _tensor_type(t)
                          for t in outputs)
        namer.lines.append(f"  {ret_ir} : ({types}) = prim::TupleConstruct({', '.join(r[0] for r in returned)})")
        ret_py = f"({', '.join(r[1] for r in returned)}{',' if len(returned) == 1 else ''})"
    graph = "graph(" + ",\n      ".join(heads) + "):\n" + "\n".join(namer.lines) + f"\n  return ({ret_ir})\n"
    args = (["self"] if owner is not None else []) + [f"{p}: Tensor" for p in params]
    name = "forward" if owner is not None else getattr(fn, "__name__", "forward")
    code = (f"def {name}(" + ",\n    ".join(args) + f") -> {_annotation(recording.result)}:\n" + "\n".join(namer.code)
            + f"\n  return {ret_py}\n")
    return graph, code


def _annotation(result) -> str:
    """The TorchScript type of a recording's result, as PyTorch's code annotates the return (``Tuple[Tensor,
    Tensor]``); a result that is no tuple of tensors is annotated ``Tensor``, as before."""
    if isinstance(result, tuple) and result and all(type(r) is _Slot for r in result):
        return f"Tuple[{', '.join('Tensor' for _ in result)}]"
    return "Tensor"


def _outputs(obj) -> list:
    """The slots and constant tensors among a recording's result, in order."""
    from core import Tensor

    if type(obj) is _Slot or isinstance(obj, Tensor):
        return [obj]
    if isinstance(obj, (tuple, list)):
        return [x for o in obj for x in _outputs(o)]
    if type(obj) is dict:
        return [x for o in obj.values() for x in _outputs(o)]
    return []
