"""New nodes land where there is room, and Auto layout leaves no two nodes on top of each other,
driven through real key presses and typing in the Insert expression dialog."""

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QToolBar

from tests.gui.real_input import click, press, shown

FORMULA = "(x * w).sum() + b"


def active(qtbot, window):
    """Shown at 1366x768 and the active window (shortcuts reach only the active window)."""
    shown(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return window


def overlapping_pairs(window) -> list:
    items = list(window.scene.node_items.values())
    return [(a.node_id, b.node_id) for i, a in enumerate(items) for b in items[i + 1:]
            if a.sceneBoundingRect().intersects(b.sceneBoundingRect())]


def type_into_expression_dialog(qtbot, window, formula: str) -> None:
    """Ctrl+E on the canvas, then type ``formula`` into the dialog and press Return."""
    typed = []

    def fill():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or not dialog.isVisible():
            QTimer.singleShot(10, fill)
            return
        edit = dialog.findChild(QLineEdit)
        QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClicks(edit, formula)
        typed.append(edit.text())
        QTest.keyClick(edit, Qt.Key_Return)

    window.activateWindow()  # the dialog of a previous insert has just closed
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    QTimer.singleShot(0, fill)
    before = len(window.graph.nodes)
    press(window, Qt.Key_E, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(window.graph.nodes) > before)
    assert typed == [formula]


def toolbar_button(window, name: str):
    """The toolbar's button for action ``name``, where a user clicks it."""
    return window.findChild(QToolBar, "runToolbar").widgetForAction(window.named_actions[name])


def test_a_typed_expression_lands_as_a_left_to_right_graph_with_no_node_on_another(qtbot, empty_window):
    w = active(qtbot, empty_window)
    type_into_expression_dialog(qtbot, w, FORMULA)
    assert len(w.graph.nodes) == 6
    assert w.status_label.text() == f"Insert {FORMULA}: 6 nodes"  # named as the edit it was, not 'Paste 6 nodes'
    assert w.undo_stack.text(w.undo_stack.count() - 1) == f"Insert {FORMULA}: 6 nodes"
    assert overlapping_pairs(w) == []
    for e in w.graph.edges:  # data flows left to right
        src, dst = w.scene.node_items[e.src], w.scene.node_items[e.dst]
        assert src.sceneBoundingRect().right() < dst.sceneBoundingRect().left()


def test_a_second_expression_goes_beside_the_first_and_values_do_not_make_them_collide(qtbot, empty_window):
    w = active(qtbot, empty_window)
    type_into_expression_dialog(qtbot, w, FORMULA)
    type_into_expression_dialog(qtbot, w, "(a + c).mean()")
    assert len(w.graph.nodes) == 10
    assert overlapping_pairs(w) == []
    click(toolbar_button(w, "forward"))
    qtbot.waitUntil(lambda: any(i.display.value for i in w.scene.node_items.values()))
    assert overlapping_pairs(w) == []


def test_a_node_from_the_library_goes_beside_the_selected_node(qtbot, window):
    from tests.gui.real_input import click_node, double_click_library

    w = active(qtbot, window)
    click_node(qtbot, w, "n6")
    new = double_click_library(qtbot, w, "math.exp")
    beside, new_rect = w.scene.node_items["n6"].sceneBoundingRect(), w.scene.node_items[new].sceneBoundingRect()
    assert new_rect.left() > beside.right() and abs(new_rect.top() - beside.top()) < 1
    assert overlapping_pairs(w) == []


def test_auto_layout_by_shortcut_separates_nodes_stacked_on_one_place(qtbot, empty_window):
    from core.nodegraph.model.document import Graph

    g = Graph.from_dict({"nodes": [{"id": f"n{i}", "type": "nn.batch_norm", "position": [0, 0]} for i in range(3)]
                        + [{"id": "n9", "type": "source.tensor", "position": [0, 0]}], "edges": []})
    w = empty_window
    w.set_document(g, None)
    active(qtbot, w)
    click(toolbar_button(w, "forward"))  # errors and values make the nodes taller than a fixed row pitch
    qtbot.waitUntil(lambda: any(i.display.error or i.display.value for i in w.scene.node_items.values()))
    assert overlapping_pairs(w)
    press(w.view, Qt.Key_L, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.undo_stack.count() == 1)
    assert overlapping_pairs(w) == []


def test_leaves_stepped_backward_twice_keep_clear_of_each_other_with_their_badges(qtbot, empty_window):
    """The typed chapter formula, Retain graph on, Forward all and Backward all twice: each leaf shows its value, its
    gradient, 'sum of 2 backward calls' and its flags, and still no node box (with the badge on its corner) touches
    another (the size model counted only value and gradient, and the leaves' badges sat on the node above)."""
    w = active(qtbot, empty_window)
    type_into_expression_dialog(qtbot, w, FORMULA)
    from tests.gui.real_input import click_checkbox, click_node, show_dock

    leaves = [nid for nid, n in w.graph.nodes.items() if n.type == "source.tensor"]
    assert len(leaves) == 3
    show_dock(qtbot, w, w.inspector_dock)
    for nid in leaves:  # requires_grad ticked in the Inspector, as the chapter's x, w and b
        click_node(qtbot, w, nid)
        qtbot.waitUntil(lambda nid=nid: w.inspector.node_id == nid and "requires_grad" in w.inspector.editors
                        and w.inspector.editors["requires_grad"].isVisible())
        click_checkbox(w.inspector.editors["requires_grad"])
        qtbot.waitUntil(lambda nid=nid: w.graph.nodes[nid].params.get("requires_grad") is True)
    w.scene.clearSelection()
    click(toolbar_button(w, "retain_graph"))
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    click(toolbar_button(w, "forward"))
    for calls in (1, 2):
        click(toolbar_button(w, "backward"))
        qtbot.waitUntil(lambda calls=calls: w.bridge.session.ledger.backward_calls == calls)
    qtbot.waitUntil(lambda: all(w.scene.node_items[nid].display.grad_note == "sum of 2 backward calls"
                                for nid in leaves))
    badge = 12  # the badge circle stands this far above and right of a node's corner
    items = list(w.scene.node_items.values())
    touching = [(a.node_id, b.node_id) for i, a in enumerate(items) for b in items[i + 1:]
                if a.sceneBoundingRect().adjusted(0, -badge, badge, 0).intersects(b.sceneBoundingRect())
                or b.sceneBoundingRect().adjusted(0, -badge, badge, 0).intersects(a.sceneBoundingRect())]
    assert touching == []
