"""The Inspector's parameter editors, edited with the mouse and keyboard on a node just added to a new
document and on a node loaded from a file: each edit reaches the document, and the process survives
(clicking requires_grad on a freshly added Tensor used to kill it with a segmentation fault).
"""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QStyle, QStyleOptionSpinBox

from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from gui import file_ops
from tests.gui.real_input import (
    choose_in_combo,
    click,
    click_checkbox,
    click_node,
    double_click_library,
    press,
    show_dock,
    shown,
    type_text,
)


def _inserted(qtbot, window, _tmp_path, type_id):
    press(window, Qt.Key_N, Qt.ControlModifier)  # File > New
    qtbot.waitUntil(lambda: not window.graph.nodes)
    return double_click_library(qtbot, window, type_id)


def _loaded(qtbot, window, tmp_path, type_id):
    graph = Graph()
    add = commands.AddNode({"type": type_id, "params": {}, "position": [0.0, 0.0]})
    add.do(graph)
    path = str(tmp_path / "one-node.json")
    assert file_ops.save_graph(graph, path) is None
    assert window.open_path(path)
    return add.node["id"]


HOW = {"inserted": _inserted, "loaded": _loaded}


@pytest.fixture
def shown_window(window, qtbot):
    return shown(qtbot, window)


def _editor(qtbot, window, node_id, name):
    click_node(qtbot, window, node_id)
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == node_id and name in window.inspector.editors
                    and window.inspector.editors[name].isVisible())
    return window.inspector.editors[name]


@pytest.mark.parametrize("how", list(HOW))
def test_clicking_requires_grad_twice_turns_it_on_and_off(shown_window, qtbot, tmp_path, how):
    w = shown_window
    nid = HOW[how](qtbot, w, tmp_path, "source.tensor")
    before = bool(w.graph.nodes[nid].params.get("requires_grad", False))
    click_checkbox(_editor(qtbot, w, nid, "requires_grad"))
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["requires_grad"] is (not before))
    box = w.inspector.editors["requires_grad"]
    assert box.isChecked() is (not before)
    click_checkbox(box)
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["requires_grad"] is before)
    assert w.inspector.editors["requires_grad"].isChecked() is before


@pytest.mark.parametrize("how", list(HOW))
def test_choosing_a_dtype_in_the_combo_box_sets_it(shown_window, qtbot, tmp_path, how):
    w = shown_window
    nid = HOW[how](qtbot, w, tmp_path, "source.tensor")
    choose_in_combo(qtbot, _editor(qtbot, w, nid, "dtype"), "float64")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["dtype"] == "float64")
    choose_in_combo(qtbot, w.inspector.editors["dtype"], "float16")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["dtype"] == "float16")


@pytest.mark.parametrize("how", list(HOW))
def test_typing_a_tensor_and_pressing_return_sets_it(shown_window, qtbot, tmp_path, how):
    w = shown_window
    nid = HOW[how](qtbot, w, tmp_path, "source.tensor")
    type_text(qtbot, _editor(qtbot, w, nid, "tensor"), "[1.5, -2]")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["tensor"] == [1.5, -2])
    type_text(qtbot, w.inspector.editors["tensor"], "[[1, 2], [3, 4]]")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["tensor"] == [[1, 2], [3, 4]])
    assert w.inspector.editors["tensor"].hasFocus()  # the field the user typed in is still the one edited


def _up_arrow(spin):
    opt = QStyleOptionSpinBox()
    spin.initStyleOption(opt)
    return spin.style().subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxUp, spin).center()


@pytest.mark.parametrize("how", list(HOW))
def test_a_spin_box_applies_its_arrow_and_typed_digits(shown_window, qtbot, tmp_path, how):
    w = shown_window
    nid = HOW[how](qtbot, w, tmp_path, "layer.linear")
    start = w.graph.nodes[nid].params.get("in_features", 2)
    click(_editor(qtbot, w, nid, "in_features"), _up_arrow(w.inspector.editors["in_features"]))
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params.get("in_features") == start + 1)
    type_text(qtbot, w.inspector.editors["in_features"], "7")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["in_features"] == 7)


def test_a_refused_text_is_shown_and_the_document_kept(shown_window, qtbot, tmp_path):
    w = shown_window
    nid = _inserted(qtbot, w, tmp_path, "source.tensor")
    before = dict(w.graph.nodes[nid].params)
    type_text(qtbot, _editor(qtbot, w, nid, "tensor"), "[1, oops]")
    qtbot.waitUntil(lambda: "tensor" in w.inspector.refusal_notes["tensor"].text())
    assert w.graph.nodes[nid].params == before


def test_undo_after_a_click_restores_the_checkbox(shown_window, qtbot, tmp_path):
    w = shown_window
    nid = _inserted(qtbot, w, tmp_path, "source.tensor")
    click_checkbox(_editor(qtbot, w, nid, "requires_grad"))
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["requires_grad"] is True)
    QTest.keyClick(w.view, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["requires_grad"] is False)
    assert not w.inspector.editors["requires_grad"].isChecked()


def test_with_several_nodes_selected_the_inspector_says_how_many_instead_of_none(shown_window, qtbot):
    """Ctrl+A on the canvas selects the chapter's six nodes: the Inspector said 'No node selected', which a newcomer
    looking at six highlighted nodes could not square; it says how many and how to see one."""
    window = shown_window
    show_dock(qtbot, window, window.inspector_dock)
    click_node(qtbot, window, "n1")  # the canvas has the keyboard focus
    press(window, Qt.Key_A, Qt.ControlModifier)  # Edit > Select all
    qtbot.waitUntil(lambda: len(window.scene.selected_node_ids()) == len(window.graph.nodes) == 6)
    heading = window.inspector.heading
    qtbot.waitUntil(lambda: heading.text().startswith("6 nodes selected: click one of them"))
    assert "No node selected" not in heading.text() and window.inspector.editors == {}
    click_node(qtbot, window, "n2")
    qtbot.waitUntil(lambda: window.inspector.node_id == "n2" and heading.text().startswith("<b>w</b>"))
    below_all = window.view.mapFromScene(window.scene.itemsBoundingRect().bottomRight()) + QPoint(20, 20)
    click(window.view.viewport(), below_all)  # the canvas's background: nothing selected
    qtbot.waitUntil(lambda: heading.text().startswith("No node selected"))
