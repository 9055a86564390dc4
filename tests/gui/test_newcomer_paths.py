"""What a newcomer trying the app by hand ran into, driven as they drove it: real clicks and keys on the real
widgets of a shown window."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from core.nodegraph.files.toy import classifier_graph
from gui import format as fmt
from tests.gui.real_input import click, show_dock, shown, toolbar_button, type_text


def _hover(qtbot, window, button) -> None:
    """Move the pointer onto a toolbar button, as a user does before clicking it: its hover tip fills the status
    bar."""
    click(window.statusBar(), QPoint(5, 5))  # a whole click somewhere harmless: no button is held down from before
    QTest.mouseMove(window, QPoint(5, window.height() - 5))  # from somewhere else, so the button sees it enter
    QTest.mouseMove(button, button.rect().center())
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == button.defaultAction().statusTip())


def test_a_step_clicked_on_the_toolbar_says_what_it_did_while_the_pointer_stays_on_the_button(window, qtbot):
    w = shown(qtbot, window)
    forward = toolbar_button(w, "forward_step")
    _hover(qtbot, w, forward)
    click(forward)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Forward: x"))
    qtbot.waitUntil(w.status_label.isVisible)  # not hidden behind the button's tip
    assert w.statusBar().currentMessage() == ""

    backward = toolbar_button(w, "backward_step")
    click(toolbar_button(w, "forward"))
    qtbot.waitUntil(lambda: w.bridge.session.forward_complete)
    _hover(qtbot, w, backward)
    click(backward)
    qtbot.waitUntil(lambda: w.status_label.text() == "AddBackward0 ran (node z)")
    qtbot.waitUntil(w.status_label.isVisible)


def test_the_hover_tip_still_shows_before_the_click(window, qtbot):
    w = shown(qtbot, window)
    button = toolbar_button(w, "zero_grad")
    _hover(qtbot, w, button)
    assert w.statusBar().currentMessage() == "Clear every .grad"
    assert w.status_label.text() == ""


def _seen(widget) -> bool:
    """Whether some of ``widget`` is on screen (not scrolled away, not behind another tab)."""
    return widget.isVisible() and not widget.visibleRegion().isEmpty()


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_train_pause_and_reset_stay_in_view_when_the_plots_open_below(qtbot, node_types, size):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=100_000))
    qtbot.addWidget(w)
    shown(qtbot, w, size)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    trainer = w.training.trainer
    qtbot.waitUntil(lambda: trainer.state == "training" and trainer.done > 0)
    qtbot.waitUntil(lambda: _seen(w.training.docks["plots"]))  # the first run opens Plots and Data: Train gets short
    qtbot.waitUntil(lambda: _seen(panel.buttons["Pause"]) and _seen(panel.progress_label))
    click(panel.buttons["Pause"])
    qtbot.waitUntil(lambda: trainer.state == "paused")
    qtbot.waitUntil(lambda: " · loss " in panel.progress_label.text())  # the latest loss beside the step count
    assert f"loss {fmt.scalar(trainer.last_loss)}" in panel.progress_label.text()
    assert _seen(panel.buttons["Reset"])
    click(panel.buttons["Reset"])
    qtbot.waitUntil(lambda: panel.progress_label.text() == "" and trainer.done == 0)
    w.undo_stack.setClean()


def _visible_types(tree) -> list[str]:
    return [i.data(0, Qt.UserRole) for i in tree.type_items() if not i.isHidden() and not i.parent().isHidden()]


def test_the_nodes_tab_filters_as_you_type_and_return_adds_the_first_match(qtbot, empty_window):
    w = shown(qtbot, empty_window)
    show_dock(qtbot, w, w.library_dock)
    field = w.library_panel.filter_edit
    assert _seen(field) and _seen(w.library_panel.hint)
    type_text(qtbot, field, "mul", enter=False)
    qtbot.waitUntil(lambda: "math.mul" in _visible_types(w.library))
    shown_types = _visible_types(w.library)
    assert all("mul" in t for t in shown_types) and "math.add" not in shown_types
    mul = next(i for i in w.library.type_items() if i.data(0, Qt.UserRole) == shown_types[0])
    qtbot.waitUntil(lambda: mul.parent().isExpanded() and _seen(w.library.viewport()))
    QTest.keyClick(field, Qt.Key_Return)  # the type named as typed, not the first of addcmul, mul, ...
    qtbot.waitUntil(lambda: [n.type for n in w.graph.nodes.values()] == ["math.mul"])

    type_text(qtbot, field, "sum", enter=False)
    qtbot.waitUntil(lambda: "reduce.sum" in _visible_types(w.library))
    QTest.keyClick(field, Qt.Key_Down)  # into the tree, on the first match
    qtbot.waitUntil(w.library.hasFocus)
    first = w.library.currentItem().data(0, Qt.UserRole)
    assert first == _visible_types(w.library)[0]
    type_text(qtbot, field, "", enter=False)
    QTest.keyClick(field, Qt.Key_Delete)
    qtbot.waitUntil(lambda: len(_visible_types(w.library)) == len(w.library.type_items()))


def test_a_node_added_from_the_palette_or_the_library_is_selected_and_its_fields_are_in_the_inspector(
        qtbot, empty_window):
    from tests.gui.real_input import double_click_library

    w = shown(qtbot, empty_window)
    view = w.view.viewport()
    click(view)
    QTest.keyClick(view, Qt.Key_Tab)
    qtbot.waitUntil(lambda: w.node_palette is not None and w.node_palette.search_edit.isVisible())
    QTest.keyClicks(w.node_palette.search_edit, "source.tensor")
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 1)
    (tensor,) = w.graph.nodes
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == [tensor] and "tensor" in w.inspector.editors)
    qtbot.waitUntil(lambda: _seen(w.inspector.editors["tensor"]))

    mul = double_click_library(qtbot, w, "math.mul")
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == [mul] and w.inspector.node_id == mul)
    assert w.inspector.heading.text().startswith("<b>mul</b>  Math<br>")  # the library's group, not "math.mul"
    assert w.inspector.heading.toolTip() == f"math.mul ({mul})"  # the ids, for a bug report


def test_the_inspector_renames_a_node_and_undo_gives_the_old_name_back(qtbot, empty_window):
    from tests.gui.real_input import double_click_library

    w = shown(qtbot, empty_window)
    nid = double_click_library(qtbot, w, "source.tensor")
    name = w.inspector.name_edit
    qtbot.waitUntil(lambda: _seen(name) and name.placeholderText() == "tensor" and name.text() == "")
    type_text(qtbot, name, "x")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].title == "x")
    qtbot.waitUntil(lambda: w.scene.node_items[nid].title == "x")  # the canvas draws the new name
    assert "<b>x</b>" in w.inspector.heading.text()
    QTest.keyClick(name, Qt.Key_Z, Qt.ControlModifier)  # the field holds the applied name: undo the rename
    qtbot.waitUntil(lambda: w.graph.nodes[nid].title is None and name.text() == "")
    QTest.keyClick(name, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: w.graph.nodes[nid].title == "x" and name.text() == "x")
    type_text(qtbot, name, "  ")  # nothing: the type's name again
    qtbot.waitUntil(lambda: w.graph.nodes[nid].title is None)


def test_with_no_node_selected_the_inspector_shows_no_value_text(qtbot, window):
    w = shown(qtbot, window)
    click(toolbar_button(w, "forward"))
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete)
    assert w.scene.selected_node_ids() == []
    assert w.inspector.heading.text().startswith("No node selected: click one on the canvas")
    qtbot.waitUntil(lambda: w.inspector.value_view.toPlainText() == "")
    assert not w.inspector.name_row.isVisible() and not w.inspector.value_view.isVisible()
    from tests.gui.real_input import click_node

    click_node(qtbot, w, "n1")
    qtbot.waitUntil(lambda: _seen(w.inspector.value_view) and "out = " in w.inspector.value_view.toPlainText())


def _node_links(browser) -> dict[str, str]:
    """``{node id: link text}`` of the ``node:`` links in a lesson's text."""
    links: dict[str, str] = {}
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            href = frag.charFormat().anchorHref()
            if href.startswith("node:"):
                links.setdefault(href[len("node:"):], frag.text())
            it += 1
        block = block.next()
    return links


def test_at_first_start_the_canvas_names_the_nodes_as_the_lesson_beside_it_does(window, qtbot):
    from tests.gui.real_input import click_link

    w = shown(qtbot, window)
    assert w.lessons.first_start()
    browser = w.lessons.panel.browser
    qtbot.waitUntil(lambda: "xw" in browser.toPlainText())
    links = _node_links(browser)
    assert {"n4", "n5"} <= set(links)
    for nid, text in links.items():
        assert w.scene.node_items[nid].title == text
    click_link(qtbot, browser, "node:n4")  # the link frames the node the text calls xw
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == ["n4"] or w.highlight == "n4")


def _code_dialog(w, other_than=None):
    from PySide6.QtWidgets import QDialog

    return next((d for d in w.findChildren(QDialog, "codeInputDialog") if d.isVisible() and d is not other_than), None)


def _type_code(edit, text: str) -> None:
    """Type ``text`` into a code box line by line (Return between lines, as a user types it)."""
    for line in text.splitlines(keepends=True):
        QTest.keyClicks(edit, line.rstrip("\n"))
        if line.endswith("\n"):
            QTest.keyClick(edit, Qt.Key_Return)


def test_a_pasted_snippet_that_fails_comes_back_with_its_error_and_the_graph_stays(window, qtbot, dialogs):
    from PySide6.QtWidgets import QDialogButtonBox

    w = shown(qtbot, window)
    before = w.graph.to_dict()
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _code_dialog(w) is not None)
    first = _code_dialog(w)
    snippet = "import torch\nx = torch.tensor([2.0, 3.0], requires_grad=True)\ny = (x * q).sum()\n"
    QTest.keyClick(first.edit, Qt.Key_A, Qt.ControlModifier)
    _type_code(first.edit, snippet)
    assert first.edit.toPlainText() == snippet
    click(first.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))
    qtbot.waitUntil(lambda: _code_dialog(w, first) is not None, timeout=60_000)
    again = _code_dialog(w, first)
    assert again.edit.toPlainText() == snippet  # nothing typed is lost
    assert again.error_label.isVisible() and again.error_label.text().startswith("snippet.py: line 3: NameError")
    assert w.graph.to_dict() == before and dialogs == []

    QTest.keyClick(again.edit, Qt.Key_A, Qt.ControlModifier)
    _type_code(again.edit, snippet.replace("x * q", "x * 2"))
    click(again.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    assert "x * 2" in w.graph.code["text"]


@pytest.mark.parametrize("text, reason", [('{"format": "nodegrad-graph", "version": 1, "nodes": [', "not valid JSON"),
                                          ('{"hello": 1}', "")])
def test_opening_a_damaged_file_names_it_and_keeps_the_document_and_its_history(
        window, qtbot, monkeypatch, tmp_path, dialogs, text, reason):
    from PySide6.QtWidgets import QFileDialog

    from tests.gui.real_input import double_click_library

    w = shown(qtbot, window)
    double_click_library(qtbot, w, "math.exp")  # an unsaved edit
    before, undo = w.graph.to_dict(), w.undo_stack.count()
    bad = tmp_path / "damaged.json"
    bad.write_text(text)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)  # File ▸ Open…: the unsaved edit is discarded only if it opens
    qtbot.waitUntil(lambda: any(kind == "warning" for kind, _ in dialogs))
    message = next(m for kind, m in dialogs if kind == "warning")
    assert message.startswith("Can't open damaged.json: ") and reason in message
    assert w.graph.to_dict() == before and w.undo_stack.count() == undo and w.is_modified()
    assert w.status_label.text() == message


def test_a_node_faded_after_backward_says_its_saved_tensors_were_freed(window, qtbot):
    w = shown(qtbot, window)
    click(toolbar_button(w, "forward"))
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete)
    click(toolbar_button(w, "backward"))
    mul = w.scene.node_items["n4"]
    qtbot.waitUntil(lambda: mul.display.spent)
    assert mul.opacity() < 1 and "saved tensors freed" in mul.display.badges
    assert "MulBackward0 freed what it saved for backward (retain_graph=False)" in mul.toolTip()
    assert "Retain graph" in mul.toolTip()

    click(toolbar_button(w, "reset"))
    click(toolbar_button(w, "retain_graph"))
    click(toolbar_button(w, "backward"))  # forward and backward with the graph kept
    qtbot.waitUntil(lambda: w.scene.node_items["n1"].display.grad != "")
    assert not w.scene.node_items["n4"].display.spent
    assert "saved tensors freed" not in w.scene.node_items["n4"].display.badges


def test_an_empty_canvas_says_how_to_begin_and_a_double_click_on_the_words_still_opens_the_palette(
        qtbot, empty_window):
    from tests.gui.real_input import double_click

    w = shown(qtbot, empty_window)
    hint = w.view.empty_hint
    qtbot.waitUntil(lambda: _seen(hint))
    assert "Tab" in hint.text() and "Nodes tab" in hint.text()
    viewport = w.view.viewport()
    assert viewport.rect().contains(hint.geometry())
    double_click(viewport, hint.geometry().center())
    qtbot.waitUntil(lambda: w.node_palette is not None and w.node_palette.search_edit.isVisible())
    QTest.keyClicks(w.node_palette.search_edit, "source.ones")
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 1 and not hint.isVisible())
    click(toolbar_button(w, "undo"))
    qtbot.waitUntil(lambda: not w.graph.nodes and _seen(hint))


def test_a_finished_run_shows_its_steps_and_last_loss_without_a_time_left(qtbot, node_types):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=30))
    qtbot.addWidget(w)
    shown(qtbot, w)
    panel, trainer = w.training.panel, w.training.trainer
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 30, timeout=30_000)
    qtbot.waitUntil(lambda: panel.progress_label.text().startswith("30 / 30 steps · loss "))
    assert "left" not in panel.progress_label.text()
    assert f"loss {fmt.scalar(trainer.last_loss)} · " in panel.progress_label.text()
    w.undo_stack.setClean()


def test_the_minimap_stays_out_of_a_small_canvas(window, qtbot):
    w = shown(qtbot, window)
    view, mini = w.view, w.view.minimap
    click(view.viewport())
    for _ in range(4):  # zoomed in past the graph's edges: the map shows where the view is
        QTest.keyClick(view.viewport(), Qt.Key_Plus, Qt.ControlModifier)
    qtbot.waitUntil(lambda: _seen(mini))
    w.resize(820, 520)  # a small window: the canvas has no room to spare for the map
    qtbot.waitUntil(lambda: not mini.isVisible())
    room = view.viewport().size()
    assert mini.width() * mini.height() > 0.15 * room.width() * room.height() or room.height() < 2 * mini.height()
    w.resize(1366, 768)
    qtbot.waitUntil(lambda: _seen(mini))


def test_the_inspectors_watch_button_names_the_node_by_its_title(window, qtbot):
    from tests.gui.real_input import click_node

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    qtbot.waitUntil(lambda: "out" in w.inspector.watch_buttons.buttons)
    tip = w.inspector.watch_buttons.buttons["out"].toolTip()
    assert tip.startswith("Watch x: ") and "n1" not in tip
    type_text(qtbot, w.inspector.name_edit, "inputs")
    qtbot.waitUntil(lambda: "out" in w.inspector.watch_buttons.buttons
                    and w.inspector.watch_buttons.buttons["out"].toolTip().startswith("Watch inputs: "))


def test_the_status_bar_and_the_history_name_each_edit_by_the_nodes_titles(window, qtbot):
    from PySide6.QtCore import QPointF

    w = shown(qtbot, window)
    scene, view = w.scene, w.view
    src, dst = scene.node_items["n2"].port("out", True), scene.node_items["n6"].port("b", False)
    view.ensureVisible(scene.node_items["n6"])
    at = [view.mapFromScene(p.mapToScene(QPointF(0, 0))) for p in (src, dst)]
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at[0])  # drag w's output onto z's input b
    for k in range(1, 6):
        QTest.mouseMove(vp, at[0] + (at[1] - at[0]) * k / 5)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at[1])
    said = "Connect w → z.b (in place of b)"  # z.b was fed by b: the edge that went is named too
    qtbot.waitUntil(lambda: w.status_label.text() == said)
    assert w.undo_stack.undoText() == said  # Edit ▸ History's line too
    QTest.keyClick(vp, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == f"Undone: {said}")
    QTest.keyClick(vp, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == f"Redone: {said}")  # as Undo says "Undone: "


def test_before_the_first_step_a_leafs_value_and_requires_grad_show_whole(window, qtbot):
    from PySide6.QtGui import QFont, QFontMetricsF

    from gui import style

    w = shown(qtbot, window)
    item = w.scene.node_items["n2"]  # w = [1.5, -0.5], requires_grad
    qtbot.waitUntil(lambda: item.display.badges != [])
    lines = [text for kind, text in item._preview_lines() if kind == "badge"]
    assert lines == ["tensor=[1.5, -0.5]", "requires_grad"]
    metrics = QFontMetricsF(QFont(w.view.font().family(), 8))  # the preview's font, as the node paints it
    assert all(metrics.horizontalAdvance(line) <= style.NODE_WIDTH - 16 for line in lines)


def test_optimizer_step_says_what_it_changed_or_why_it_could_not(window, qtbot):
    w = shown(qtbot, window)
    for name in ("forward", "backward", "optimizer_step"):
        click(toolbar_button(w, name))
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Optimizer step failed: RuntimeError: optimizer got "
                                                            "an empty parameter list"))


def test_optimizer_step_names_the_learning_rate_and_the_parameters_it_updated(qtbot, node_types):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", lr=0.02))
    qtbot.addWidget(w)
    shown(qtbot, w)
    for name in ("forward", "backward", "optimizer_step"):
        click(toolbar_button(w, name))
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Optimizer step (lr 0.02): "))
    text = w.status_label.text()
    assert text.endswith(" updated") and "weight" in text and "n2" not in text  # by title, not by id
    w.undo_stack.setClean()
