"""The safe expression parser: evaluation, expansion into a graph fragment, and refusals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import core
from core.nodegraph.model import expression
from core.nodegraph.model.commands import Paste
from core.nodegraph.model.document import Edge, Graph, GraphError, Node
from core.nodegraph.model.expression import ExpressionError, evaluate, expand, free_names
from core.nodegraph.model.spec import EvalContext, get_spec
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.nodes_helpers import assert_same, run

CHAPTER = {"x": core.tensor([2.0, 3.0]), "w": core.tensor([1.5, -0.5]), "b": core.tensor(0.1)}


def test_the_chapter_formula_evaluates_to_1_6():
    z = evaluate("(x * w).sum() + b", CHAPTER)
    assert z.shape == () and z.item() == pytest.approx(1.6)


def test_the_chapter_formula_expands_to_mul_sum_add_wired_right():
    frag = expand("(x * w).sum() + b")
    types = {n["id"]: n["type"] for n in frag["nodes"]}
    titles = {n["title"]: n["id"] for n in frag["nodes"] if n["title"]}
    assert frag["inputs"] == ["x", "w", "b"]
    assert sorted(types.values()) == sorted(["source.tensor"] * 3 + ["math.mul", "reduce.sum", "math.add"])
    by_type = {t: i for i, t in types.items() if t != "source.tensor"}
    edges = {(tuple(e["from"]), tuple(e["to"])) for e in frag["edges"]}
    assert edges == {((titles["x"], "out"), (by_type["math.mul"], "a")),
                     ((titles["w"], "out"), (by_type["math.mul"], "b")),
                     ((by_type["math.mul"], "out"), (by_type["reduce.sum"], "x")),
                     ((by_type["reduce.sum"], "out"), (by_type["math.add"], "a")),
                     ((titles["b"], "out"), (by_type["math.add"], "b"))}
    xs = {types[n["id"]]: n["position"][0] for n in frag["nodes"]}
    assert xs["source.tensor"] < xs["math.mul"] < xs["reduce.sum"] < xs["math.add"]


def test_an_expanded_fragment_evaluates_like_the_formula():
    frag = expand("(x * w).sum() + b")
    for node in frag["nodes"]:
        if node["title"] in CHAPTER:
            node["params"]["tensor"] = CHAPTER[node["title"]].tolist()
    assert _run_fragment(frag).item() == pytest.approx(1.6)


def test_an_expanded_fragment_pastes_into_a_graph():
    g = Graph()
    g.add_node(Node("n1", "source.ones"))
    frag = expand("relu(x @ w.T).mean(dim=0, keepdim=True) * 2")
    command = Paste(frag)
    command.do(g)
    assert len(g.nodes) == 1 + len(frag["nodes"]) and len(g.edges) == len(frag["edges"])
    command.undo(g)
    assert list(g.nodes) == ["n1"] and g.edges == []


@pytest.mark.parametrize("formula", [
    "(x * w).sum() + b", "x.T @ w.view(2, 1) - 1", "exp(-x) / (1 + x ** 2)", "x.sum(dim=0, keepdim=True)",
    "clamp(x, min=0.5) + maximum(x, w)", "where(x > 2.5, x, w * 2)", "x[1:] * w[:1]", "x[..., None].squeeze(-1)",
    "softmax(x * w, 0).max()", "cat([x, w, x], dim=0).mean()", "stack((x, w)).t().reshape(-1)",
    "x // 2 + x % 2", "-x + +w", "(x > 2) == (w < 0)", "x.norm(p=1)", "sigmoid(x).log().abs()", "x[x > 2.5]",
    "x.max(0)", "mse_loss(x, w)", "det(outer(x, w) + 1) + inv(x.view(2, 1) @ w.view(1, 2) + 1).sum()", "2 * 3 + x",
    "x.unsqueeze(0).expand(3, -1).contiguous().sum((0, 1))",
])
def test_evaluate_and_expand_agree(formula):
    value = evaluate(formula, CHAPTER)
    frag = expand(formula)
    for node in frag["nodes"]:
        if node["title"] in CHAPTER:
            node["params"]["tensor"] = CHAPTER[node["title"]].tolist()
    assert_same(_run_fragment(frag), value)


def test_evaluate_matches_the_same_core_calls():
    x, w = CHAPTER["x"], CHAPTER["w"]
    assert_same(evaluate("exp(-x) / (1 + x ** 2)", CHAPTER), core.exp(-x) / (1 + x ** 2))
    assert_same(evaluate("x.T @ w.view(2, 1) - 1", CHAPTER), x.t() @ w.view(2, 1) - 1)
    assert_same(evaluate("x[1:] * w[:1]", CHAPTER), x[1:] * w[:1])
    assert_same(evaluate("x // 2 + x % 2", CHAPTER), x // 2 + x % 2)


def test_gradients_flow_through_an_evaluated_formula():
    w = core.tensor([1.5, -0.5], requires_grad=True)
    evaluate("(x * w).sum() + b", {**CHAPTER, "w": w}).backward()
    assert w.grad.tolist() == [2.0, 3.0]


def test_free_names_in_order_of_first_use():
    assert free_names("b + (x * w).sum() + x") == ["b", "x", "w"]


@pytest.mark.parametrize("formula, message", [
    ("x.__class__", "attribute '__class__'"),
    ("().__class__.__bases__", "attribute '__bases__'"),
    ("x.__class__.__subclasses__()", "method '__subclasses__'"),
    ("x.data", "attribute 'data'"),
    ("x.grad_fn.next_functions", "attribute"),
    ("__import__('os')", "unknown name|function '__import__'"),
    ("open('f')", "function 'open'"),
    ("eval('1')", "function 'eval'"),
    ("x.numpy()", "method 'numpy'"),
    ("getattr(x, 'T')", "function 'getattr'"),
    ("'abc'", "str constants"),
    ("x + 'a'", "str constants"),
    ("lambda: 1", "Lambda"),
    ("[i for i in x]", "ListComp"),
    ("(y := x)", "NamedExpr"),
    ("x if x else w", "IfExp"),
    ("y + 1", "unknown name 'y'"),
    ("_x", "unknown name '_x'"),
    ("1 < x < 2", "chained"),
    ("x and w", "BoolOp"),
    ("x.sum(*w)", "\\* and \\*\\* arguments"),
    ("sum(x, foo=1)", "no argument 'foo'"),
    ("sum(x, dim=w)", "constant"),
    ("x +", "syntax error"),
    ("", "empty"),
    ("x" * 1001, "too long"),
    ("+".join(["x"] * 150), "too large"),
    ("exp(" * 40 + "x" + ")" * 40, "nested deeper than 32"),
    ("(" * 250 + "x" + ")" * 250, "syntax error"),
    ("-(" * 35 + "x" + ")" * 35, "nested deeper|too large"),
    ("1j * x", "complex constants"),
    ("x[w:1]", "constant"),
    ("f'{x}'", "JoinedStr"),
    ("{1: x}", "Dict"),
    ("x + None", "operand"),
    ("-...", "operand"),
    ("None", "must compute"),
    ("x * 9223372036854775808", "out of range"),
    ("[x, w] + 1", "operand"),
])
def test_the_parser_refuses_unsafe_or_unknown_input(formula, message):
    with pytest.raises(ExpressionError, match=message):
        evaluate(formula, CHAPTER)


def test_refusals_name_the_column():
    with pytest.raises(ExpressionError, match="at column 5"):
        expression.parse("x + open(1)")


def test_expand_refuses_what_evaluate_refuses():
    with pytest.raises(ExpressionError, match="attribute '__class__'"):
        expand("x.__class__")
    with pytest.raises(ExpressionError, match="must compute"):
        expand("None")


def test_the_expression_node_takes_its_ports_from_the_inputs_parameter():
    spec = get_spec("expr.expression")
    assert [p.name for p in spec.input_ports({"inputs": "a, bb"})] == ["a", "bb"]
    assert [p.name for p in spec.input_ports({"inputs": "formula"})] == ["x", "w", "b"]  # bad value: static ports
    node = Node("n1", "expr.expression", {"formula": "a * 2", "inputs": "a"})
    assert node.input_names() == ["a"]
    out = run("expr.expression", {"a": core.tensor([1.0, 2.0])}, {"formula": "a * 2", "inputs": "a"})
    assert out["out"].tolist() == [2.0, 4.0]


def test_the_expression_node_evaluates_the_chapter_formula():
    assert run("expr.expression", CHAPTER)["out"].item() == pytest.approx(1.6)


def test_an_unconnected_expression_input_is_reported_by_name():
    with pytest.raises(ValueError, match="input 'b' is not connected"):
        run("expr.expression", {"x": CHAPTER["x"], "w": CHAPTER["w"]})


def _run_fragment(frag):
    """Evaluate a fragment in topological order (a tiny executor for these tests) and return the last node."""
    values, pending = {}, list(frag["nodes"])
    while pending:
        node = next(n for n in pending if all(e["from"][0] in values for e in frag["edges"] if e["to"][0] == n["id"]))
        pending.remove(node)
        spec = get_spec(node["type"])
        ins = {e["to"][1]: values[e["from"][0]] for e in frag["edges"] if e["to"][0] == node["id"]}
        out = spec.evaluate(EvalContext(), ins, spec.validate_params(node["params"]))
        values[node["id"]] = out["out"] if isinstance(out, dict) else out
    return values[frag["nodes"][-1]["id"]]


def test_an_oversized_expand_is_refused_before_anything_is_allocated():
    with pytest.raises(ValueError, match="too large"):
        evaluate("x.expand(100000, 100000, 2).contiguous()", CHAPTER)


def test_a_graph_connects_to_the_dynamic_ports_of_an_expression_node():
    g = Graph()
    g.add_node(Node("n1", "source.ones"))
    g.add_node(Node("n2", "expr.expression", {"formula": "q.sum()", "inputs": "q"}))
    g.connect(Edge("n1", "out", "n2", "q"))
    with pytest.raises(GraphError):
        g.connect(Edge("n1", "out", "n2", "x"))


_FORMULA_CHARS = "xwb0123456789.+-*/%@()[]{}:,<>=!~&|^ _abcdefghijklmnopqrstuvwxyzT'\"\\\n"


@fuzz_settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_FORMULA_CHARS, max_size=60))
def test_any_text_parses_or_is_refused_with_an_expression_error(text):
    try:
        tree = expression.parse(text, names={"x", "w", "b"})
    except ExpressionError:
        return
    assert tree is not None


@fuzz_settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["+", "-", "*", "/", "@"]), min_size=1, max_size=8),
       st.lists(st.sampled_from(["x", "w", "b", "2", "x.sum()", "exp(w)", "w.T"]), min_size=9, max_size=9))
def test_random_formulas_evaluate_to_what_their_expansion_evaluates_to(ops, leaves):
    formula = leaves[0] + "".join(f" {op} {leaf}" for op, leaf in zip(ops, leaves[1:]))
    try:
        value = evaluate(formula, CHAPTER)
    except RuntimeError:  # a PyTorch error (e.g. matmul of a 0-d tensor) must come from expansion too
        with pytest.raises(RuntimeError):
            _run_fragment(_filled(expand(formula)))
        return
    assert_same(_run_fragment(_filled(expand(formula))), value)


def _filled(frag):
    for node in frag["nodes"]:
        if node["title"] in CHAPTER:
            node["params"]["tensor"] = CHAPTER[node["title"]].tolist()
    return frag


@pytest.mark.parametrize("formula, column", [("(x * w).sum( + b", 12), ("x +* y", 4), ("x + foo(x)", 5)])
def test_a_refused_formula_names_the_column_a_box_puts_its_cursor_on(formula, column):
    """The Insert expression box puts its cursor where the message points: ``ExpressionError.column`` reads it."""
    with pytest.raises(ExpressionError) as refused:
        expand(formula)
    assert refused.value.column == column and f"at column {column}" in str(refused.value)


def test_an_error_naming_no_position_has_no_column():
    assert ExpressionError("no formula").column is None
