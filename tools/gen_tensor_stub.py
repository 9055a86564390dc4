"""Write ``core/_tensor.pyi``: the type stub that shows readers and IDEs every method of ``Tensor``.

Most of ``Tensor``'s methods are op functions set on the class from the table in
``core/ops/tensor_methods.py``, so the class body alone does not list them. The stub does: every
name ``core/_tensor.py`` defines or re-exports from the modules it was split into (``from core._tensor_size import
Size as Size``), then each table entry as a method with the op's signature (its
first parameter becomes ``self``) and a one-line docstring that names the function it is. IDEs read
a ``.pyi`` next to its module, so "go to definition" on ``x.sum`` lands on the stub's ``sum``.

    python tools/gen_tensor_stub.py          # rewrite core/_tensor.pyi
    python tools/gen_tensor_stub.py --check  # exit 1 when the checked-in stub is stale

``tests/core/test_tensor_stub.py`` renders the stub in memory and compares it with the file.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import keyword
import re
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "core" / "_tensor.py"
STUB = ROOT / "core" / "_tensor.pyi"
COMMAND = "python tools/gen_tensor_stub.py"

# Annotations are copied only when every name in them is one of these (others would need imports).
_KNOWN = {"Tensor", "Size", "bool", "int", "float", "str", "None", "tuple", "list", "dict", "object", "complex"}
_BUILTINS = {"bool", "int", "float", "str", "complex", "type", "list", "tuple", "dict", "object"}
_SKIPPED_CLASS_NAMES = {"__module__", "__slots__", "__doc__", "__dict__", "__weakref__", "__qualname__",
                        "__firstlineno__", "__static_attributes__"}
_HEADER = f'''"""Type stub of ``core._tensor``: every ``Tensor`` method with its signature, for readers and IDEs.

Generated from core/_tensor.py and the op table in core/ops/tensor_methods.py; do not edit.
Regenerate with ``{COMMAND}``.
"""

import builtins
from typing import Any
'''


class _Raw:
    """An annotation or default that ``inspect.Signature`` prints as the text it holds."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _annotation(text, shadowed: set) -> object:
    """The stub's spelling of a source annotation, or ``empty`` when it names something unknown."""
    if not isinstance(text, str):
        return inspect.Parameter.empty
    names = set(re.findall(r"[A-Za-z_][A-Za-z_0-9.]*", text))
    if not names or not names <= _KNOWN:
        return inspect.Parameter.empty
    for name in names & shadowed & _BUILTINS:
        text = re.sub(rf"\b{name}\b", f"builtins.{name}", text)
    return _Raw(text)


def _signature(function, shadowed: set, self_first: bool = False) -> str:
    """``(self, dim=..., keepdim: builtins.bool = ...) -> Tensor`` of a function, defaults as ``...``."""
    sig = inspect.signature(function)
    params = []
    for param in sig.parameters.values():
        default = param.default if param.default is param.empty else _Raw("...")
        params.append(param.replace(annotation=_annotation(param.annotation, shadowed), default=default))
    if self_first:
        first = params[0] if params else None
        if first is not None and first.kind in (first.POSITIONAL_ONLY, first.POSITIONAL_OR_KEYWORD):
            params[0] = first.replace(name="self", annotation=inspect.Parameter.empty, default=first.empty)
        else:
            params.insert(0, inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY))
    params = [_renamed(p) for p in params]
    ret = _annotation(sig.return_annotation, shadowed)
    return str(sig.replace(parameters=params, return_annotation=ret))


def _renamed(param):
    """A parameter whose name is a Python keyword cannot be written in a stub; none should be."""
    if keyword.iskeyword(param.name):
        raise ValueError(f"parameter name {param.name!r} is a keyword")
    return param


def _doc_line(text) -> str:
    first = (inspect.cleandoc(text).splitlines() or [""])[0] if text else ""
    return first.replace("\\", "\\\\").replace('"""', "'''").strip()


def _def(name: str, function, indent: str, shadowed: set, doc: str | None = None, self_first=False) -> list:
    head = f"{indent}def {name}{_signature(function, shadowed, self_first)}:"
    doc = _doc_line(function.__doc__) if doc is None else doc
    if not doc:
        return [head + " ..."]
    return [head, f'{indent}    """{doc}"""']


def _attribute(name: str, value, indent: str) -> str:
    kind = type(value)
    if kind.__module__ == "core._tensor":
        return f"{indent}{name}: {kind.__name__}"
    if kind in (list, dict) and all(type(v) is str for v in (value.values() if kind is dict else value)):
        return f"{indent}{name}: {kind.__name__}[{'str, ' if kind is dict else ''}str]"
    if value is None or kind.__module__ != "builtins" or getattr(builtins, kind.__name__, None) is not kind:
        return f"{indent}{name}: Any"  # (a getset_descriptor's class says builtins but has no name there)
    return f"{indent}{name}: builtins.{kind.__name__}" if indent else f"{name}: {kind.__name__}"


def _member(name: str, value, shadowed: set) -> list:
    """Stub lines of one class attribute defined in the class body."""
    indent = "    "
    value = getattr(value, "undispatched", value)  # a property that dispatches once active (core._torch_function)
    if name == "__new__":  # implicitly static: no decorator in a stub
        return _def(name, value.__func__, indent, shadowed)
    if isinstance(value, staticmethod):
        return [f"{indent}@staticmethod", *_def(name, value.__func__, indent, shadowed)]
    if isinstance(value, property):
        lines = [f"{indent}@property", *_def(name, value.fget, indent, shadowed)]
        if value.fset is not None:
            lines += [f"{indent}@{name}.setter", *_def(name, value.fset, indent, shadowed, doc="")]
        return lines
    if isinstance(value, types.FunctionType):
        from core._torch_function import undispatched

        return _def(name, undispatched(value), indent, shadowed)
    if isinstance(value, types.MemberDescriptorType):
        return [f"{indent}{name}: Any"]
    return [_attribute(name, value, indent)]


def _op_method(name: str, function, shadowed: set) -> list:
    from core._torch_function import undispatched

    function = undispatched(function)  # the op, with its own names, once __torch_function__ dispatch is on
    where = f"{function.__module__}.{function.__name__}"
    summary = _doc_line(function.__doc__)
    doc = f"{summary} ({where})" if summary else f"``{where}`` with ``self`` as its first argument."
    return _def(name, function, "    ", shadowed, doc=doc, self_first=True)


_IMPORTED_MODULES: set = set()  # modules the stub's base classes come from (render imports them)


def _base_name(base) -> str:
    """A base class as the stub spells it: its name when it is a builtin or core._tensor defines it (TensorBase says
    it is torch._C's), else module.name."""
    if base.__module__ in ("core._tensor", "builtins") or vars(sys.modules["core._tensor"]).get(base.__name__) is base:
        return base.__name__
    _IMPORTED_MODULES.add(base.__module__)
    return f"{base.__module__}.{base.__qualname__}"


def _class(cls, body_names: list, table: dict) -> list:
    """A class's stub: the members its body defines, then (for Tensor) the op table's methods."""
    shadowed = set(vars(cls)) | set(table)
    bases = ", ".join("tuple[builtins.int, ...]" if b is tuple else _base_name(b) for b in cls.__bases__
                      if b is not object)
    lines = [f"class {cls.__name__}({bases}):" if bases else f"class {cls.__name__}:"]
    if cls.__doc__:
        lines.append(f'    """{_doc_line(cls.__doc__)}"""')
    for name in body_names:
        if name in table or name in _SKIPPED_CLASS_NAMES:
            continue
        lines += _member(name, vars(cls)[name], shadowed)
    for name, function in table.items():
        lines += _op_method(name, function, shadowed)
    return lines


def _body_names(node: ast.ClassDef, cls) -> list:
    """The names a class body binds, in source order (slots and attributes assigned on one line too)."""
    names = list(getattr(cls, "__slots__", ()))
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for target in targets:
                names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
    seen = []
    for name in names:
        if name in vars(cls) and name not in seen:
            seen.append(name)
    return seen


def _module_lines(nodes, table: dict, names=None) -> list:
    """Stub lines of the classes, functions and assignments among ``nodes`` (a module's body) that ``core._tensor``
    holds, those in ``names`` only when given."""
    from core import _tensor

    lines: list = []
    for node in nodes:
        if isinstance(node, ast.ClassDef) and (names is None or node.name in names):
            cls = vars(_tensor)[node.name]
            lines += ["", *_class(cls, _body_names(node, cls), table if cls is _tensor.Tensor else {}), ""]
        elif isinstance(node, ast.FunctionDef) and (names is None or node.name in names):
            lines += ["", *_def(node.name, vars(_tensor)[node.name], "", set())]
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if not isinstance(target, ast.Name) or (names is not None and target.id not in names):
                    continue
                if isinstance(vars(_tensor)[target.id], types.BuiltinFunctionType):
                    lines += ["", f"{target.id}: Any"]
                else:
                    lines += ["", _attribute(target.id, vars(_tensor)[target.id], "")]
        elif isinstance(node, ast.ImportFrom) and names is None and (node.module or "").startswith("core._tensor_"):
            lines += _reexported_lines(node)
    return lines


def _reexported_lines(node: ast.ImportFrom) -> list:
    """Stub lines of the names ``core/_tensor.py`` re-exports (``from core._tensor_size import Size as Size``) from
    the modules its contents were split into, as they would read defined there."""
    names = {alias.name for alias in node.names if alias.asname == alias.name}
    if not names:
        return []
    path = ROOT / (node.module.replace(".", "/") + ".py")
    return _module_lines(ast.parse(path.read_text(encoding="utf-8")).body, {}, names)


def render() -> str:
    """The stub's text for the ``core`` now importable (call from the repository root or tests)."""
    from core.ops.tensor_methods import TENSOR_METHODS  # only the generator needs core

    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    lines = [_HEADER, *_module_lines(tree.body, TENSOR_METHODS)]
    imports = "".join(f"import {module}\n" for module in sorted(_IMPORTED_MODULES))
    text = "\n".join(lines).replace("import builtins\n", f"import builtins\n{imports}", 1)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.rstrip() + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, str(ROOT))
    text = render()
    if "--check" in argv:
        if STUB.read_text(encoding="utf-8") != text:
            print(f"{STUB.relative_to(ROOT)} is stale; run: {COMMAND}")
            return 1
        return 0
    STUB.write_text(text, encoding="utf-8")
    print(f"wrote {STUB.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
