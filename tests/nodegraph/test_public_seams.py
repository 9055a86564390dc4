"""core.nodegraph uses only core's public API: no private fields of core objects, no private core modules.

The rule is read from the source with ``ast``, so it holds for code no test runs. A *core-private name* is a
name with one leading underscore that core (outside core.nodegraph) defines on its classes or objects:
a method or class attribute, a ``__slots__`` entry, or an attribute it assigns (``t._data``,
``node._saved``, ``node._edges``...). Core.nodegraph may not read or write such a name on any object but
``self``/``cls`` (its own classes' private fields stay free), directly or through ``getattr``/``setattr``
with a string. A name that a core.nodegraph class also uses for a field of its own (``_store``, ``_order``)
can't be told apart by name and is not counted; the test checks that the fields of tensors and autograd
nodes are never among those. ``_version`` is allowed: PyTorch documents ``Tensor._version`` as public.
What core.nodegraph needs instead lives in ``core.autograd.graph``.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
NODEGRAPH = CORE / "nodegraph"
PUBLIC_IN_PYTORCH = {"_version"}
FORBIDDEN_MODULES = ("core.autograd.function",)


def _trees(root: Path, skip: Path | None = None):
    for path in sorted(root.rglob("*.py")):
        if skip is None or skip not in path.parents:
            yield path, _parse(path)


@lru_cache(maxsize=None)
def _parse(path: Path):
    return ast.parse(path.read_text(encoding="utf-8"))


def _private(name) -> bool:
    return isinstance(name, str) and name.startswith("_") and not name.startswith("__")


def _class_names(cls: ast.ClassDef) -> set:
    names = set()
    for item in cls.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(item.name)
        targets = item.targets if isinstance(item, ast.Assign) else [item.target] if isinstance(
            item, ast.AnnAssign) else []
        for target in targets:
            if isinstance(target, ast.Name):
                names.add(target.id)
                if target.id == "__slots__" and isinstance(item.value, (ast.Tuple, ast.List)):
                    names.update(e.value for e in item.value.elts if isinstance(e, ast.Constant))
    return names


def _defined_names(root: Path, skip: Path | None = None, on_self_only: bool = False) -> set:
    """Private names the classes under ``root`` define: class bodies, attribute stores (on ``self`` only, when
    asked), ``setattr`` and ``type(name, bases, {...})`` with string names."""
    names = set()
    for _, tree in _trees(root, skip):
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names |= _class_names(node)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if not on_self_only or isinstance(node.value, ast.Name) and node.value.id == "self":
                    names.add(node.attr)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" and len(
                    node.args) == 3 and isinstance(node.args[2], ast.Dict):
                names.update(k.value for k in node.args[2].keys if isinstance(k, ast.Constant))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and len(
                    node.args) == 3 and isinstance(node.args[1], ast.Constant):
                names.add(node.args[1].value)
    return {n for n in names if _private(n)}


@lru_cache(maxsize=1)
def core_private_names() -> frozenset:
    """Every core-private name (see the module docstring), from core's source outside core.nodegraph."""
    own = _defined_names(NODEGRAPH, on_self_only=True)
    return frozenset(_defined_names(CORE, skip=NODEGRAPH) - own - PUBLIC_IN_PYTORCH)


def _accessed(node) -> tuple | None:
    """``(object, name)`` for ``obj._name`` and ``getattr/setattr/hasattr(obj, "_name", ...)``, else None."""
    if isinstance(node, ast.Attribute):
        return node.value, node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2 and isinstance(
            node.args[1], ast.Constant):
        return node.args[0], node.args[1].value
    return None


def private_accesses(names: set) -> list:
    """``"file:line: expression"`` for every access of a name in ``names`` on an object other than self/cls."""
    found = []
    for path, tree in _trees(NODEGRAPH):
        for node in ast.walk(tree):
            hit = _accessed(node)
            if hit is None or hit[1] not in names:
                continue
            if isinstance(hit[0], ast.Name) and hit[0].id in ("self", "cls"):
                continue
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def _imported_modules(tree) -> list:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.append((node.lineno, node.module))
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return out


def private_core_imports() -> list:
    """Imports (module or ``from`` name) of a private core module or of ``core.autograd.function``."""
    found = []
    for path, tree in _trees(NODEGRAPH):
        for line, name in _imported_modules(tree):
            parts = name.split(".")
            private = parts[0] == "core" and parts[1:2] != ["nodegraph"] and any(_private(p) for p in parts[1:])
            if private or name in FORBIDDEN_MODULES or name.startswith(FORBIDDEN_MODULES[0] + "."):
                found.append(f"{path.relative_to(ROOT)}:{line}: {name}")
    return found


def test_the_rule_knows_the_private_fields_of_tensors_and_autograd_nodes():
    names = core_private_names()
    assert {"_data", "_grad", "_vc", "_saved", "_released", "_edges", "_forward_cls", "_wrap", "_seq", "_in_meta",
            "_out_meta", "_requires_grad", "_output_nr", "_retains_grad", "_accum", "_base"} <= names
    assert "_version" not in names


def test_the_rule_catches_private_reads_and_writes_on_other_objects_but_not_on_self():
    tree = ast.parse("t._data\nnode._saved = None\ngetattr(fn, '_edges')\nself._data\ncls._wrap\n")
    hits = [_accessed(n) for n in ast.walk(tree)]
    names = sorted(h[1] for h in hits if h is not None and not (isinstance(h[0], ast.Name) and h[0].id in (
        "self", "cls")))
    assert names == ["_data", "_edges", "_saved"]


def test_core_nodegraph_touches_no_private_field_of_a_core_object():
    assert private_accesses(core_private_names()) == []


def test_core_nodegraph_imports_no_private_core_module_nor_autograd_function():
    assert private_core_imports() == []


SESSION_PARTS = ("run/history.py", "training/trainer.py", "run/inspection.py", "training/holdout.py",
                 "run/device_move.py", "training/trainview.py")


def _is_session(node) -> bool:
    """``session`` or ``<anything>.session``: how the parts composed with a session name it."""
    return (isinstance(node, ast.Name) and node.id == "session") or (
        isinstance(node, ast.Attribute) and node.attr == "session")


def session_private_accesses(files=SESSION_PARTS) -> list:
    """``"file:line: expression"`` for every read or write of a private name on a session in ``files``."""
    found = []
    for name in files:
        path = NODEGRAPH / name
        for node in ast.walk(_parse(path)):
            hit = _accessed(node)
            if hit is not None and _private(hit[1]) and _is_session(hit[0]):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_session_rule_catches_private_reads_on_a_held_session():
    tree = ast.parse("self.session._done\nsession._optimizer = 1\nself.session.values\nself._cache\n")
    hits = [_accessed(n) for n in ast.walk(tree)]
    assert sorted(h[1] for h in hits if h is not None and _private(h[1]) and _is_session(h[0])) == [
        "_done", "_optimizer"]


def test_history_training_and_inspection_use_only_the_sessions_public_methods():
    assert session_private_accesses() == []
