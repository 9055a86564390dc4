"""A graph file names the bundled lesson it belongs to (``lesson``: a lesson id, never a path), so a copy of an
example saved anywhere reopens with its lesson; files without the field (every older one) load as before."""

import json
import pathlib

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.lessons import EXAMPLES_DIR, bundled_lesson
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")

SAMPLES = pathlib.Path(__file__).parent / "samples"


def test_a_saved_copy_of_an_example_names_its_lesson_and_reopens_with_it(tmp_path):
    graph = files.load(EXAMPLES_DIR / "playground-regression.json")
    graph.lesson = "playground-regression"
    copy = tmp_path / "elsewhere" / "my-regression.json"
    copy.parent.mkdir()
    files.save(graph, copy)
    assert json.loads(copy.read_text())["lesson"] == "playground-regression"
    reopened = files.load(copy)
    assert reopened.lesson == "playground-regression"
    lesson = bundled_lesson(reopened.lesson)
    assert lesson is not None and lesson.file == EXAMPLES_DIR / "playground-regression.json"


def test_a_graph_without_a_lesson_writes_no_lesson_field(tmp_path):
    graph = files.load(EXAMPLES_DIR / "04-autograd-graph.json")
    assert graph.lesson is None
    assert "lesson" not in json.loads(files.dumps(graph))


@pytest.mark.parametrize("sample", ["graph_v1.json", "graph_v2.json", "graph_v3.json", "tensor_v3.json"])
def test_files_from_before_the_lesson_field_load_without_a_lesson(sample):
    assert files.load(SAMPLES / sample).lesson is None


def test_a_file_naming_a_lesson_this_app_lacks_loads_and_keeps_the_name():
    data = json.loads(files.dumps(files.load(SAMPLES / "graph_v3.json")))
    graph = files.loads(json.dumps({**data, "lesson": "99-not-a-lesson"}))
    assert graph.lesson == "99-not-a-lesson"
    assert bundled_lesson(graph.lesson) is None
    assert json.loads(files.dumps(graph))["lesson"] == "99-not-a-lesson"  # saved back as it came


@pytest.mark.parametrize("value, reason", [
    ("../../secret", "must be a lesson id such as '04-autograd-graph'"),
    ("/tmp/04-autograd-graph.json", "must be a lesson id"),
    ("", "must be a lesson id"),
    (4, "must be a string, got an integer"),
])
def test_a_lesson_field_that_is_not_a_lesson_id_is_refused_with_its_field(value, reason):
    data = json.loads(files.dumps(files.load(SAMPLES / "graph_v3.json")))
    with pytest.raises(files.LoadError, match="^lesson: ") as info:
        files.loads(json.dumps({**data, "lesson": value}))
    assert reason in str(info.value)


@pytest.mark.parametrize("key", ["../04-autograd-graph", "04-autograd-graph.json", "no-such-lesson", ""])
def test_bundled_lesson_finds_only_lessons_shipped_with_the_app(key):
    assert bundled_lesson(key) is None
    assert bundled_lesson("04-autograd-graph").title
