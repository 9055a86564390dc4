"""Fuzzing what Edit > Paste and Insert expression take in: clipboard text and typed formulas.

Pasted text is checked as a file is (``files.loads_fragment``: one ``LoadError``), placed clear of the nodes
(``layout.free_offset``) and inserted by one ``commands.Paste`` (a ``GraphError`` that leaves the document as it
was); a formula is expanded (``expression.expand``: one ``ExpressionError``), laid out and pasted the same way.
What goes in saves, loads back and runs forward, backward and a training step without raising.
"""

import copy
import json

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import commands as cmd
from core.nodegraph.model import layout
from core.nodegraph.model.document import GraphError
from core.nodegraph.model.document_items import MAX_COORD
from core.nodegraph.model.expression import ExpressionError, expand
from tests.hypothesis_profiles import fuzz_settings
from tests.nodegraph.fuzz_checks import runs_without_raising
from tests.nodegraph.test_fuzz_file_mutations import NASTY, _paths

TEXTS = [p.read_text(encoding="utf-8") for p in sorted(lessons.EXAMPLES_DIR.glob("*.json"))]
FRAGMENTS = [json.loads(files.dumps_fragment(g, list(g.nodes))) for g in map(files.loads, TEXTS)]
FUZZ = fuzz_settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def clipboard_texts(draw) -> str:
    data = copy.deepcopy(FRAGMENTS[draw(st.integers(0, len(FRAGMENTS) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        paths = list(_paths(data))[1:]
        path = draw(st.sampled_from(paths))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            parent[path[-1]] = copy.deepcopy(draw(NASTY))
        else:
            del parent[path[-1]]
    return json.dumps(data)


def _paste_into(fragment, where: int, verb: str = "Paste") -> None:
    g = files.loads(TEXTS[where])
    before = files.dumps(g)
    try:
        offset = layout.free_offset(g, fragment, (30.0, 30.0))
        cmd.Paste(fragment, offset, verb).do(g)
    except GraphError as exc:
        assert str(exc) and files.dumps(g) == before
        return
    runs_without_raising(g)


@FUZZ
@given(text=clipboard_texts(), where=st.integers(0, len(TEXTS) - 1))
def test_mutated_clipboard_nodes_paste_and_run_or_are_refused_with_the_document_unchanged(text, where):
    try:
        fragment = files.loads_fragment(text)
    except LoadError as exc:
        assert str(exc) and len(str(exc)) < 1000
        return
    _paste_into(fragment, where)


FORMULA = st.one_of(
    st.text(alphabet="xwb0123456789.+-*/%@()[],: _abcdefghijklmnopqrstuvwxyzT'=<>", max_size=40),
    st.lists(st.sampled_from(["x", "w", "b", "2", "1e308", "-1e308", "0", "x.sum()", "exp(w)", "w.T", "x[0]",
                              "x[::2]", "x.view(-1)", "x.reshape(100000, 100000)", "relu(x)", "x.mean(dim=5)",
                              "log(x)", "x ** 1000", "x[1:0]", "x.unsqueeze(9)", "cat([x, w])"]),
             min_size=1, max_size=5).map(" * ".join),
)


@FUZZ
@given(formula=FORMULA, where=st.integers(0, len(TEXTS) - 1))
def test_any_formula_inserts_and_runs_or_is_refused_with_one_expression_error(formula, where):
    try:
        fragment = layout.fragment_layered(expand(formula))
    except ExpressionError as exc:
        assert str(exc) and len(str(exc)) < 1000
        return
    _paste_into(fragment, where, f"Insert {formula}")


# ----- escapes the fuzz tests found ----------------------------------------------------------------------------
def test_a_clipboard_node_far_out_on_the_canvas_is_refused_with_a_message_naming_its_position():
    data = copy.deepcopy(FRAGMENTS[0])
    data["nodes"][-1]["position"] = [720.0, -1.3407809248245042e154]  # finite, but the layout's squares overflowed
    try:
        files.loads_fragment(json.dumps(data))
    except LoadError as exc:
        assert f"nodes[{len(data['nodes']) - 1}].position[1]" in str(exc) and "canvas coordinate" in str(exc)
    else:
        raise AssertionError("a position of -1.3e154 was taken in")


def test_a_paste_placed_beyond_the_canvas_is_refused_with_the_document_unchanged():
    g = files.loads(TEXTS[0])
    before = files.dumps(g)
    fragment = files.loads_fragment(json.dumps(FRAGMENTS[0]))
    paste = cmd.Paste(fragment, (MAX_COORD, 0.0))
    try:
        paste.do(g)
    except GraphError as exc:
        assert "position" in str(exc)
    else:
        raise AssertionError("nodes were pasted where the saved file would not reopen")
    assert files.dumps(g) == before
