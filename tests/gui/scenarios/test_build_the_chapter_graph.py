"""Scenario: a newcomer builds the chapter's ``z = (x * w).sum() + b`` from an empty document and steps it.

Only clicks, drags and key presses: File ▸ New from the menu bar, nodes from the palette (Tab or a double-click
on the canvas, then typing) and wires dragged from port to port, or the whole formula typed into Edit ▸ Insert
Expression; values typed into the Inspector and requires_grad ticked with the mouse; the toolbar's Forward
step, Backward step, Backward all, Retain graph and Zero grad. The numbers are read from what the nodes draw
and compared with the chapter's arithmetic.
"""

import json

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog

from tests.gui.real_input import click_checkbox, show_dock
from tests.gui.scenarios import driver as d

X, W, B = np.array([2.0, 3.0]), np.array([1.5, -0.5]), 0.1
TYPED = {"x": "[2.0, 3.0]", "w": "[1.5, -0.5]", "b": "0.1"}
FORMULA = "(x * w).sum() + b"


def add_from_palette(qtbot, window, query: str, type_id: str, by: str) -> str:
    """Open the palette with Tab (after a click on empty canvas) or a double-click, type ``query``, press Return."""
    before = set(window.graph.nodes)
    spot = d.empty_canvas_point(window)
    if by == "tab":
        d.click(window.view.viewport(), spot)
        qtbot.waitUntil(window.view.hasFocus)
        d.press(qtbot, window, Qt.Key_Tab)
    else:
        d.double_click(window.view.viewport(), spot)
    qtbot.waitUntil(lambda: window.node_palette is not None and window.node_palette.isVisible())
    search = window.node_palette.search_edit
    qtbot.waitUntil(search.hasFocus)
    QTest.keyClicks(search, query)
    qtbot.waitUntil(lambda: window.node_palette.current_type() == type_id)
    QTest.keyClick(search, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(window.graph.nodes) == len(before) + 1)
    return (set(window.graph.nodes) - before).pop()


def wire(qtbot, window, src: str, dst: str, port: str) -> None:
    """Drag from ``src``'s output to ``dst``'s input ``port``."""
    a_item, b_item = window.scene.node_items[src], window.scene.node_items[dst]
    a = d.canvas_point(window, a_item, a_item.port("out", True).pos())
    b = d.canvas_point(window, b_item, b_item.port(port, False).pos())
    d.drag(window.view.viewport(), a, b)
    qtbot.waitUntil(lambda: any(e.src == src and e.dst == dst and e.dst_port == port for e in window.graph.edges))


def build_with_palette(qtbot, window) -> dict:
    ids = {}
    for name, query, type_id, by in (("x", "tensor", "source.tensor", "tab"), ("w", "tensor", "source.tensor", "tab"),
                                     ("mul", "mul", "math.mul", "double"), ("sum", "sum", "reduce.sum", "tab"),
                                     ("b", "tensor", "source.tensor", "double"), ("add", "add", "math.add", "tab")):
        ids[name] = add_from_palette(qtbot, window, query, type_id, by)
    d.click_toolbar(window, "fit_all")  # six nodes placed around the centre: Fit all shows every port to wire
    for src, dst, port in (("x", "mul", "a"), ("w", "mul", "b"), ("mul", "sum", "x"), ("sum", "add", "a"),
                           ("b", "add", "b")):
        wire(qtbot, window, ids[src], ids[dst], port)
    return ids


def build_with_expression(qtbot, window) -> dict:
    answered = d.answer_dialog(qtbot, QInputDialog, d.type_in_dialog(FORMULA))
    d.click_menu(qtbot, window, "Edit", "Insert expression")
    qtbot.waitUntil(lambda: len(window.graph.nodes) == 6)
    assert answered == ["QInputDialog"]
    by_title = {n.title: nid for nid, n in window.graph.nodes.items()}
    by_type = {n.type: nid for nid, n in window.graph.nodes.items()}
    d.click_toolbar(window, "fit_all")  # the formula's four columns are wider than the canvas at 1366x768
    return {"x": by_title["x"], "w": by_title["w"], "b": by_title["b"], "mul": by_type["math.mul"],
            "sum": by_type["reduce.sum"], "add": by_type["math.add"]}


def set_leaf(qtbot, window, node_id: str, text: str) -> None:
    """Select the node, type its value into the Inspector and tick requires_grad with the mouse."""
    d.click_node(qtbot, window, node_id)
    show_dock(qtbot, window, window.inspector_dock)
    d.type_into(qtbot, window.inspector.editors["tensor"], text)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params["tensor"] == json.loads(text))
    box = window.inspector.editors["requires_grad"]
    qtbot.waitUntil(box.isVisible)
    click_checkbox(box)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params["requires_grad"] is True)


def drawn(window, ids, name) -> tuple:
    value, grad = d.drawn_values(window, ids[name])
    return d.numbers(value), d.numbers(grad)


def grads(window, ids) -> dict:
    return {name: drawn(window, ids, name)[1] for name in ("x", "w", "b")}


@pytest.mark.parametrize("route", ["palette", "expression"])
def test_build_step_and_backward_the_chapter_graph_by_mouse_and_keyboard(qtbot, app_window, route):
    w = app_window
    d.click_menu(qtbot, w, "File", "New")
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 0)
    ids = build_with_palette(qtbot, w) if route == "palette" else build_with_expression(qtbot, w)
    for name in ("x", "w", "b"):
        set_leaf(qtbot, w, ids[name], TYPED[name])
    d.click_canvas(qtbot, w)  # nothing selected

    for _ in range(6):
        d.click_toolbar(w, "forward_step")
    qtbot.waitUntil(lambda: "Forward" in w.status_label.text())
    assert drawn(w, ids, "mul")[0] == pytest.approx(X * W)
    assert drawn(w, ids, "sum")[0] == pytest.approx([(X * W).sum()])
    assert drawn(w, ids, "add")[0] == pytest.approx([(X * W).sum() + B])

    clicks = 0  # the backward pass: AddBackward0, b, SumBackward0, MulBackward0, x, w
    while not all(grads(w, ids).values()):
        assert clicks < 6, "six Backward steps should have given x, w and b their gradients"
        d.click_toolbar(w, "backward_step")
        clicks += 1
    assert clicks == 6
    assert grads(w, ids) == {"x": pytest.approx(W), "w": pytest.approx(X), "b": pytest.approx([1.0])}

    d.click_toolbar(w, "backward")  # a second backward without retain_graph: PyTorch's error, gradients kept
    qtbot.waitUntil(lambda: "second time" in w.status_label.text())
    assert grads(w, ids)["x"] == pytest.approx(W)

    d.click_toolbar(w, "retain_graph")
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    d.click_toolbar(w, "reset")
    d.click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: "pass #1 complete" in w.status_label.text())  # as a user sees it end
    d.click_toolbar(w, "backward")  # the graph was kept: the second backward accumulates
    qtbot.waitUntil(lambda: grads(w, ids)["x"] == pytest.approx(2 * W))
    assert grads(w, ids) == {"x": pytest.approx(2 * W), "w": pytest.approx(2 * X), "b": pytest.approx([2.0])}
    assert w.scene.node_items[ids["x"]].display.grad_note == "sum of 2 backward calls"

    d.click_toolbar(w, "zero_grad")
    qtbot.waitUntil(lambda: "Zero grad" in w.status_label.text())
    assert all(g in ([], [0.0], [0.0, 0.0]) for g in grads(w, ids).values())
    assert QApplication.activeModalWidget() is None
