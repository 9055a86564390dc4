"""Placed nodes are titled as the code they stand for: a source from the palette reads ``randn`` (as ``torch.randn``
and every op node, ``mul``, ``sum``), a layer keeps its class's capital (``Linear``)."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import add_by_tab, click, double_click_library, shown

pytest.importorskip("pytestqt")


def test_a_source_placed_from_the_palette_is_titled_as_torch_spells_it(qtbot, empty_window):
    w = shown(qtbot, empty_window)
    view = w.view.viewport()
    click(view)
    QTest.keyClick(view, Qt.Key_Tab)
    qtbot.waitUntil(lambda: w.node_palette is not None and w.node_palette.search_edit.isVisible())
    QTest.keyClicks(w.node_palette.search_edit, "randn")
    qtbot.waitUntil(lambda: w.node_palette.current_type() == "source.randn")
    assert w.node_palette.results.currentItem().text().startswith("randn ")
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 1)
    (nid,) = w.graph.nodes
    qtbot.waitUntil(lambda: nid in w.scene.node_items and w.inspector.node_id == nid)
    assert w.scene.node_items[nid].title == "randn"
    assert w.inspector.name_edit.placeholderText() == "randn"

    linear = double_click_library(qtbot, w, "layer.linear")
    qtbot.waitUntil(lambda: linear in w.scene.node_items)
    assert w.scene.node_items[linear].title == "Linear"


def test_two_nodes_of_one_type_added_by_the_library_and_tab_read_apart(qtbot, empty_window):
    w = shown(qtbot, empty_window)
    first = double_click_library(qtbot, w, "source.randn")
    second = double_click_library(qtbot, w, "source.randn")
    qtbot.waitUntil(lambda: second in w.scene.node_items)
    assert [w.scene.node_items[n].title for n in (first, second)] == ["randn", "randn_2"]
    qtbot.waitUntil(lambda: "randn_2" in w.status_label.text())
    assert w.undo_stack.text(w.undo_stack.index() - 1) == "Add node randn_2"

    click(w.view.viewport())
    third = add_by_tab(qtbot, w, "randn")
    qtbot.waitUntil(lambda: third in w.scene.node_items and w.inspector.node_id == third)
    assert w.scene.node_items[third].title == "randn_3"
    assert w.inspector.name_edit.text() == "randn_3"
