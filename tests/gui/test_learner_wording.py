"""Words a newcomer reads instead of the code's: the Node library's groups ("In-place ops", not "inplace") and the
Inspector's heading (the node's kind and library group, not "source.randn (n1)"), driven by real clicks."""

import re

from PySide6.QtCore import Qt

from core.nodegraph.model.spec import categories
from tests.gui.real_input import click_node, double_click, double_click_library, shown, type_text


def _groups(tree):
    return {tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}


def test_the_node_library_names_its_groups_for_a_learner_and_a_double_click_opens_one(qtbot, window):
    w = shown(qtbot, window)
    w.library_dock.show()
    w.library_dock.raise_()
    tree = w.library
    groups = _groups(tree)
    assert {"Expressions", "Probes (watch values)", "In-place ops", "Sources (new tensors)"} <= set(groups)
    assert not set(groups) & set(categories())  # no group reads as a category id ("expr", "probe", "inplace")
    assert list(groups) == sorted(groups, key=str.lower)  # listed in the order of their words
    group = groups["In-place ops"]
    qtbot.waitUntil(lambda: tree.isVisible() and tree.viewport().rect().contains(tree.visualItemRect(group)))
    double_click(tree.viewport(), tree.visualItemRect(group).center())
    qtbot.waitUntil(group.isExpanded)
    kinds = {group.child(j).data(0, Qt.ItemDataRole.UserRole) for j in range(group.childCount())}
    assert kinds == {"inplace.add_", "inplace.fill_", "inplace.mul_", "inplace.zero_"}


def test_the_inspector_heading_names_the_nodes_kind_and_group_and_keeps_the_ids_in_its_tooltip(qtbot, empty_window):
    w = shown(qtbot, empty_window)
    nid = double_click_library(qtbot, w, "source.randn")
    click_node(qtbot, w, nid)
    heading = w.inspector.heading
    qtbot.waitUntil(lambda: w.inspector.node_id == nid and heading.isVisible())
    assert heading.text().startswith("<b>randn</b>  Sources (new tensors)<br>")
    assert not re.search(r"source\.randn|\bn\d+\b", heading.text())
    assert heading.toolTip() == f"source.randn ({nid})"
    type_text(qtbot, w.inspector.name_edit, "noise")
    qtbot.waitUntil(lambda: heading.text().startswith("<b>noise</b>  randn · Sources (new tensors)<br>"))
