"""Fuzzing code import with snippets built from the chapter's grammar, and the odd snippets it reaches.

Hypothesis writes snippets line by line from what the chapter's code is made of (tensors made by factories,
names, numbers, operators, torch functions and methods called with right and wrong arity or keywords, shapes
that may not broadcast, nested calls, lambdas, statements the graph does not hold, huge literals, unicode
names). ``import_here`` must give a graph that saves, loads back and runs, or refuse with ONE
``CodeImportError`` whose line is the snippet's; never another exception. A graph imported without errors exports
(``export_script``, core) to a script that prints the values the session computes.
"""

import builtins
import contextlib
import io
import json
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core
import core.nodegraph.model.nodes  # the node types graphs are built from
from core.nodegraph.export.script import export_script
from core.nodegraph.files.code_import import CodeImportError, check_syntax, import_here
from core.nodegraph.model import code_snippet
from core.nodegraph.run.session import Session
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.fuzz_checks import runs_without_raising

TIME_LIMIT = 5.0


@pytest.fixture
def pythons_default_recursion_limit():
    """Python's default recursion limit while the test runs: CPython's compiler scales its depth limit by it, and an
    earlier test in the same process may have raised it (torch's inductor sets it to 2,000 when it compiles)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    yield
    sys.setrecursionlimit(limit)


@pytest.mark.usefixtures("pythons_default_recursion_limit")
@pytest.mark.parametrize("expression", ["x" + " + x" * 3000, "x" + "[...]" * 3000, "x" + ".relu()" * 2000,
                                        "not " * 5000 + "x"])
def test_an_expression_too_deep_for_pythons_compiler_is_refused_with_one_code_import_error(expression):
    text = f"import torch\nx = torch.ones(2)\ny = {expression}\n"
    with pytest.raises(CodeImportError, match="RecursionError: the snippet nests too deeply"):
        check_syntax(text)
    with pytest.raises(CodeImportError, match="RecursionError: the snippet nests too deeply"):
        import_here(text, time_limit=TIME_LIMIT)


# ----- snippets from the chapter's grammar ------------------------------------------------------------------------
NAMES = ["x", "w", "b", "y", "z", "loss", "h", "λ", "xé", "ｗ", "数据"]
NUMBERS = ["0", "1", "2", "-1", "0.5", "3.0", "1e-3", "1e308", "1e999", "10 ** 400", "float('nan')", "float('inf')",
           "True", "9" * 40]
SHAPES = ["2", "3", "2, 3", "3, 2", "1, 3", "(2, 3)", "[3]", "0", "-1", "2, 3, 4", "10 ** 12"]
FACTORIES = ["torch.ones({s})", "torch.zeros({s})", "torch.full(({s}), 0.5)", "torch.arange(6.0)",
             "torch.tensor([1.0, -2.0, 3.0])", "torch.tensor([[1.0, 2.0], [3.0, 4.0]])", "torch.eye(3)",
             "torch.linspace(-1, 1, 3)", "torch.ones({s}, requires_grad=True)", "torch.tensor(2.0, requires_grad=True)"]
UNARY = ["torch.relu", "torch.exp", "torch.tanh", "torch.sigmoid", "torch.sum", "torch.mean", "torch.abs",
         "torch.log", "torch.sqrt", "torch.softmax", "torch.t", "torch.flatten", "torch.nope"]
BINARY = ["torch.add", "torch.mul", "torch.matmul", "torch.maximum", "torch.where", "torch.cat", "torch.stack"]
METHODS = [".sum()", ".mean()", ".sum(dim=0)", ".sum(dim=5)", ".view(-1)", ".view(4, 4)", ".reshape(3, 2)", ".t()",
           ".relu()", ".exp()", ".pow(2)", ".softmax(dim=-1)", ".unsqueeze(0)", ".squeeze()", ".detach()",
           ".clone()", ".abs()", "[0]", "[:, 1]", "[..., ::2]", ".T", ".float()", ".long()", ".max()", ".nope()"]
OPERATORS = [" + ", " - ", " * ", " / ", " @ ", " ** ", " > "]
STATEMENTS = ["class A:\n    pass", "with torch.no_grad():\n    {n} = {e}", "global {n}", "del {n}",
              "try:\n    {n} = {e}\nexcept Exception:\n    pass", "assert {n} is not None",
              "if {n} is not None:\n    {n} = {e}",
              "for i in range(2):\n    {n} = {e}", "print({e})", "{n}.backward()", "{n}.sum().backward()",
              "import math", "lambda: 0", "{n} = (lambda t: t * 2)({e})", "yield {n}", "return {n}", "pass"]


def _expressions(names: list[str]):
    leaf = st.one_of(
        st.sampled_from(names), st.sampled_from(NUMBERS),
        st.builds(lambda f, s: f.format(s=s), st.sampled_from(FACTORIES), st.sampled_from(SHAPES)))
    leaf = st.one_of(st.sampled_from(names), leaf)  # mostly the snippet's own tensors
    return st.recursive(leaf, lambda e: st.one_of(
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(UNARY), e),
        st.builds(lambda f, a, c, k: f"{f}({a}, {c})" if k else f"{f}({a}, bogus={c})",  # wrong arity, keyword
                  st.sampled_from(UNARY), e, e, st.booleans()),
        st.builds(lambda f, a, c: f"{f}([{a}, {c}])" if f in ("torch.cat", "torch.stack") else f"{f}({a}, {c})",
                  st.sampled_from(BINARY), e, e),
        st.builds(lambda a, m: f"({a}){m}", e, st.sampled_from(METHODS)),
        st.builds(lambda a, o, c: f"({a}{o}{c})", e, st.sampled_from(OPERATORS), e),
    ), max_leaves=6)


@st.composite
def grammar_snippets(draw) -> str:
    first = draw(st.sampled_from(FACTORIES)).format(s=draw(st.sampled_from(SHAPES[:6])))
    lines, names = ["import torch", f"x = {first}"], ["x"]
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from(NAMES))
        expr = draw(_expressions(names))
        if draw(st.integers(0, 4)) == 0:
            lines.append(draw(st.sampled_from(STATEMENTS)).format(n=draw(st.sampled_from(names)), e=expr))
        else:
            lines.append(f"{name} = {expr}")
        names.append(name)
    return "\n".join(lines) + "\n"


def _run_as_code(text: str) -> dict[str, object]:
    """The snippet's variables after running it with ``import torch`` giving core, as the import runs it."""
    env = {"__name__": "__main__", "__builtins__": {**vars(builtins), "__import__": code_snippet.torch_import}}
    exec(compile(text, "<snippet>", "exec"), env)
    return env


@fuzz_settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=grammar_snippets())
def test_grammar_snippets_import_as_a_graph_that_evaluates_as_the_code_does_or_are_refused(text):
    try:
        g = import_here(text, time_limit=TIME_LIMIT).graph
    except CodeImportError as exc:
        assert exc.message and len(str(exc)) < 3000, str(exc)[:300]
        assert exc.line is None or 1 <= exc.line <= text.count("\n") + 1, (exc.line, str(exc)[:200])
        return
    runs_without_raising(g)
    env = _run_as_code(text)
    s = Session(g)
    s.forward()
    titles = [node.title for node in g.nodes.values()]
    for nid, node in g.nodes.items():
        value = env.get(node.title or "")
        if not isinstance(value, core.Tensor) or nid in s.errors or titles.count(node.title) > 1 \
                or not text.splitlines()[-1].startswith(f"{node.title} = ") \
                or sum(line.startswith(f"{node.title} = ") for line in text.splitlines()) > 1:
            continue  # the last line's name only, bound once: a rebound name's last node is titled name_2
        got = s.value(nid)
        assert isinstance(got, core.Tensor) and got.shape == value.shape, (node.title, got, value)
        assert np.allclose(got.detach().numpy(), value.detach().numpy(), equal_nan=True), (node.title, got, value)


def _exported_values(g) -> dict[str, object]:
    """The values the graph's exported core script prints (``--json``: exact, keyed node.port)."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = ["exported.py", "--json"]
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(export_script(g), "<exported>", "exec"), {"__name__": "__main__"})
    finally:
        sys.argv = argv
    values = {}
    for line in out.getvalue().splitlines():
        kind, key, text = line.split(" ", 2)
        if kind == "value":
            values[key] = json.loads(text)
    return values


@fuzz_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=grammar_snippets())
def test_an_imported_snippet_exports_to_a_script_that_computes_the_graphs_values(text):
    try:
        g = import_here(text, time_limit=TIME_LIMIT).graph
    except CodeImportError:
        return
    s = Session(g)
    s.forward()
    if s.errors:
        return  # the graph shows an error on a node: its script stops there too
    for key, value in _exported_values(g).items():
        nid, port = key.split(".", 1)
        got = s.value(nid, port)
        want = got.detach().numpy() if isinstance(got, core.Tensor) else got
        assert np.allclose(np.asarray(value, dtype=float), np.asarray(want, dtype=float), equal_nan=True), key
