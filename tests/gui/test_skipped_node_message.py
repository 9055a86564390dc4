"""A node that can't run because its input failed says so by the nodes' titles, once: after a shape mismatch
typed into the Inspector and Forward all, s reads "Skipped: input 'x' comes from xw, which failed" on its
node and in the Inspector (not 'n4', not "Skipped: skipped: ..."); the status bar names the node that failed, with
PyTorch's message, and counts the nodes skipped after it.
"""

import re

import pytest
from PySide6.QtCore import Qt

from tests.gui.real_input import show_dock, shown
from tests.gui.scenarios.driver import click_node, click_toolbar, press, type_into

ID = re.compile(r"\bn\d+\b")


def _forward_all_by_toolbar(qtbot, window):
    click_toolbar(window, "forward")


def _forward_all_by_key(qtbot, window):
    press(qtbot, window, Qt.Key_F5)


FORWARD_ALL = {"toolbar": _forward_all_by_toolbar, "F5": _forward_all_by_key}


@pytest.fixture(params=list(FORWARD_ALL))
def failed_forward(request, window, qtbot):
    """The chapter's graph with x = [1, 2, 3] typed in (w has two elements), run with Forward all."""
    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")  # x
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: "tensor" in w.inspector.editors)
    type_into(qtbot, w.inspector.editors["tensor"], "[1.0, 2.0, 3.0]")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["tensor"] == [1.0, 2.0, 3.0])
    FORWARD_ALL[request.param](qtbot, w)
    qtbot.waitUntil(lambda: bool(w.scene.node_items["n6"].display.error))
    return w


def _badge(window, node_id):
    return window.scene.node_items[node_id].display.error


def test_the_failed_node_shows_pytorchs_shape_error(failed_forward):
    assert _badge(failed_forward, "n4").startswith("RuntimeError: The size of tensor a (3) must match the size of "
                                                   "tensor b (2)")


def test_nodes_after_the_failure_name_the_failed_input_by_its_title(failed_forward):
    assert _badge(failed_forward, "n5") == "Skipped: input 'x' comes from xw, which failed"
    assert _badge(failed_forward, "n6") == "Skipped: input 'a' comes from s, which failed"


def test_the_status_bar_names_the_failed_node_with_its_error_and_counts_the_skipped_ones(failed_forward):
    text = failed_forward.status_label.text()
    assert text.startswith("Forward stopped at xw: RuntimeError: The size of tensor a (3) must match the size of "
                           "tensor b (2)"), text
    assert text.endswith("; 2 later nodes skipped"), text
    assert "Error at" not in text
    assert not ID.search(text), text


def test_the_inspector_shows_why_the_selected_node_was_skipped(failed_forward, qtbot):
    w = failed_forward
    click_node(qtbot, w, "n5")  # s
    qtbot.waitUntil(lambda: w.inspector.node_id == "n5")
    text = w.inspector.value_view.toPlainText()
    assert "Skipped: input 'x' comes from xw, which failed" in text
    assert "Not computed yet" not in text
    assert not ID.search(text), text
