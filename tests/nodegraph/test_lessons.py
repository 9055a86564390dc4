"""Every lesson runs headless: its graph loads, its steps run through a session, and what its text
promises (the ``expect:`` lines, which the prose states word for word) holds."""

from __future__ import annotations

import importlib.util
import json
import re

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files import io as files
from core.nodegraph.lessons.runner import LessonRun, matches
from core.nodegraph.lessons.texts import (
    ACTIONS,
    EXAMPLES_DIR,
    Action,
    LessonError,
    check_prose,
    links,
    list_lessons,
    parse_action,
    parse_lesson,
)
from core.nodegraph.model.validation import validate

LESSONS = list_lessons()
KEYS = [lesson.key for lesson in LESSONS]
NUMBERED = [f"{i:02d}" for i in range(1, 11)]


def test_the_examples_folder_holds_ten_lessons_in_reading_order_then_three_playgrounds():
    assert [k.split("-")[0] for k in KEYS[:10]] == NUMBERED
    assert sorted(KEYS[10:]) == ["playground-classifier", "playground-convnet", "playground-regression"]
    assert all(lesson.title and lesson.steps for lesson in LESSONS)


def test_every_json_file_in_the_examples_folder_has_a_lesson_text():
    graphs = sorted(p.stem for p in EXAMPLES_DIR.glob("*.json"))
    assert graphs == sorted(KEYS)


def test_the_build_script_reproduces_the_committed_graph_files_exactly():
    spec = importlib.util.spec_from_file_location("build_examples", EXAMPLES_DIR / "build_examples.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = module.texts()
    assert sorted(built) == sorted(f"{k}.json" for k in KEYS)
    for name, text in built.items():
        assert (EXAMPLES_DIR / name).read_text(encoding="utf-8") == text, f"{name} is stale: run build_examples.py"


def test_the_build_script_stays_out_of_a_wheel_and_the_graphs_and_texts_go_in():
    """build_examples.py is a tool of the checkout (it rewrites the files beside it): installed, it was the one
    script File ▸ Open code… found in the examples folder. The examples folder is no package, and the package data
    globs take its graphs and texts, not its script (a wheel built from this configuration holds 26 files there)."""
    import tomllib
    from fnmatch import fnmatch
    from pathlib import Path

    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    setuptools = config["setuptools"]
    assert any(fnmatch("core.nodegraph.assets.examples", p) for p in setuptools["packages"]["find"]["exclude"])

    def shipped(name: str) -> bool:
        path = f"assets/examples/{name}"
        return any(fnmatch(path, g) for g in setuptools["package-data"]["core.nodegraph"]) and \
            not any(fnmatch(path, g) for g in setuptools["exclude-package-data"]["core.nodegraph"])

    assert not shipped("build_examples.py")
    assert all(shipped(p.name) for p in EXAMPLES_DIR.iterdir() if p.suffix in (".json", ".md"))


@pytest.mark.parametrize("key", KEYS)
def test_every_example_loads_and_validates_without_issues(key):
    graph = files.load(EXAMPLES_DIR / f"{key}.json")
    assert validate(graph) == {}
    assert graph.training["loss"] is None or graph.training["loss"] in graph.nodes


@pytest.mark.parametrize("key", KEYS)
def test_every_lesson_has_checked_steps_and_a_try_this_section(key):
    lesson = LESSONS[KEYS.index(key)]
    assert sum(len(s.expects) for s in lesson.steps) >= 2
    assert lesson.try_this


@pytest.mark.parametrize("key", KEYS)
def test_every_promised_value_is_written_in_the_prose_of_its_step(key):
    lesson = LESSONS[KEYS.index(key)]
    missing = {s.title: check_prose(s) for s in lesson.steps if check_prose(s)}
    assert missing == {}


def test_no_inline_code_in_a_lesson_pads_with_runs_of_spaces():
    """Lesson 2 wrote b's shape as `(   4)` to line it up under `(3, 1)`; in running text it read as a gap in the
    Lesson panel. Inline code holds code as typed, never layout."""
    padded = [(lesson.key, code) for lesson in LESSONS
              for code in re.findall(r"`([^`\n]+)`", lesson.file.with_suffix(".md").read_text(encoding="utf-8"))
              if "  " in code]
    assert padded == []


@pytest.mark.parametrize("key", KEYS)
def test_every_link_names_a_known_action_or_an_existing_node(key):
    lesson = LESSONS[KEYS.index(key)]
    graph = files.load(lesson.file)
    for found in links(lesson.text):
        if found.kind == "action":
            assert found.target.name in ACTIONS
            if "node" in found.target.args:
                LessonRun(lesson).node_id(found.target.args["node"])  # raises for an unknown node
        else:
            assert found.target in graph.nodes, f"{key}: link [{found.label}] to unknown node {found.target}"
        if found.kind == "node":
            title = graph.nodes[found.target].title
            assert title is None or found.label == title, f"{key}: link [{found.label}] points at {title}"


@pytest.mark.parametrize("key", KEYS)
def test_the_lesson_steps_run_through_a_session_and_keep_their_promises(key):
    lesson = LESSONS[KEYS.index(key)]
    failures = LessonRun(lesson).run()
    assert [str(f) for f in failures] == []


def test_a_wrong_promise_is_reported_with_the_actual_value():
    lesson = LESSONS[KEYS.index("04-autograd-graph")]
    run = LessonRun(lesson)
    run.perform(Action("backward"))
    step = parse_lesson("# t\n## s\nz is 2.5\n```steps\nexpect: z = 2.5\n```\n")[2][0]
    (failure,) = run.run_step(step)
    assert failure.actual == pytest.approx(1.6)
    assert "expected z = 2.5" in str(failure)


def test_a_step_on_a_deleted_node_reports_a_failure_and_skips_its_action_without_raising():
    lesson = LESSONS[KEYS.index("04-autograd-graph")]
    run = LessonRun(lesson)
    run.graph.remove_node("n6")  # z, which the step sets and reads
    text = "# t\n## s\nz is 2.5\n```steps\ndo: set node=z param=value value=1\ndo: forward\nexpect: z = 2.5\n" \
        "expect: s = 1.5\n```\n"
    step = parse_lesson(text)[2][0]
    (failure,) = run.run_step(step)  # the set is skipped, forward runs, z can't be read, s still can
    assert failure.expectation.ref == "z"
    assert "no single node with id or title 'z'" in str(failure.actual)
    assert run.session.value("n5", "out") is not None


def test_lesson_four_is_the_chapter_graph_the_app_opens_first():
    from core.nodegraph.files.examples import default_graph

    graph = files.load(EXAMPLES_DIR / "04-autograd-graph.json")
    default = default_graph()
    assert [n.type for n in graph.nodes.values()] == [default.nodes[nid].type for nid in graph.nodes]
    assert [n.params for n in graph.nodes.values()] == [default.nodes[nid].params for nid in graph.nodes]
    assert graph.edges == default.edges


def test_action_links_and_do_lines_share_one_syntax():
    assert parse_action("backward?retain_graph=true") == Action("backward", {"retain_graph": True})
    assert parse_action("train n=20 zero_grad=false") == Action("train", {"n": 20, "zero_grad": False})
    assert parse_action("retain_grad?node=xw") == Action("retain_grad", {"node": "xw"})
    found = links("Press [Step backward](action:backward_step) on [x](node:n1).")
    assert [(f.label, f.kind, f.target) for f in found] == [("Step backward", "action", Action("backward_step")),
                                                           ("x", "node", "n1")]


def test_a_malformed_lesson_is_refused_with_a_message_naming_the_problem():
    with pytest.raises(LessonError, match="first line"):
        parse_lesson("no title")
    with pytest.raises(LessonError, match="unknown action 'fly'"):
        parse_lesson("# t\n## s\n```steps\ndo: fly\n```\n")
    with pytest.raises(LessonError, match="steps line 1"):
        parse_lesson("# t\n## s\n```steps\nexpect: nothing\n```\n")
    with pytest.raises(LessonError, match="unknown action 'jump'"):
        parse_lesson("# t\n## s\n[go](action:jump)\n")


def test_expectations_compare_numbers_approximately_and_text_by_containment():
    assert matches([1.50001, -0.5], "=", [1.5, -0.5])
    assert not matches([1.6, -0.5], "=", [1.5, -0.5])
    assert matches("RuntimeError: view size is not compatible", "~", "view size")
    assert matches(["grad_accumulation"], "~", "grad_accumulation")
    assert matches(0.2, "<", 1.0) and not matches(None, "<", 1.0)
    assert matches(None, "=", None) and not matches(0.0, "=", None)


def test_expect_values_are_json_or_python_constants_or_text():
    (step,) = parse_lesson("# t\n## s\nNone float32 [1, 2]\n```steps\nexpect: x.grad = None  # a comment\n"
                           "expect: x.dtype = float32\nexpect: x = [1, 2]\n```\n")[2]
    assert [(e.ref, e.op, e.value) for e in step.expects] == [("x.grad", "=", None), ("x.dtype", "=", "float32"),
                                                             ("x", "=", [1, 2])]
    assert json.loads("[1, 2]") == step.expects[2].value


def test_the_command_line_runner_reports_a_lesson_ok(capsys):
    from core.nodegraph.lessons.runner import main

    assert main(["04-autograd-graph"]) == 0
    assert capsys.readouterr().out.strip() == "04-autograd-graph: ok"
