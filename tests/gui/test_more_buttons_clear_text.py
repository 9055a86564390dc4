"""The canvas's 'more' buttons never cover a node's value text: lesson 10 opened at 1920x1080 in the window a first
start gives, then Forward all, showed 'more ▼' on h_cut's value line '(16, 1) float32 cpu' (the row of nodes along
the bottom edge left no spot along it clear of nodes, and the button fell back to a node's body). The button now
moves in from the edge to a spot clear of the nodes, or at least keeps off their text."""

import itertools

import pytest
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtTest import QTest

from gui import style
from gui.canvas.node_item import NodeItem
from gui.window_placement import first_size
from tests.gui.real_input import click_toolbar, open_lesson_by_mouse, shown


def _value_texts(view) -> list:
    """Every node's value, gradient and badge lines as drawn (the box below its port rows), in viewport pixels."""
    rects = []
    for item in view.graph_scene.items():
        if not (isinstance(item, NodeItem) and item.isVisible() and item.painted_preview and item.display.value):
            continue
        rows = max(sum(1 for (_n, out) in item.ports if not out), sum(1 for (_n, out) in item.ports if out), 1)
        top = style.TITLE_H + style.PORT_ROW * rows
        below = QRectF(0, top, style.NODE_WIDTH, item.body_rect().height() - top)
        rects.append((item.title, view.mapFromScene(item.mapRectToScene(below)).boundingRect()))
    return rects


def _covering(view) -> list[str]:
    """Each shown button that covers some node's value text, said with what it covers; each shown button is inside
    the canvas and the widget under its middle as well."""
    texts, found = _value_texts(view), []
    for button in view.more.buttons.values():
        if button.isVisible():
            box = button.geometry()
            assert view.viewport().rect().contains(box), f"'{button.text()}' is cut off at {box}"
            assert view.viewport().childAt(box.center()) is button, f"'{button.text()}' is under another widget"
            found += [f"'{button.text()}' at {box} on {title}'s value" for title, rect in texts if box.intersects(rect)]
    return found


@pytest.mark.parametrize("size", [first_size(QSize(1920, 1080), QSize(0, 0)), QSize(1366, 768)],
                         ids=["1920x1080", "1366x768"])
def test_lesson_10_after_forward_all_has_no_more_button_on_a_value(window, qtbot, size):
    w = shown(qtbot, window, (size.width(), size.height()))
    open_lesson_by_mouse(qtbot, w, "10.")
    qtbot.waitUntil(lambda: "h_cut" in [item.title for item in w.scene.node_items.values()])
    click_toolbar(w, "forward")
    view = w.view
    qtbot.waitUntil(lambda: all(item.painted_value for item in w.scene.node_items.values() if item.title == "h_cut"))
    nodes, shown_buttons, covering = w.scene.itemsBoundingRect(), 0, []
    for fx, fy in itertools.product([k / 8 for k in range(9)], repeat=2):  # wherever the lesson is scrolled to
        view.centerOn(nodes.left() + fx * nodes.width(), nodes.top() + fy * nodes.height())
        view.more.refresh()  # measured now, as after the scene's changes settle
        shown_buttons += sum(b.isVisible() for b in view.more.buttons.values())
        covering += _covering(view)
    assert shown_buttons > 81, "the lesson's graph goes beyond the canvas: 'more' buttons show"
    assert not covering, f"{len(covering)} buttons cover a value, the first: {covering[0]}"


def test_a_moved_in_more_button_still_scrolls_that_way(window, qtbot):
    size = first_size(QSize(1920, 1080), QSize(0, 0))
    w = shown(qtbot, window, (size.width(), size.height()))
    open_lesson_by_mouse(qtbot, w, "10.")
    qtbot.waitUntil(lambda: "h_cut" in [item.title for item in w.scene.node_items.values()])
    click_toolbar(w, "forward")
    view = w.view
    down = view.more.buttons["down"]
    qtbot.waitUntil(down.isVisible)
    before = view.verticalScrollBar().value()
    QTest.mouseClick(down, Qt.LeftButton, Qt.NoModifier, down.rect().center())
    qtbot.waitUntil(lambda: view.verticalScrollBar().value() > before)
