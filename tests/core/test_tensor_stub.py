"""Tensor's methods are declared where a reader looks: one op table, a current stub, explicit op imports."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import types
from pathlib import Path

import core
from core._torch_function import undispatched
from core.ops.tensor_methods import TENSOR_METHODS

ROOT = Path(__file__).resolve().parents[2]
STUB = ROOT / "core" / "_tensor.pyi"


def _generator():
    spec = importlib.util.spec_from_file_location("gen_tensor_stub", ROOT / "tools" / "gen_tensor_stub.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _stub_tensor_names() -> set:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    return names | {n.target.id for n in cls.body if isinstance(n, ast.AnnAssign)}


def test_checked_in_tensor_stub_is_what_the_generator_writes_now():
    gen = _generator()
    assert STUB.read_text(encoding="utf-8") == gen.render(), f"core/_tensor.pyi is stale; run: {gen.COMMAND}"


def _op_of(method):
    """The op function behind a Tensor method: a no-argument method is held in the wrapper that refuses arguments
    in PyTorch's words (``core._noargs_methods``), and once dispatch is on, in the dispatching wrapper too."""
    while getattr(method, "refuses_arguments", False) or getattr(method, "dispatches", False):
        method = method.__wrapped__
    return method


def test_every_table_entry_is_an_op_function_set_on_tensor_as_it_is():
    for name, function in TENSOR_METHODS.items():
        assert isinstance(function, types.FunctionType), name
        method = core.Tensor.__dict__[name]
        # once a Tensor subclass or mode switched __torch_function__ dispatch on, the op function dispatches (or,
        # where it also is another public name, Tensor holds a wrapper of the same op)
        assert method is function or _op_of(method) is undispatched(function), name


def test_the_stub_declares_every_public_tensor_method_and_attribute():
    public = {n for n in dir(core.Tensor) if not n.startswith("_")}
    assert public - _stub_tensor_names() == set()


def test_a_stub_method_has_the_op_signature_with_self_first_and_names_its_function():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    sum_def = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "sum")
    assert [a.arg for a in sum_def.args.args] == ["self", "dim", "keepdim"]
    assert "core.ops.reduction.sum" in ast.get_docstring(sum_def)


def test_core_ops_imports_its_families_without_try_blocks():
    tree = ast.parse((ROOT / "core" / "ops" / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Try)]


def test_a_broken_op_module_makes_importing_core_fail():
    # None in sys.modules makes importing that module raise, as a module broken on import would;
    # core.ops used to skip a missing indexing family and import without x[i].
    code = "import sys; sys.modules['core.ops.indexing'] = None\nimport core"
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "core.ops.indexing" in run.stderr
