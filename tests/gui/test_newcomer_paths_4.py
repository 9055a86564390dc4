"""A newcomer's first hour, a fourth pass: what they misread or missed by hand, driven as they drove it (real
clicks, keys and pointer moves on the real widgets of a shown window)."""

import html

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QToolTip

from tests.gui.real_input import click, click_node, click_toolbar, show_dock, show_node_on_canvas, shown

SIZES = [(1366, 768), (1920, 1080)]


def _backward_twice(qtbot, w) -> None:
    """Retain graph on, then Backward all twice, each waited for on x's node."""
    click_toolbar(w, "retain_graph")
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    x = w.scene.node_items["n1"]
    for note in ("", "sum of 2 backward calls"):
        click_toolbar(w, "backward")
        qtbot.waitUntil(lambda note=note: x.display.grad != "" and x.display.grad_note == note)


def test_two_backward_calls_read_as_a_sum_never_as_a_multiplication(window, qtbot):
    """After two backward calls x's gradient is written alone (``grad [ 3., -1.]``) with ``sum of 2 backward
    calls`` on its own line, in the lessons' words; the Inspector and the hover tip say the same, and no ``×``
    sits next to the numbers anywhere."""
    w = shown(qtbot, window)
    _backward_twice(qtbot, w)
    x = w.scene.node_items["n1"]
    grad = w.bridge.session.grad("n1")
    qtbot.waitUntil(lambda: x.display.grad_note == "sum of 2 backward calls")
    assert x.display.grad == repr(grad.detach())[len("tensor("):-1]  # print's numbers, from the session
    lines = [text for kind, text in x._preview_lines() if kind == "grad"]
    assert lines == [f"grad {x.display.grad}", "sum of 2 backward calls"]
    click_node(qtbot, w, "n1")
    details = lambda: w.inspector.value_view.toPlainText()  # noqa: E731
    qtbot.waitUntil(lambda: "out.grad is the sum of 2 backward calls since the last zero_grad:" in details())
    assert "×" not in details()
    item = show_node_on_canvas(w, "n1")
    viewport = w.view.viewport()
    at = w.view.mapFromScene(item.mapToScene(item.boundingRect().center()))
    QTest.mouseMove(w, QPoint(5, w.height() - 5))
    QTest.mouseMove(viewport, at)
    QTest.mouseMove(viewport, at + QPoint(1, 1))
    qtbot.waitUntil(lambda: QToolTip.isVisible() and "x.grad" in QToolTip.text(), timeout=10_000)
    tip = html.unescape(QToolTip.text())
    assert "gradients accumulate over 2 backward calls" in tip and "between backward calls" in tip
    assert "×" not in tip
    hints = [h.message for h in w.training.diagnostics.refresh(force=True) if h.rule == "grad_accumulation"]
    assert any("sum of 2 backward calls" in m for m in hints)  # the diagnostic's words, the canvas's words
    w.undo_stack.setClean()


def test_an_edge_carrying_a_scalar_says_scalar_and_the_inspector_says_the_same(window, qtbot):
    """After Forward all, an edge that carries a 0-d tensor is labelled ``() scalar`` (PyTorch's empty shape and
    the word for it), the others keep their shape as PyTorch writes it; the Inspector's shape line for the
    scalar node begins with the same words."""
    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    session = w.bridge.session
    qtbot.waitUntil(lambda: all(e.src in session.values for e in w.graph.edges))
    items = w.scene.edge_items
    qtbot.waitUntil(lambda: all(item.label_text for item in items.values()))
    for edge, item in items.items():
        shape = tuple(session.value(edge.src).shape)
        assert item.label.isVisible()
        if shape == ():
            assert item.label_text == "() scalar"
        else:
            assert item.label_text == str(shape)  # (2,) as a Python tuple writes it, like torch.Size
    scalars = {e.src for e in items if tuple(session.value(e.src).shape) == ()}
    assert scalars and len(scalars) < len(items)  # the chapter's graph carries both kinds
    node = sorted(scalars)[0]
    click_node(qtbot, w, node)
    qtbot.waitUntil(lambda: "  () scalar float32 cpu, strides ()" in w.inspector.value_view.toPlainText())
    w.undo_stack.setClean()


def test_a_sources_device_box_says_what_context_means_where_it_is_chosen(window, qtbot):
    """Selecting x shows its device box reading ``context (the toolbar's device)``, whole; choosing cpu and then
    that entry again with the keyboard stores the bare choices the file keeps."""
    from PySide6.QtWidgets import QComboBox

    from tests.gui.real_input import choose_in_combo

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    spec_device = next(p for p in w.graph.nodes["n1"].spec.params if p.name == "device")  # what core.nodegraph offers
    context = spec_device.choice_text("context")
    assert context == "context (the toolbar's device)"
    box = lambda: next(c for c in w.inspector.findChildren(QComboBox, "param_device") if c.isVisible())  # noqa: E731
    qtbot.waitUntil(lambda: any(c.isVisible() for c in w.inspector.findChildren(QComboBox, "param_device")))
    assert box().currentText() == context
    assert box().width() >= box().sizeHint().width()  # the note is read whole, not cut off
    choose_in_combo(qtbot, box(), "cpu")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["device"] == "cpu")
    choose_in_combo(qtbot, box(), context)
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["device"] == "context")
    w.undo_stack.setClean()


def _nodes_under_minimap(w) -> list[str]:
    from gui.canvas.node_item import NodeItem

    mini = w.view.minimap
    box = mini.geometry().translated(-w.view.viewport().geometry().topLeft())  # in the canvas's viewport
    area = w.view.mapToScene(box).boundingRect()
    return [i.node_id for i in w.scene.items(area) if isinstance(i, NodeItem)]


@pytest.mark.parametrize("size", SIZES)
def test_the_minimap_keeps_off_the_convnets_nodes_with_the_plots_open(qtbot, node_types, size):
    """The convnet playground trained a few steps with the Train panel's button (which opens Plots and Data
    below the canvas): the canvas is short, part of the long row of nodes is out of view, and the minimap is
    shown in a corner where it covers no node; after Fit all (the whole graph in view) it hides."""
    from core.nodegraph.files import io as files
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from gui.main_window import MainWindow

    graph = files.load(EXAMPLES_DIR / "playground-convnet.json")
    graph.training["steps"] = 3
    w = MainWindow(graph)
    qtbot.addWidget(w)
    shown(qtbot, w, size)
    w.view.show_document()
    show_dock(qtbot, w, w.training.docks["train"])
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.training.trainer.done == 3, timeout=60_000)
    qtbot.waitUntil(lambda: w.training.docks["plots"].isVisible())
    mini = w.view.minimap
    qtbot.waitUntil(lambda: not mini._timer.isActive())
    w.view.show_document()  # as the document opened: readable from its start
    qtbot.waitUntil(lambda: not mini._timer.isActive())
    if mini.visible_rect().contains(mini._graph):  # the whole row fits (a desktop's canvas): no map needed
        assert not mini.isVisible()
    else:  # a laptop's short canvas: the row runs out of view on the right, the map shows where it goes
        qtbot.waitUntil(mini.isVisible)
        assert w.view.viewport().geometry().contains(mini.geometry())
        assert _nodes_under_minimap(w) == [], "the minimap covers nodes"
    click_toolbar(w, "fit_all")
    qtbot.waitUntil(lambda: not mini.isVisible())
    w.undo_stack.setClean()


def _start_app(qtbot, monkeypatch):
    """``python app.py`` as far as its event loop: the window the start made, shown."""
    from PySide6.QtWidgets import QApplication

    import app
    from gui.main_window import MainWindow

    before = QApplication.topLevelWidgets()  # held: their ids stay theirs
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)  # the test's own loop runs the window
    assert app.main([]) == 0
    window = next(x for x in QApplication.topLevelWidgets() if isinstance(x, MainWindow)
                  and all(x is not b for b in before))
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    return window


def test_a_first_start_fills_most_of_the_screen_and_a_later_start_opens_where_the_window_was(
        qtbot, node_types, monkeypatch):
    """With no saved geometry the window takes most of its screen's available area; resized, then closed with
    File ▸ Quit, the next start opens at that size and place, not at the first start's."""
    from PySide6.QtCore import QRect, QSize

    from tests.gui.test_window_fits import choose_menu

    first = _start_app(qtbot, monkeypatch)
    available = first.screen().availableGeometry()
    assert available.contains(first.frameGeometry())
    assert first.frameGeometry().width() >= 0.9 * available.width()
    assert first.frameGeometry().height() >= 0.9 * available.height()
    moved = QRect(available.topLeft() + QPoint(20, 30), QSize(available.width() // 2 + 50, available.height() // 2))
    first.setGeometry(moved)  # where the user dragged it (no window manager here to drag with)
    qtbot.waitUntil(lambda: first.geometry() == moved)
    first.activateWindow()
    qtbot.waitUntil(first.isActiveWindow)
    choose_menu(qtbot, first, ["File", "Quit"])
    qtbot.waitUntil(lambda: not first.isVisible())
    second = _start_app(qtbot, monkeypatch)
    qtbot.waitUntil(lambda: second.geometry() == moved)
    second.undo_stack.setClean()


@pytest.mark.parametrize("screen", [(1366, 768), (1920, 1080), (2560, 1440), (3840, 2160)])
def test_a_first_start_size_fills_most_of_any_screen(screen):
    """The first start's size at common resolutions: at least 90 % of the available area (all of a laptop's),
    never more than it, frame included."""
    from PySide6.QtCore import QSize

    from gui.window_placement import first_size

    frame = QSize(4, 30)  # a window manager's borders and title bar
    size = first_size(QSize(*screen), frame)
    assert size.width() + frame.width() <= screen[0] and size.height() + frame.height() <= screen[1]
    assert size.width() + frame.width() >= 0.9 * screen[0] and size.height() + frame.height() >= 0.9 * screen[1]
