"""A newcomer's first hour, a third pass: what they met by hand, driven as they drove it (real clicks, keys and
pointer moves on the real widgets of a shown window)."""

import html

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QToolTip

from core.nodegraph.files.toy import classifier_graph
from tests.gui.real_input import click, click_toolbar, show_dock, show_node_on_canvas, shown

SIZES = [(1366, 768), (1920, 1080)]


def _printed(t) -> str:
    """What ``print(t)`` writes for a small 1-d or 0-d tensor, without ``tensor(`` and its suffixes."""
    text = repr(t.detach())
    return text[len("tensor("):text.rindex("]") + 1] if t.dim() else text[len("tensor("):].split(",")[0].rstrip(")")


def _rest_pointer_on_node(qtbot, window, node_id: str) -> None:
    """Move the pointer from the window's corner onto the node's body and rest it there until a tip shows."""
    item = show_node_on_canvas(window, node_id)
    viewport = window.view.viewport()
    at = window.view.mapFromScene(item.mapToScene(item.boundingRect().center()))
    QTest.mouseMove(window, QPoint(5, window.height() - 5))
    QTest.mouseMove(viewport, at)
    QTest.mouseMove(viewport, at + QPoint(1, 1))
    qtbot.waitUntil(lambda: QToolTip.isVisible() and "x.grad" in QToolTip.text(), timeout=10_000)


def test_hovering_x_after_two_backward_passes_writes_its_gradients_as_print_does(window, qtbot):
    """The hover tip's sum of two backward passes reads as print(x.grad) reads in the chapter, like the canvas."""
    w = shown(qtbot, window)
    click_toolbar(w, "retain_graph")
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    x = w.scene.node_items["n1"]
    for note in ("", "sum of 2 backward calls"):  # the canvas counts the backward calls
        click_toolbar(w, "backward")
        qtbot.waitUntil(lambda note=note: x.display.grad_note == note and x.display.grad != "")
    grad = w.bridge.session.grad("n1")
    qtbot.waitUntil(lambda: w.scene.node_items["n1"].display.grad == _printed(grad))
    _rest_pointer_on_node(qtbot, w, "n1")
    tip = html.unescape(QToolTip.text())
    once = _printed(grad / 2)  # what each pass added
    assert f"x.grad = {_printed(grad)}: gradients accumulate over 2 backward calls" in tip
    assert f"x.grad = {once} + {once} = {_printed(grad)}" in tip
    assert w.scene.node_items["n1"].display.grad == _printed(grad) == "[ 3., -1.]"  # the canvas says the same
    w.undo_stack.setClean()


def test_the_train_panel_writes_the_loss_as_the_canvas_writes_the_loss_node(qtbot, node_types):
    """After a run, the progress line's loss and the loss node's value on the canvas are the same text, as
    print(loss) writes the loss tensor."""
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=30))
    qtbot.addWidget(w)
    shown(qtbot, w)
    panel, trainer = w.training.panel, w.training.trainer
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 30, timeout=60_000)
    loss_node = w.graph.training["loss"]
    qtbot.waitUntil(lambda: w.scene.node_items[loss_node].display.value != "")
    on_canvas = w.scene.node_items[loss_node].display.value
    assert on_canvas == _printed(w.bridge.session.value(loss_node))
    qtbot.waitUntil(lambda: panel.progress_label.text().startswith("30 / 30 steps · loss "))
    assert f" · loss {on_canvas} · " in panel.progress_label.text()
    w.undo_stack.setClean()


def _train_to_the_end(qtbot, window, steps: int) -> None:
    panel, trainer = window.training.panel, window.training.trainer
    show_dock(qtbot, window, window.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == steps, timeout=60_000)


@pytest.mark.parametrize("size", SIZES)
def test_the_loss_plots_legend_sits_beside_the_curves_not_over_them(qtbot, node_types, size):
    """After a real run (and a second one after Reset) the legend of the loss plot is on screen, whole, and
    outside the area where the curves are drawn, at a laptop's and a desktop's size."""
    from gui.main_window import MainWindow

    graph = classifier_graph("moons", steps=20)
    graph.nodes["n1"].params["val_fraction"] = 0.2  # a validation curve too: two legend entries a run
    graph.training["val_every"] = 5
    w = MainWindow(graph)
    qtbot.addWidget(w)
    shown(qtbot, w, size)
    plot = w.training.plot
    for runs in (1, 2):
        _train_to_the_end(qtbot, w, 20)
        qtbot.waitUntil(lambda runs=runs: len(plot.legend.items) == 2 * runs)  # each run and its validation
        if runs == 1:
            click(w.training.panel.buttons["Reset"])
            qtbot.waitUntil(lambda: w.training.trainer.done == 0)
        plot.canvas.viewport().update()
        view_box = plot.plots["loss"].vb
        qtbot.waitUntil(lambda: plot.legend.isVisible() and plot.legend.sceneBoundingRect().width() > 50)
        legend = plot.legend.sceneBoundingRect()
        data_area = view_box.sceneBoundingRect().adjusted(1, 1, -1, -1)  # less its frame's half-pixel pen
        assert not legend.intersects(data_area), f"the legend {legend} covers the curves' area {data_area}"
        on_screen = plot.canvas.mapFromScene(legend).boundingRect()
        assert plot.canvas.viewport().rect().contains(on_screen), f"the legend {on_screen} is cut off"
        entries = plot.legend.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize).height()  # their natural height
        assert legend.height() <= entries + 1, "the legend's box is stretched taller than its entries"
        for sample, label in plot.legend.items:  # each line sample beside its own label
            row = label.sceneBoundingRect()
            assert row.top() <= sample.sceneBoundingRect().center().y() <= row.bottom(), label.text
        accuracy = plot.plots["accuracy"].vb.sceneBoundingRect()
        assert data_area.width() >= accuracy.width() and data_area.height() >= accuracy.height() - 2  # room left
    w.undo_stack.setClean()


def _gallery():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "tools" / "gallery.py"
    spec = importlib.util.spec_from_file_location("gallery", path)
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    return gallery


def test_the_gallery_renders_every_screenshot_the_readme_shows():
    import re

    gallery = _gallery()
    readme = (gallery.ROOT / "README.md").read_text(encoding="utf-8")
    shown_in_readme = set(re.findall(r"\]\(assets/screenshots/([\w-]+)\.png\)", readme))
    assert shown_in_readme and "code-and-graph" in shown_in_readme
    assert shown_in_readme == set(gallery.SCREENS) - gallery.EXTRA  # each rendered by `python tools/gallery.py`
    for name in shown_in_readme:
        assert (gallery.ROOT / "assets" / "screenshots" / f"{name}.png").is_file()


def test_the_gallery_renders_the_code_and_graph_screen(qtbot, node_types, tmp_path):
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    out = _gallery().render("code-and-graph", (1366, 768), tmp_path / "code.png", QApplication.instance())
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    assert len({image.pixelColor(x, 160).name() for x in range(0, 400, 3)}) > 5  # the code pane's text is drawn


def test_a_new_value_for_x_starts_its_gradient_count_again(window, qtbot):
    """Two backward passes, then a new value typed for x: x is a new tensor, so the next pass gives it its first
    gradient (no "sum of 3 backward calls"), and the Inspector lists only that pass under x.grad."""
    from PySide6.QtWidgets import QLineEdit

    from tests.gui.real_input import click_node, type_text

    w = shown(qtbot, window)
    click_toolbar(w, "retain_graph")
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    x = lambda: w.scene.node_items["n1"]  # noqa: E731 - an edited node's item is drawn anew
    for note in ("", "sum of 2 backward calls"):
        click_toolbar(w, "backward")
        qtbot.waitUntil(lambda note=note: x().display.grad_note == note and x().display.grad != "")
    click_node(qtbot, w, "n1")
    fields = lambda: [e for e in w.inspector.findChildren(QLineEdit) if e.isVisible() and e.text().startswith("[")]  # noqa: E731
    qtbot.waitUntil(lambda: len(fields()) == 1)
    type_text(qtbot, fields()[0], "[1.0, 4.0]")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["tensor"] == [1.0, 4.0])
    qtbot.waitUntil(lambda: x().display.value == "[1., 4.]" and x().display.grad == "")  # no .grad yet

    def details() -> str:
        return w.inspector.value_view.toPlainText()  # the values, gradients and history under the fields

    qtbot.waitUntil(lambda: "out = [1., 4.]" in details())
    assert "backward #" not in details()  # no history under a gradient that is not there
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: x().display.grad == _printed(w.bridge.session.grad("n1")))
    assert x().display.grad_note == ""
    qtbot.waitUntil(lambda: "backward #3 via" in details())
    assert details().count("backward #") == 1
    w.undo_stack.setClean()


def test_the_edit_menu_names_tab_for_add_node_and_shift_tab_leaves_the_canvas(window, qtbot):
    """Keyboard only: the Edit menu shows Tab beside Add node…; Tab on the canvas opens the palette (Esc closes
    it), and Shift+Tab moves the focus on to another widget instead of keeping it on the canvas for ever."""
    from PySide6.QtWidgets import QApplication

    w = shown(qtbot, window)
    bar = w.menuBar()
    edit = next(a for a in bar.actions() if a.text().replace("&", "") == "Edit")
    click(bar, bar.actionGeometry(edit).center())
    qtbot.waitUntil(edit.menu().isVisible)
    entry = next(a for a in edit.menu().actions() if a.text().replace("&", "").startswith("Add node…"))
    assert entry.text().split("\t")[1] == "Tab" and entry.shortcut().isEmpty()  # shown, not a window shortcut
    QTest.keyClick(edit.menu(), Qt.Key_Escape)
    qtbot.waitUntil(lambda: not edit.menu().isVisible())
    viewport = w.view.viewport()
    click(viewport, QPoint(10, 10))  # an empty corner: the canvas has the focus
    qtbot.waitUntil(w.view.hasFocus)
    QTest.keyClick(w.view, Qt.Key_Tab)
    qtbot.waitUntil(lambda: w.node_palette.isVisible())
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not w.node_palette.isVisible() and w.view.hasFocus())
    QTest.keyClick(w.view, Qt.Key_Backtab, Qt.ShiftModifier)
    qtbot.waitUntil(lambda: QApplication.focusWidget() not in (None, w.view))
    assert not w.node_palette.isVisible()


def test_the_diagnostics_tab_shows_the_hint_clicked_in_full_below_its_narrow_columns(window, qtbot):
    """Lesson 10 after Forward all: the Diagnostics list in a side dock cuts each message; the first hint reads in
    full below it, and clicking another row shows that one in full (and selects its node)."""
    from tests.gui.test_window_fits import choose_menu

    w = shown(qtbot, window)
    choose_menu(qtbot, w, ["File", "Examples", "10. Diagnosing failures"])
    qtbot.waitUntil(lambda: any(n.title == "nan_loss" for n in w.graph.nodes.values()))
    click_toolbar(w, "forward")
    panel = w.training.diagnostics
    dock = next(d for d in w.findChildren(type(w.training.docks["train"])) if d.windowTitle() == "Diagnostics")
    show_dock(qtbot, w, dock)
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() >= 2, timeout=20_000)
    first, second = panel.hints[0], panel.hints[1]
    qtbot.waitUntil(lambda: first.message in panel.detail.text())
    row = panel.tree.visualItemRect(panel.tree.topLevelItem(1))
    click(panel.tree.viewport(), row.center())
    qtbot.waitUntil(lambda: second.message in panel.detail.text() and second.fix in panel.detail.text())
    assert panel.detail.isVisible() and not panel.detail.visibleRegion().isEmpty()
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == [second.node_id])
    w.undo_stack.setClean()


def test_hovering_a_failed_node_shows_its_whole_error(window, qtbot):
    """A second Backward all without Retain graph fails on z with PyTorch's long message; the node shows two lines
    of it, and resting the pointer on z shows all of it."""
    w = shown(qtbot, window)
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: w.scene.node_items["n1"].display.grad != "")
    click_toolbar(w, "backward")
    z = lambda: w.scene.node_items["n6"]  # noqa: E731 - drawn anew when its display changes
    qtbot.waitUntil(lambda: "a second time" in z().display.error)
    item = show_node_on_canvas(w, "n6")
    viewport = w.view.viewport()
    at = w.view.mapFromScene(item.mapToScene(item.boundingRect().center()))
    QTest.mouseMove(w, QPoint(5, w.height() - 5))
    QTest.mouseMove(viewport, at)
    QTest.mouseMove(viewport, at + QPoint(1, 1))
    qtbot.waitUntil(lambda: QToolTip.isVisible() and "retain_graph=True" in html.unescape(QToolTip.text()))
    assert html.unescape(QToolTip.text()).startswith(f"<p>{z().display.error}")
    w.undo_stack.setClean()


def test_the_recovery_question_says_what_each_answer_does(qtbot, node_types, tmp_path, dialogs, monkeypatch):
    """After a crash the next start asks Yes / Discard / Cancel; the question says what each does (Cancel keeps
    the changes for the next start, which a newcomer could not guess)."""
    from gui import autosave
    from tests.gui.conftest import make_window

    monkeypatch.setattr(autosave, "recovery_dir", lambda: str(tmp_path / "recovery"))  # never the user's cache
    crashed = make_window(qtbot)
    crashed.scene.add_node("math.exp", (0, 0))
    assert crashed.autosaver.autosave()
    crashed.autosaver.lock.release()  # the first window crashes: the system drops its lock
    dialogs.clear()
    fresh = make_window(qtbot)
    autosave.offer(fresh)  # the dialogs fixture answers Discard
    kind, question = dialogs[-1]
    assert kind == "question" and "did not close normally" in question
    assert "Yes opens them, Discard deletes them, Cancel keeps them" in question
    for w in (crashed, fresh):
        w.undo_stack.setClean()


def test_a_long_status_message_is_cut_with_an_ellipsis_and_reads_whole_on_hovering(window, qtbot):
    """PyTorch's message for a second backward is longer than the status bar at 1366x768: the line ends in "…"
    instead of being clipped mid-word, and resting the pointer on it shows the whole sentence."""
    w = shown(qtbot, window)
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: w.scene.node_items["n1"].display.grad != "")
    click_toolbar(w, "backward")
    line = w.status_label
    qtbot.waitUntil(lambda: "a second time" in line.text() and "retain_graph=True" in line.text())
    assert line.fontMetrics().horizontalAdvance(line.text()) > line.width()  # too long for the bar
    shown_text = line.fontMetrics().elidedText(line.text(), Qt.TextElideMode.ElideRight, line.width())
    assert shown_text.endswith("…")
    QTest.mouseMove(w, QPoint(w.width() // 2, w.height() // 2))
    QTest.mouseMove(line, QPoint(20, line.height() // 2))
    QTest.mouseMove(line, QPoint(21, line.height() // 2))
    qtbot.waitUntil(lambda: QToolTip.isVisible() and QToolTip.text() == line.text())
    w.undo_stack.setClean()
