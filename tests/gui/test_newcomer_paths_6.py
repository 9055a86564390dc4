"""A newcomer's first hour, a sixth pass: what they misread or missed by hand, driven as they drove it (real
clicks, keys and pointer moves on the real widgets of a shown window)."""

import os

import pytest
from PySide6.QtWidgets import QApplication

from tests.gui.real_input import shown
from tests.gui.scenarios import driver as d
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _shown_labels(w) -> dict:
    """The visible shape labels on the canvas, by the edge they belong to."""
    return {edge: item.label for edge, item in w.scene.edge_items.items()
            if item.label_text and item.label.isVisible()}


def _overlapping(labels: dict) -> list:
    edges = list(labels)
    return [(a, b) for i, a in enumerate(edges) for b in edges[i + 1:]
            if labels[a].sceneBoundingRect().intersects(labels[b].sceneBoundingRect())]


def test_lesson_9s_shape_labels_from_different_edges_never_print_over_each_other(window, qtbot):
    """File ▸ Examples ▸ lesson 9, then Forward all: x -> grads.inputs runs behind critic and score, and its one gap
    is the one critic -> score's label sits in. Its ``(4, 2)`` goes under its own curve there, clear of
    ``(4, 1)`` and of every node; no two labels of the graph overlap, before or after critic is dragged aside."""
    from PySide6.QtCore import QPoint, QPointF

    from gui.canvas.node_item import NodeItem

    w = shown(qtbot, window)
    open_example(qtbot, w, "09-higher-order")
    d.click_toolbar(w, "forward")
    nodes = {n.title: nid for nid, n in w.graph.nodes.items()}
    qtbot.waitUntil(lambda: nodes["outer_loss"] in w.bridge.session.values)
    into_grads = next(e for e in w.graph.edges if e.dst == nodes["grads"] and e.dst_port == "inputs")
    critic_score = next(e for e in w.graph.edges if e.src == nodes["critic"] and e.dst == nodes["score"])
    qtbot.waitUntil(lambda: into_grads in _shown_labels(w) and critic_score in _shown_labels(w))
    labels = _shown_labels(w)
    assert labels[into_grads].text() == str(tuple(w.bridge.session.value(nodes["x"]).shape))
    assert labels[critic_score].text() == str(tuple(w.bridge.session.value(nodes["critic"]).shape))
    assert _overlapping(labels) == []
    under = w.scene.items(labels[into_grads].sceneBoundingRect())
    assert not any(isinstance(i, NodeItem) for i in under) and not labels[into_grads].boxed
    critic = w.scene.node_items[nodes["critic"]]
    d.click_toolbar(w, "fit_all")
    QApplication.processEvents()
    before, title = w.graph.nodes[nodes["critic"]].position, d.canvas_point(w, critic, QPointF(40, 8))
    d.drag(w.view.viewport(), title, title + QPoint(0, 30))
    qtbot.waitUntil(lambda: w.graph.nodes[nodes["critic"]].position != before)
    assert _overlapping(_shown_labels(w)) == []
    w.undo_stack.setClean()


def _lesson_keys() -> list:
    from core.nodegraph.lessons.texts import list_lessons

    return [lesson.key for lesson in list_lessons()]


@pytest.mark.parametrize("key", _lesson_keys())
def test_no_node_of_a_lesson_grows_over_the_one_below_it_after_forward_and_backward(window, qtbot, key):
    """Every lesson and playground opened with File ▸ Examples, then Forward all and Backward all clicked: nodes grow
    by their value, gradient and heat map lines (a parameter by four lines and a heat map), and none grows into
    another's box (lessons 8, 9 and 10 stacked parameters one grid row apart and their boxes overlapped)."""
    w = shown(qtbot, window)
    open_example(qtbot, w, key)
    for action in ("forward", "backward"):
        with qtbot.waitSignal(w.stepper.finished, timeout=60_000):
            d.click_toolbar(w, action)
        boxes = {w.graph.nodes[nid].title: item.mapRectToScene(item.body_rect())
                 for nid, item in w.scene.node_items.items()}
        names = sorted(boxes)
        overlapping = [(a, b) for i, a in enumerate(names) for b in names[i + 1:] if boxes[a].intersects(boxes[b])]
        assert overlapping == [], f"after {action}"
    w.undo_stack.setClean()


def test_a_shape_typed_as_in_a_call_is_taken_and_a_doubled_comma_is_refused(window, qtbot):
    """A randn node added from the Node library: its shape typed ``2, 3`` (as ``torch.randn(2, 3)`` is written) is
    stored as [2, 3] and Forward all makes a (2, 3) tensor; ``3,,4`` is refused under the field in words and leaves
    the shape as it was; ``(4,)`` with Python's trailing comma is taken too."""
    from PySide6.QtWidgets import QLineEdit

    from tests.gui.real_input import click_node, click_toolbar, double_click_library, type_text

    w = shown(qtbot, window)
    nid = double_click_library(qtbot, w, "source.randn")
    click_node(qtbot, w, nid)

    def shape_field():
        return next((f for f in w.inspector.findChildren(QLineEdit, "param_shape") if f.isVisible()), None)

    qtbot.waitUntil(lambda: shape_field() is not None)
    type_text(qtbot, shape_field(), "2, 3")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["shape"] == (2, 3))
    assert w.inspector.error_label.text() == ""
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: nid in w.bridge.session.values)
    assert tuple(w.bridge.session.value(nid).shape) == (2, 3)
    qtbot.waitUntil(lambda: shape_field() is not None)
    type_text(qtbot, shape_field(), "3,,4")
    qtbot.waitUntil(lambda: "can't read '3,,4'" in w.inspector.refusal_notes["shape"].text())
    assert w.graph.nodes[nid].params["shape"] == (2, 3)
    type_text(qtbot, shape_field(), "(4,)")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["shape"] == (4,))
    w.undo_stack.setClean()


def test_a_click_on_the_empty_canvas_takes_the_last_nodes_colour_table_out_of_the_inspector(window, qtbot):
    """A randn node (a 2-D value) added from the Node library, selected and run with Forward all: the Inspector shows
    its colour table. A click on an empty part of the canvas says "No node selected" and the table goes with the
    node (it stayed under that line, as if it were something's value)."""
    from gui.inspector import NOTHING_SELECTED
    from tests.gui.real_input import click_node, double_click_library

    w = shown(qtbot, window)
    nid = double_click_library(qtbot, w, "source.randn")
    click_node(qtbot, w, nid)
    d.click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: nid in w.bridge.session.values)
    assert len(w.bridge.session.value(nid).shape) == 2
    qtbot.waitUntil(lambda: w.inspector.heatmap is not None and w.inspector.heatmap.isVisible())
    d.click_canvas(qtbot, w)
    qtbot.waitUntil(lambda: w.inspector.heading.text() == NOTHING_SELECTED)
    assert not w.inspector.heatmap.isVisible() and not w.inspector.value_view.isVisible()
    click_node(qtbot, w, nid)
    qtbot.waitUntil(w.inspector.heatmap.isVisible)
    w.undo_stack.setClean()


def test_a_window_snapped_to_half_a_laptop_screen_keeps_the_canvas_the_widest_part(window, qtbot):
    """The window at 1366x768, then made 683 wide (snapped to half the screen) and 560 high: the two side columns
    give up width in proportion, so the canvas keeps at least 40 % of the window's width instead of shrinking
    alone to under 100 pixels; the chapter's nodes are still clicked on it; made wide again, the columns get their
    share back."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget

    from gui.dock_columns import CANVAS_MIN_SHARE
    from tests.gui.real_input import click_node

    w = shown(qtbot, window)
    left = next(d for d in w.findChildren(QDockWidget)
                if d.isVisible() and w.dockWidgetArea(d) == Qt.DockWidgetArea.LeftDockWidgetArea)
    right = w.inspector_dock
    wide = (left.width(), right.width())
    for size in ((683, 768), (683, 560)):
        w.resize(*size)
        qtbot.waitUntil(lambda size=size: w.width() == size[0] and w.view.width() >= CANVAS_MIN_SHARE[0] * size[0] - 8)
        assert left.isVisible() and right.isVisible() and left.width() + right.width() < sum(wide)
    click_node(qtbot, w, "n1")
    qtbot.waitUntil(lambda: w.inspector.node_id == "n1")
    w.resize(1366, 768)
    qtbot.waitUntil(lambda: left.width() + right.width() >= sum(wide) - 8)  # as at this width before
    w.undo_stack.setClean()


def test_help_about_says_what_the_app_is_its_version_and_the_first_keys_from_the_menus(window, qtbot):
    """Help ▸ About Nodegrad, clicked: the box names the app's version and its first steps, with the keys the Run menu
    shows for Forward step and Backward all (read from the menu's own entries, never a second list), and Escape
    closes it."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QMessageBox

    from core.nodegraph.files.io import APP_VERSION

    w = shown(qtbot, window)
    seen = []

    def read_and_close(box):
        seen.append(box.text())
        QTest.keyClick(box, Qt.Key_Escape)

    answered = d.answer_dialog(qtbot, QMessageBox, read_and_close)
    d.click_menu(qtbot, w, "Help", "About Nodegrad")
    qtbot.waitUntil(lambda: answered == ["QMessageBox"])
    text = seen[0]
    run = d.menu_entry(w.menuBar(), "Run").menu()
    keys = {name: d.menu_entry(run, name).shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            for name in ("Forward step", "Backward all")}
    assert f"Nodegrad {APP_VERSION}" in text and "Help ▸ Lessons" in text
    assert all(key and f"{name} ({key})" in text for name, key in keys.items())
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)


def test_the_palettes_long_descriptions_wrap_whole_with_the_whole_text_on_hover(empty_window, qtbot):
    """Tab on the canvas opens the node palette; typing ``gradcheck`` lists a row whose description runs past its width:
    it wraps onto more lines of its row, whole (it ended in "…" at 1366x768), with no sideways scroll bar (which cut
    every row off mid-word), and hovering a row shows its whole description from the node type's spec."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtTest import QTest

    from core.nodegraph.model.spec import get_spec
    from tests.gui.real_input import click

    w = shown(qtbot, empty_window)
    click(w.view.viewport())
    QTest.keyClick(w.view.viewport(), Qt.Key_Tab)
    qtbot.waitUntil(lambda: w.node_palette is not None and w.node_palette.search_edit.isVisible())
    QTest.keyClicks(w.node_palette.search_edit, "gradcheck")
    results = w.node_palette.results
    qtbot.waitUntil(lambda: results.count() > 0 and results.item(0).data(Qt.UserRole) == "check.gradcheck")
    row = results.item(0)
    assert QFontMetrics(results.font()).horizontalAdvance(row.text()) > results.viewport().width()  # a long row
    assert not results.horizontalScrollBar().isVisible()
    assert results.textElideMode() == Qt.TextElideMode.ElideNone and results.wordWrap()
    assert results.visualItemRect(row).height() >= 2 * QFontMetrics(results.font()).height()  # wrapped
    QTest.mouseMove(results.viewport(), results.visualItemRect(row).center())
    assert get_spec("check.gradcheck").description in row.toolTip()
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not w.node_palette.isVisible())


def test_a_run_whose_first_step_fails_names_the_reason_and_no_step_path(window, qtbot):
    """Train clicked on the chapter's graph (tensors, no parameters): the Train dock says why it stopped and no
    'Step: eager — first step after a change' line sits above it as if a step had run."""
    from tests.gui.real_input import click, show_dock

    w = shown(qtbot, window)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: "empty parameter list" in panel.message.text())
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle")
    assert w.training.trainer.done == 0 and panel.step_mode.text() == ""


def test_ctrl_s_on_a_changed_lesson_asks_where_and_never_writes_over_the_lessons_file(window, qtbot, monkeypatch,
                                                                                      tmp_path):
    """Lesson 4 opened from File ▸ Examples, x renamed in the Inspector, then Ctrl+S: a Save dialog asks where (it
    starts outside the examples folder, named as the lesson's file) instead of writing the learner's change over the
    lesson's own graph; the copy saved there has the change, and the next Ctrl+S saves to it without asking."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    from core.nodegraph.files import io as files
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from tests.gui.real_input import click_node, press, type_text

    lesson = EXAMPLES_DIR / "04-autograd-graph.json"
    before = lesson.read_bytes()
    asked, mine = [], tmp_path / "my-lesson-4.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (asked.append(a[2]), (str(mine), ""))[1])
    w = shown(qtbot, window)
    open_example(qtbot, w, "04-autograd-graph")
    click_node(qtbot, w, "n1")
    type_text(qtbot, w.inspector.name_edit, "inputs")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].title == "inputs")
    press(w, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: mine.exists())
    assert len(asked) == 1 and os.path.basename(asked[0]) == lesson.name
    assert os.path.dirname(asked[0]) != str(EXAMPLES_DIR) and lesson.read_bytes() == before
    assert files.load(str(mine)).nodes["n1"].title == "inputs" and w.path == str(mine)
    type_text(qtbot, w.inspector.name_edit, "x_in")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].title == "x_in")
    press(w, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: files.load(str(mine)).nodes["n1"].title == "x_in")
    assert len(asked) == 1 and lesson.read_bytes() == before


def test_opening_a_lesson_after_training_closes_the_empty_plots_and_gives_the_canvas_its_room(window, qtbot):
    """The classifier playground trained for a few steps (Plots and Data open), then lesson 4 opened from
    File ▸ Examples: it has no runs, so Plots and Data close instead of staying open, empty, with the playground's
    axes, and the canvas is as tall as before training; Train on lesson 6 opens them again."""
    from tests.gui.real_input import click, show_dock

    w = shown(qtbot, window)
    plots, data = w.training.docks["plots"], w.training.docks["data"]
    tall = w.view.height()
    open_example(qtbot, w, "playground-classifier")
    show_dock(qtbot, w, w.training.docks["train"])
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: plots.isVisible() and data.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: w.training.trainer.state != "training", timeout=60_000)
    assert w.view.height() < tall * 0.7
    open_example(qtbot, w, "04-autograd-graph")
    qtbot.waitUntil(lambda: not plots.isVisible() and not data.isVisible())
    qtbot.waitUntil(lambda: w.view.height() >= tall - 8)
    open_example(qtbot, w, "06-training-step")
    show_dock(qtbot, w, w.training.docks["train"])
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: plots.isVisible(), timeout=30_000)
    qtbot.waitUntil(lambda: w.training.trainer.state != "training", timeout=60_000)
    w.undo_stack.setClean()


def test_a_layers_watch_buttons_wrap_inside_the_inspector_and_each_one_pins_its_tensor(window, qtbot):
    """The classifier playground from File ▸ Examples, Forward all, the mlp clicked: its seven Watch buttons (out and
    three layers' weight and bias) wrap in rows inside the Inspector at 1366x768, never pushing it wider than its
    dock (they sat in rows of four, the fourth column and the heading's end cut off behind a sideways scroll bar);
    a click on a button of the last row pins that tensor to the Watch list."""
    from PySide6.QtWidgets import QScrollArea

    from tests.gui.real_input import click, click_node
    from tests.gui.waiting import wait_until_layouts_settle

    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-classifier")
    mlp = next(nid for nid, n in w.graph.nodes.items() if n.type == "layer.mlp")
    d.click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: mlp in w.bridge.session.values)
    click_node(qtbot, w, mlp)
    buttons = w.inspector.watch_buttons.buttons
    qtbot.waitUntil(lambda: len(buttons) == 7 and all(b.isVisible() for b in buttons.values()))
    scroll = w.findChild(QScrollArea, "inspectorDockScroll")
    wait_until_layouts_settle(qtbot, [w.inspector, scroll.viewport()])
    assert not scroll.horizontalScrollBar().isVisible()
    viewport = scroll.viewport()
    for button in buttons.values():
        corner = button.mapTo(viewport, button.rect().bottomRight())
        assert viewport.rect().contains(corner), f"{button.text()} is cut off"
    last = max(buttons.values(), key=lambda b: (b.y(), b.x()))
    assert last.y() > buttons["out"].y()  # wrapped
    click(last)
    qtbot.waitUntil(lambda: f"{mlp}.{last.text()}" in w.training.watch.watch.keys)
    w.undo_stack.setClean()


def test_training_a_graph_without_a_dataset_gives_the_plots_the_whole_width(window, qtbot):
    """Lesson 6 (a random batch, no dataset node) trained from the Train dock: the plots open and the Data dock,
    which would only say there is no dataset to draw, stays closed; the classifier playground trained next opens it
    beside the plots with its points."""
    from tests.gui.real_input import click, show_dock

    w = shown(qtbot, window)
    plots, data, view = w.training.docks["plots"], w.training.docks["data"], w.training.data
    for key, with_data in (("06-training-step", False), ("playground-classifier", True)):
        open_example(qtbot, w, key)
        show_dock(qtbot, w, w.training.docks["train"])
        click(w.training.panel.buttons["Train"])
        qtbot.waitUntil(lambda: plots.isVisible() and w.training.trainer.done > 0, timeout=30_000)
        qtbot.waitUntil(lambda: w.training.trainer.state != "training", timeout=60_000)
        assert data.isVisible() == with_data
        if with_data:
            qtbot.waitUntil(lambda: view.view is not None and view.view["kind"] == "classification")
        else:
            assert plots.width() > w.width() * 0.9
    w.undo_stack.setClean()
