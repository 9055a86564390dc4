"""The third pass by hand (a newcomer and a teacher preparing a class): code to graph, training, files and the
Inspector, driven as they drove them, with real clicks and keys on the real widgets of a shown window."""

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QTreeWidget, QWidget

from tests.gui.real_input import shown

LOOP = """import torch
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
xb = torch.randn(8, 4)
yb = torch.randn(8, 1)
pred = model(xb)
loss = torch.nn.functional.mse_loss(pred, yq)
optimizer.zero_grad()
loss.backward()
optimizer.step()
"""


def _code_dialog(w, other_than=None):
    from PySide6.QtWidgets import QDialog

    return next((d for d in w.findChildren(QDialog, "codeInputDialog") if d.isVisible() and d is not other_than), None)


def _type_loop(edit) -> None:
    """Type the chapter's loop as a user does in a code box: Tab before each line of the loop's body."""
    body = False
    for line in LOOP.splitlines():
        if body:
            QTest.keyClick(edit, Qt.Key_Tab)
        QTest.keyClicks(edit, line)
        QTest.keyClick(edit, Qt.Key_Return)
        body = body or line.startswith("for ")


def test_the_snippet_box_takes_code_typed_with_tab_imports_on_ctrl_return_and_puts_the_cursor_on_the_bad_line(
        window, qtbot, dialogs):
    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    first = _code_dialog(w)
    metrics = QFontMetrics(first.edit.font())
    assert metrics.horizontalAdvance("iiii") == metrics.horizontalAdvance("MMMM")  # code lines up as in an editor
    QTest.keyClick(first.edit, Qt.Key_A, Qt.ControlModifier)
    _type_loop(first.edit)
    typed = first.edit.toPlainText()
    assert "\t" not in typed and "\n    xb = torch.randn(8, 4)\n" in typed  # Tab indents with spaces
    assert _code_dialog(w) is first  # Tab typed into the box, it did not move the focus to the buttons

    QTest.keyClick(first.edit, Qt.Key_Return, Qt.ControlModifier)  # imports, as the Import button does
    qtbot.waitUntil(lambda: _code_dialog(w, first) is not None, timeout=60_000)
    again = _code_dialog(w, first)
    assert again.error_label.text().startswith("snippet.py: line 8: NameError: name 'yq'")
    assert again.edit.textCursor().blockNumber() + 1 == 8  # the cursor waits on the line the message names
    assert [s.cursor.blockNumber() + 1 for s in again.edit.extraSelections()] == [8]  # and that line is banded

    QTest.keyClick(again.edit, Qt.Key_End)
    for _ in range(4):
        QTest.keyClick(again.edit, Qt.Key_Backspace)
    assert again.edit.extraSelections() == []  # the band marked the text that failed: it goes with the first edit
    QTest.keyClicks(again.edit, "yb)")
    QTest.keyClick(again.edit, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    # the chapter's loop is recognised in the import's fresh process: one pass of its body, and the training settings
    assert [n.type for n in w.graph.nodes.values()].count("loss.mse") == 1
    assert (w.graph.training["optimizer"], w.graph.training["steps"]) == ("SGD", 3)
    assert w.status_label.text().startswith("Imported snippet.py: 6 nodes; 3 notes under the code")
    assert dialogs == []


def test_file_new_clears_the_last_documents_diagnostics(qtbot, node_types):
    from core.nodegraph.files import io as files
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click_toolbar, press, show_dock

    w = shown(qtbot, make_window(qtbot, files.load(str(EXAMPLES_DIR / "10-diagnosing.json"))))
    click_toolbar(w, "forward")
    click_toolbar(w, "backward")
    show_dock(qtbot, w, w.findChild(type(w.library_dock), "diagnosticsDock"))
    tree = w.findChild(QTreeWidget, "diagnosticsTree")
    qtbot.waitUntil(lambda: tree.topLevelItemCount() > 0 and tree.topLevelItem(0).text(0) == "error")
    press(w, Qt.Key_N, Qt.ControlModifier)  # File ▸ New (the lesson is unchanged: no question)
    qtbot.waitUntil(lambda: not w.graph.nodes)
    # the hints named nodes of the lesson (nan first appears at 'bad'): the empty graph has none to show
    qtbot.waitUntil(lambda: tree.topLevelItemCount() == 0)
    assert w.findChild(QLabel, "diagnosticsDetail").text() == ""
    assert w.findChild(QLabel, "diagnosticsCaption").text().startswith("No problems found yet")
    w.undo_stack.setClean()


def test_two_learning_rates_tried_at_one_step_label_their_plot_markers_apart(qtbot, node_types):
    """A teacher tries lr 0.05, then 0.01, between two trainings: both markers sit at step 10, and their labels were
    drawn over each other (as an lr change and the stop it caused a few steps later were)."""
    from core.nodegraph.files.toy import classifier_graph
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click, type_text

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel, trainer = w.training.panel, w.training.trainer
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "10")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 10, timeout=60_000)
    type_text(qtbot, panel.findChild(QWidget, "trainLr"), "0.05")
    type_text(qtbot, panel.findChild(QWidget, "trainLr"), "0.01")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.current) == 20, timeout=60_000)
    plot = w.training.plot
    qtbot.waitUntil(lambda: len(plot._markers) == 2)
    first, second = (line.label for line in plot._markers.values())
    assert [first.format, second.format] == ["lr 0.02 → 0.05", "lr 0.05 → 0.01"]
    assert first.isVisible() and second.isVisible()
    assert not first.sceneBoundingRect().intersects(second.sceneBoundingRect())
    w.undo_stack.setClean()


def test_save_as_a_name_typed_without_json_saves_name_json_and_asks_before_replacing_one(
        window, qtbot, monkeypatch, tmp_path, dialogs):
    """'chapter' typed in Save As was saved as 'chapter', which File ▸ Open's 'Nodegrad graphs (*.json)' filter
    then hid; now it is chapter.json, and a chapter.json already there is replaced only when the user says so."""
    from PySide6.QtWidgets import QFileDialog

    from tests.gui.real_input import click_node, press

    w = shown(qtbot, window)
    folder = tmp_path / "work"
    folder.mkdir()
    typed = str(folder / "chapter")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (typed, "Nodegrad graphs (*.json)"))
    press(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ Save as…
    qtbot.waitUntil(lambda: w.path == typed + ".json")
    assert sorted(p.name for p in folder.iterdir()) == ["chapter.json"]
    assert w.windowTitle().startswith("chapter.json")
    saved = (folder / "chapter.json").read_text()

    click_node(qtbot, w, "n1")
    press(w, Qt.Key_Delete)  # a change, then Save as 'chapter' again: chapter.json exists now
    qtbot.waitUntil(lambda: "n1" not in w.graph.nodes)
    press(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: len(dialogs) == 1)
    assert dialogs[0][0] == "question" and "chapter.json already exists" in dialogs[0][1]
    assert (folder / "chapter.json").read_text() == saved  # the answer (not Yes) kept the file
    assert not w.undo_stack.isClean()
    w.undo_stack.setClean()


def test_opening_a_python_file_with_file_open_says_where_code_opens(window, qtbot, monkeypatch, tmp_path, dialogs):
    """A newcomer picks their snippet in File ▸ Open: it said 'not valid JSON (truncated or damaged file?)'."""
    from PySide6.QtWidgets import QFileDialog

    from tests.gui.real_input import press

    w = shown(qtbot, window)
    before = w.graph.to_dict()
    snippet = tmp_path / "snippet.py"
    snippet.write_text("import torch\nx = torch.ones(2)\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(snippet), "All files (*)"))
    press(w, Qt.Key_O, Qt.ControlModifier)  # File ▸ Open…
    qtbot.waitUntil(lambda: len(dialogs) == 1)
    kind, text = dialogs[0]
    assert kind == "warning" and text.startswith("Can't open snippet.py: it is Python code, not a graph file.")
    assert "File ▸ Open code… (Ctrl+Shift+O)" in text
    assert w.graph.to_dict() == before


def test_a_long_error_on_a_node_shows_whole_lines_ending_in_an_ellipsis(qtbot, empty_window):
    """(x @ w) of two scalars: matmul's message was cut through the middle of its third line at the node's edge."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QFont, QFontMetricsF
    from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

    from gui.canvas.node_item import ERROR_H
    from tests.gui.real_input import click_toolbar, press

    w = shown(qtbot, empty_window)

    def type_formula():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or not dialog.isVisible():
            QTimer.singleShot(10, type_formula)
            return
        edit = dialog.findChild(QLineEdit)
        QTest.keyClicks(edit, "(x @ w).sum() + b")
        QTest.keyClick(edit, Qt.Key_Return)

    QTimer.singleShot(0, type_formula)
    press(w, Qt.Key_E, Qt.ControlModifier)  # Edit ▸ Insert expression…
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 6)
    click_toolbar(w, "forward")
    (matmul,) = [nid for nid, n in w.graph.nodes.items() if n.type == "linalg.matmul"]
    item = w.scene.node_items[matmul]
    qtbot.waitUntil(lambda: len(item.painted_error) > 1)
    metrics = QFontMetricsF(QFont(w.view.font().family(), 8))  # the font a node's preview lines are painted in
    lines = item.painted_error
    assert lines[0].startswith("RuntimeError: both arguments") and lines[-1].endswith("…")
    assert len(lines) * metrics.lineSpacing() <= ERROR_H  # whole lines only, in the room the node gives them
    assert all(metrics.horizontalAdvance(line) <= item.boundingRect().width() - 16 for line in lines)
    w.undo_stack.setClean()


def test_the_values_the_canvas_shows_typed_back_into_a_tensor_field_are_taken(window, qtbot):
    """The canvas writes x as '[2., 3.]' (as print(x) does); typed back, '[[1., 2.], [3., 4.]]' was refused with
    "can't read" (it wanted 1.0)."""
    from tests.gui.real_input import click_node, click_toolbar, type_text

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")  # x
    field = w.inspector.editors["tensor"]
    qtbot.waitUntil(field.isVisible)
    type_text(qtbot, field, "[[1., 2.], [3., 4.]]")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["tensor"] == [[1.0, 2.0], [3.0, 4.0]])
    assert w.inspector.error_label.text() == ""
    click_node(qtbot, w, "n2")  # w
    qtbot.waitUntil(lambda: w.inspector.editors["tensor"].isVisible()
                    and w.inspector.editors["tensor"].text() == "[1.5, -0.5]")
    type_text(qtbot, w.inspector.editors["tensor"], ".5, -.5")
    qtbot.waitUntil(lambda: w.graph.nodes["n2"].params["tensor"] == [0.5, -0.5])
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.scene.node_items["n2"].painted_value.startswith("[ 0.5000, -0.5000]"))
    w.undo_stack.setClean()


def test_the_inspectors_colour_table_numbers_rows_and_columns_by_whole_indices(window, qtbot):
    """A 2 x 2 value's table had axes 0, 0.5, 1, 1.5, 2 with the cells between the ticks; each cell now sits on its
    row and column index and the ticks are whole indices."""
    from tests.gui.real_input import click_node, click_toolbar, type_text

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    qtbot.waitUntil(lambda: w.inspector.editors["tensor"].isVisible())
    type_text(qtbot, w.inspector.editors["tensor"], "[[1., 2., 3.], [4., 5., 6.]]")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["tensor"] == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    click_toolbar(w, "forward_step")
    heat = w.inspector.heatmap
    qtbot.waitUntil(lambda: heat is not None and heat.isVisible() and heat.data is not None)
    image = heat.image
    assert image.mapRectToParent(image.boundingRect()) == QRectF(-0.5, -0.5, 3, 2)  # cell (i, j) around (j, i)
    for side, count in (("left", 2), ("bottom", 3)):
        axis = heat.plot.getAxis(side)
        low, high = sorted(axis.range)  # the rows' axis runs downwards
        ticks = [v for _, values in axis.tickValues(low, high, axis.height() if side == "left" else axis.width())
                 for v in values]
        assert ticks == list(range(count))  # whole indices, each row and column, none of the margin around them
    w.undo_stack.setClean()


def test_a_2d_values_text_keeps_more_of_the_inspector_than_its_colour_table(window, qtbot):
    """At 1366x768 a 2 x 3 value's text had three lines and a scroll bar under the controls, the colour table below
    it the rest: the numbers, shape and strides come first."""
    from tests.gui.real_input import click_node, click_toolbar, type_text

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    qtbot.waitUntil(lambda: w.inspector.editors["tensor"].isVisible())
    type_text(qtbot, w.inspector.editors["tensor"], "[[1., 2., 3.], [4., 5., 6.]]")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["tensor"] == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    click_toolbar(w, "forward_step")
    view = w.inspector.value_view
    qtbot.waitUntil(lambda: w.inspector.heatmap is not None and w.inspector.heatmap.isVisible())
    qtbot.waitUntil(lambda: view.toPlainText().startswith("out = [[1., 2., 3.],"))
    assert view.height() > w.inspector.heatmap.height()
    shown_lines = view.viewport().height() // view.fontMetrics().lineSpacing()
    assert shown_lines >= 6  # the numbers, the shape/dtype/strides line and the statistics, without scrolling
    w.undo_stack.setClean()


@pytest.mark.parametrize("example, says", [("regression", True), ("classifier", False)])
def test_training_a_regression_gives_the_empty_accuracy_plots_room_to_the_loss_plot(qtbot, node_types, example, says):
    """A regression's steps leave the accuracy plot nothing to show: it is hidden, the loss plot takes the whole
    row and its title says why (an empty 'not a classifier' plot took a third of it); a classifier keeps its
    accuracy plot. Either way the loss legend sits inside the loss plot, under its title, beside its curves."""
    from core.nodegraph.files import io as files
    from core.nodegraph.files.toy import classifier_graph
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from gui.plots.loss_plot import NO_ACCURACY
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click, type_text

    graph = files.load(str(EXAMPLES_DIR / "playground-regression.json")) if example == "regression" \
        else classifier_graph("spiral")
    w = shown(qtbot, make_window(qtbot, graph))
    panel, trainer, plot = w.training.panel, w.training.trainer, w.training.plot
    loss, accuracy = plot.plots["loss"], plot.plots["accuracy"]
    assert plot.accuracy_shown  # nothing trained yet: nothing known
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "15")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.current) == 15, timeout=60_000)
    qtbot.waitUntil(lambda: plot.isVisible() and plot._drawn.get((1, "accuracy")) == (15, 0))
    qtbot.waitUntil(lambda: accuracy.isVisible() != says and bool(plot.legend.items))
    row = plot.canvas.ci.boundingRect()
    if says:
        assert NO_ACCURACY in loss.titleLabel.text
        qtbot.waitUntil(lambda: loss.sceneBoundingRect().width() > 0.9 * row.width())  # the whole row
    else:
        assert loss.titleLabel.text == "loss" and accuracy.listDataItems()
        assert not accuracy.sceneBoundingRect().intersects(loss.sceneBoundingRect())
    legend, title = plot.legend.sceneBoundingRect(), loss.titleLabel.sceneBoundingRect()
    assert loss.sceneBoundingRect().contains(legend) and legend.top() >= title.bottom() - 1
    assert legend.left() >= loss.vb.sceneBoundingRect().right() - 1  # beside the curves, never over them
    w.undo_stack.setClean()


def test_a_large_tensor_literal_reads_as_its_shape_on_its_node(window, qtbot, dialogs):
    """x = torch.randn(300, 400) imported: its node said 'tensor=TensorValue(shape=[...' (a Python repr)."""
    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    box = _code_dialog(w)
    QTest.keyClick(box.edit, Qt.Key_A, Qt.ControlModifier)
    for line in ("import torch", "x = torch.randn(300, 400, requires_grad=True)", "y = (x * 2).sum()"):
        QTest.keyClicks(box.edit, line)
        QTest.keyClick(box.edit, Qt.Key_Return)
    QTest.keyClick(box.edit, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    (x,) = [nid for nid, n in w.graph.nodes.items() if n.title == "x"]
    badges = w.scene.node_items[x].display.badges
    assert badges[0] == "tensor=(300, 400) values dtype=float32" and "TensorValue" not in " ".join(badges)
    assert dialogs == []


def test_an_imported_graph_with_2d_values_keeps_its_nodes_apart_once_stepped(window, qtbot, dialogs):
    """x (300, 400) and w (400, 10) imported, then Forward all and Backward all: their value, gradient, flags and
    colour table made x grow into w, w's accumulation badge sitting on x."""
    from itertools import combinations

    from tests.gui.real_input import click_toolbar

    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    box = _code_dialog(w)
    QTest.keyClick(box.edit, Qt.Key_A, Qt.ControlModifier)
    for line in ("import torch", "x = torch.randn(300, 400, requires_grad=True)",
                 "w = torch.randn(400, 10, requires_grad=True)", "loss = (x @ w).pow(2).mean()", "loss.backward()"):
        QTest.keyClicks(box.edit, line)
        QTest.keyClick(box.edit, Qt.Key_Return)
    QTest.keyClick(box.edit, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    click_toolbar(w, "forward")
    click_toolbar(w, "backward")
    items = w.scene.node_items
    qtbot.waitUntil(lambda: all(items[n].display.grad for n in items if w.graph.nodes[n].title in ("x", "w")))
    assert all(items[n].display.heat for n in items if w.graph.nodes[n].title in ("x", "w"))
    for a, b in combinations(items.values(), 2):
        assert not a.sceneBoundingRect().intersects(b.sceneBoundingRect()), (a.title, b.title)
    assert dialogs == []
    w.undo_stack.setClean()


def test_switching_the_optimizer_between_trainings_marks_the_loss_plot(qtbot, node_types):
    """Adam, then SGD chosen after step 10 and trained on: the run went on under its 'Adam(lr=0.05)' label with no
    mark where SGD took over (an lr change was marked)."""
    from core.nodegraph.files.toy import classifier_graph
    from tests.gui.conftest import make_window
    from tests.gui.real_input import choose_in_combo, click, type_text

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel, trainer, plot = w.training.panel, w.training.trainer, w.training.plot
    first = w.graph.training["optimizer"]
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "10")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.current) == 10, timeout=60_000)
    choose_in_combo(qtbot, panel.optimizer, "SGD")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.current) == 20, timeout=60_000)
    assert type(trainer.session.optimizer()).__name__ == "SGD"
    assert trainer.history.current.markers == [(9, f"optimizer {first} → SGD")]
    qtbot.waitUntil(lambda: len(plot._markers) == 1)
    w.undo_stack.setClean()


def test_the_status_bar_says_how_training_ended_or_paused(qtbot, node_types):
    """After Train the status bar still said 'Set training steps' (the last edit), paused or done alike."""
    from core.nodegraph.files.toy import classifier_graph
    from gui import format as fmt
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click, type_text

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel, trainer = w.training.panel, w.training.trainer
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "12")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 12, timeout=60_000)
    assert w.status_label.text() == f"Trained 12 steps, loss {fmt.scalar(trainer.last_loss)}"

    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "100000")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.done >= 3, timeout=60_000)
    click(panel.buttons["Pause"])
    qtbot.waitUntil(lambda: trainer.state == "paused", timeout=60_000)
    assert w.status_label.text().startswith(f"Training paused after {trainer.done} of 100000 steps, loss ")
    assert w.status_label.text().endswith(": Train goes on, Step runs one")
    w.undo_stack.setClean()


def test_a_module_class_snippet_names_its_layers_after_the_model_and_says_what_ran_after_the_loop(
        window, qtbot, dialogs):
    from tests.nodegraph.test_code_import import MODULE_LOOP

    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    box = _code_dialog(w)
    box.edit.selectAll()
    QApplication.clipboard().setText(MODULE_LOOP)  # pasted, as a teacher brings a prepared snippet
    QTest.keyClick(box.edit, Qt.Key_V, Qt.ControlModifier)
    assert box.edit.toPlainText() == MODULE_LOOP
    QTest.keyClick(box.edit, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    titles = {item.title for item in w.scene.node_items.values()}
    assert {"model.fc1.weight", "model.fc2.bias"} <= titles and not any(t.startswith("self.") for t in titles)
    notes = w.code.pane.notes
    qtbot.waitUntil(notes.isVisible)
    assert "line 22: the code from here on ran after the training loop and is not in the graph" in notes.text()
    assert dialogs == []


def test_a_graph_opened_from_code_is_named_after_its_file_until_saved(window, qtbot, monkeypatch, tmp_path, dialogs):
    """File ▸ Open code… on mlp.py: the window said 'untitled', Save as offered graph.json, and each layer's
    parameter node repeated its title ('name=model.fc1.weight') on its body."""
    from PySide6.QtWidgets import QFileDialog

    from tests.gui.real_input import press
    from tests.nodegraph.test_code_import import MODULE_LOOP

    w = shown(qtbot, window)
    (tmp_path / "mlp.py").write_text(MODULE_LOOP)
    picked = (str(tmp_path / "mlp.py"), "Python code (*.py)")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: picked)
    press(w, Qt.Key_O, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ Open code…
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    assert w.windowTitle() == "untitled (from mlp.py) — Nodegrad"
    params = [i for i in w.scene.node_items.values() if i.title.startswith("model.")]
    assert params and not any("name=" in " ".join(i.display.badges) for i in params)
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda _parent, _title, start, *_: offered.append(start)
                        or ("", ""))
    press(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ Save as…
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert offered[0].endswith("mlp.json")
    assert dialogs == []


def test_ctrl_2_on_a_new_node_types_into_its_first_parameter_not_its_name(empty_window, qtbot):
    """Keyboard only: Tab, 'randn', Return adds the node; Ctrl+2 then '2, 3' became the node's name ('2, 3' on its
    title bar), not its shape."""
    from tests.gui.real_input import press

    w = shown(qtbot, empty_window)
    press(w, Qt.Key_1, Qt.ControlModifier)  # View ▸ Focus canvas
    qtbot.waitUntil(w.view.hasFocus)
    QTest.keyClick(w.view, Qt.Key_Tab)  # the node palette
    qtbot.waitUntil(lambda: w.node_palette.search_edit.hasFocus())
    QTest.keyClicks(w.node_palette.search_edit, "randn")
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 1 and not w.node_palette.isVisible())
    w.activateWindow()  # the palette popup gives the keys back to the window (offscreen Qt leaves them with it)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    (nid,) = w.graph.nodes
    first = next(iter(w.graph.nodes[nid].spec.params)).name
    press(w, Qt.Key_2, Qt.ControlModifier)  # View ▸ Focus Inspector
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.inspector.editors.get(first))
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_A, Qt.ControlModifier)
    QTest.keyClicks(QApplication.focusWidget(), "2, 3")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Return)
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params[first] in ([2, 3], (2, 3)))
    assert not w.graph.nodes[nid].title
    w.undo_stack.setClean()


def test_the_statistics_line_wraps_between_pairs_never_inside_one(window, qtbot):
    """A narrow Inspector wrapped 'norm 3.265  NaN' / '0': a name parted from its number. Each name is now joined to
    its number by a no-break space, so the text wraps only between the pairs."""
    import re

    from tests.gui.real_input import click_node, click_toolbar

    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    click_toolbar(w, "backward")
    click_node(qtbot, w, "n2")
    view = w.inspector.value_view
    qtbot.waitUntil(lambda: "out.grad = [2., 3.]" in view.toPlainText())
    document = view.document()
    stats = [document.findBlockByNumber(i).text() for i in range(document.blockCount())]
    stats = [text for text in stats if text.lstrip().startswith("min")]
    assert len(stats) == 2  # the value's and the gradient's
    for text in stats:
        assert re.findall(r"(min|max|mean|std|norm|NaN)(.)", text) == [
            (name, "\u00a0") for name in ("min", "max", "mean", "std", "norm", "NaN")]
    assert "  min 2  max 3  mean 2.5  std 0.7071  norm 3.606  NaN 0" in view.toPlainText().splitlines()
    w.undo_stack.setClean()


def test_copy_and_paste_of_x_gives_x_2(window, qtbot):
    """Ctrl+C, Ctrl+V on x made a second node titled x: the Watch list, diagnostics and status bar could not tell
    them apart (an exported script named it x_2)."""
    from tests.gui.real_input import click_node, press

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    press(w, Qt.Key_C, Qt.ControlModifier)
    press(w, Qt.Key_V, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 7)
    (new,) = set(w.graph.nodes) - {"n1", "n2", "n3", "n4", "n5", "n6"}
    assert w.graph.nodes[new].title == "x_2" and w.scene.node_items[new].title == "x_2"
    assert w.graph.nodes["n1"].title == "x"
    press(w, Qt.Key_V, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 8)
    assert sorted(n.title for n in w.graph.nodes.values() if n.title.startswith("x")) == ["x", "x_2", "x_3", "xw"]
    w.undo_stack.setClean()


def test_file_new_clears_the_last_documents_autograd_graph(window, qtbot):
    """The Autograd tab kept drawing the chapter graph's six grad_fn nodes over an empty document after File ▸ New."""
    from tests.gui.real_input import click_toolbar, press, show_dock

    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    show_dock(qtbot, w, w.training.docks["autograd"])
    view = w.training.autograd
    qtbot.waitUntil(lambda: len(view.boxes) == 6)
    press(w, Qt.Key_N, Qt.ControlModifier)  # File ▸ New (nothing edited: no question)
    qtbot.waitUntil(lambda: not w.graph.nodes)
    qtbot.waitUntil(lambda: view.boxes == [] and view.rows == [])
    assert "behind the loss" not in view.caption.text() and view.detail.toPlainText() == ""


def test_the_failed_lines_band_does_not_follow_the_cursor_once_the_snippet_is_typed_over(window, qtbot, dialogs):
    """A newcomer's snippet failed on line 1; they selected it all and typed it again: the red band stayed on the
    line under the cursor, six lines below the line the message named, as if that one were wrong."""
    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    first = _code_dialog(w)
    QTest.keyClick(first.edit, Qt.Key_A, Qt.ControlModifier)
    QTest.keyClicks(first.edit, "import torchx = 1")
    QTest.keyClick(first.edit, Qt.Key_Return, Qt.ControlModifier)
    again = first  # a syntax error is found before anything runs: the box stays, the reason above the snippet
    qtbot.waitUntil(lambda: "line 1: SyntaxError" in again.error_label.text())
    assert _code_dialog(w) is again and len(again.edit.extraSelections()) == 1
    QTest.keyClick(again.edit, Qt.Key_A, Qt.ControlModifier)
    for line in ("import torch", "x = torch.ones(2)", "y = x * 2"):
        QTest.keyClicks(again.edit, line)
        QTest.keyClick(again.edit, Qt.Key_Return)
    assert again.edit.extraSelections() == []
    QTest.keyClick(again.edit, Qt.Key_Escape)
