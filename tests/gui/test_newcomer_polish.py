"""Small things a newcomer's walk through the app found (session 25): each driven with real clicks and keys on
the real widgets of a shown window."""

import pytest
from PySide6.QtWidgets import QWidget

from gui import style
from tests.gui.real_input import click, show_dock, shown, type_text


def test_train_with_a_refused_learning_rate_says_why_in_the_status_bar(window, qtbot):
    """lr 'abc' then Train: nothing started and only the focus moved to the field; the status bar now says why,
    in the field's own refusal words."""
    w = shown(qtbot, window)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    lr = panel.findChild(QWidget, "trainLr")
    type_text(qtbot, lr, "abc", enter=False)
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Can't train"))
    refusal = panel.refusals[lr].text()
    assert refusal  # the red line under the field says it too
    assert w.status_label.text() == f"Can't train: Learning rate: {refusal[0].lower()}{refusal[1:]}"
    assert "'abc'" in w.status_label.text()
    assert w.training.trainer.state == "idle" and w.training.trainer.done == 0
    qtbot.waitUntil(lr.hasFocus)
    w.undo_stack.setClean()


def test_the_regression_playgrounds_data_node_says_its_batch_size_0_is_the_whole_set(window, qtbot):
    """The data node showed batch_size=0 (an empty batch, to a newcomer) while the run takes all 100 rows."""
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-regression")
    data = next(nid for nid, node in w.graph.nodes.items() if node.type == "data.dataset")
    assert w.graph.nodes[data].params["batch_size"] == 0
    qtbot.waitUntil(lambda: "batch_size=0 (whole set)" in w.scene.node_items[data].display.params)
    lines = [text for kind, text in w.scene.node_items[data]._preview_lines() if kind == "badge"]
    assert any("batch_size=0 (whole set)" in line for line in lines)  # drawn whole, on a line of its own or with others


def test_the_train_docks_step_mode_line_shows_an_eager_steps_reason_whole(qtbot, node_types):
    """Lesson 10 trains eagerly because of its in-place node: 'Training step: full (an in-place node changes tensors
    as it …' was cut, even 1920 wide; the line wraps now and shows all of it."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from gui.file_ops import load_graph
    from tests.gui.conftest import make_window

    graph, error = load_graph(str(EXAMPLES_DIR / "10-diagnosing.json"))
    assert error is None
    w = shown(qtbot, make_window(qtbot, graph))
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "3")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.training.trainer.done == 3, timeout=60_000)
    line = panel.step_mode
    qtbot.waitUntil(lambda: line.text() == "Training step: step by step, every node ran (an in-place node changes "
                                        "tensors as it runs)")
    qtbot.waitUntil(lambda: line.isVisible() and line.height() >= line.heightForWidth(line.width()))
    assert line.wordWrap() and line.width() <= panel.width()
    tip = line.toolTip()
    assert "Replayed" in tip and "Step by step" in tip  # what the two paths are, on hovering the line
    w.undo_stack.setClean()


@pytest.mark.parametrize(("lesson", "title", "badge"), [
    ("03-views", "row", "shares memory with base, write"),
    ("08-gradient-flow", "pred", "shares memory with eval_pred")])
def test_a_long_badge_wraps_to_lines_that_fit_the_node_at_every_zoom_that_draws_text(
        qtbot, node_types, lesson, title, badge):
    """Lesson 3's row showed 'shares memory with base, wr…' and lesson 8's pred 'shares memory with eval_…'."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from gui.canvas.node_item import SMALL_PRINT_BELOW, small_metrics, text_scale
    from gui.file_ops import load_graph
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click_toolbar

    graph, error = load_graph(str(EXAMPLES_DIR / f"{lesson}.json"))
    assert error is None
    w = shown(qtbot, make_window(qtbot, graph))
    nid = next(n for n, node in w.graph.nodes.items() if node.title == title)
    click_toolbar(w, "forward")
    item = w.scene.node_items[nid]
    qtbot.waitUntil(lambda: badge in item.display.badges)
    lines = [text for kind, text in item._preview_lines() if kind == "badge" and text in badge]
    assert len(lines) >= 2 and " ".join(lines) == badge  # every word, on lines of its own
    room = (style.NODE_WIDTH - 16) / text_scale(SMALL_PRINT_BELOW)  # text drawn biggest (a fitted lesson's zoom)
    assert all(small_metrics().horizontalAdvance(line) <= room for line in lines)
    w.undo_stack.setClean()


def test_lesson_10_opens_at_a_readable_zoom_on_its_first_steps_nodes_at_1920x1080(window, qtbot):
    """Framed whole, lesson 10 opened so far out that node text was ~6 px high at 1920x1080; it opens on the nodes
    its first step links to (log_p, nan_loss, diff), at a zoom where values are readable."""
    from gui.canvas.view import READABLE_ZOOM
    from tests.gui.real_input import open_lesson_by_mouse

    w = shown(qtbot, window, size=(1920, 1080))
    open_lesson_by_mouse(qtbot, w, "10.")
    qtbot.waitUntil(lambda: any(n.title == "nan_loss" for n in w.graph.nodes.values()))
    view = w.view
    first = [nid for nid, n in w.graph.nodes.items() if n.title in ("log_p", "nan_loss", "diff")]
    assert len(first) == 3

    def framed() -> bool:
        shown_rect = view.mapToScene(view.viewport().rect()).boundingRect()
        return all(shown_rect.contains(w.scene.node_items[nid].sceneBoundingRect()) for nid in first)

    qtbot.waitUntil(lambda: view.zoom_level() >= READABLE_ZOOM and framed())
    assert view.transform().m11() >= READABLE_ZOOM  # the view's scale: 8 pt text at 0.75 or more
