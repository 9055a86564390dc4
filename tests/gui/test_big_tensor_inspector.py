"""A node holding a large tensor literal (an array, not a list) opens and shows in the Inspector read-only."""

import numpy as np
from PySide6.QtWidgets import QLineEdit

from tests.gui.conftest import make_window
from tests.gui.real_input import click_node, shown


def test_a_large_tensor_literal_shows_read_only_in_the_inspector_when_its_node_is_clicked(qtbot, node_types, tmp_path):
    from core.nodegraph.files import io as files
    from core.nodegraph.model.document import Graph, Node
    from core.nodegraph.model.tensor_store import TensorValue

    g = Graph()
    g.add_node(Node("t", "source.tensor", {"tensor": TensorValue(np.zeros(400_000, np.float32))}))
    path = tmp_path / "big.json"
    files.save(g, path)
    window = make_window(qtbot)
    assert window.open_path(str(path))
    shown(qtbot, window)
    click_node(qtbot, window, "t")
    qtbot.waitUntil(lambda: window.inspector.findChild(QLineEdit, "param_tensor") is not None)
    field = window.inspector.findChild(QLineEdit, "param_tensor")
    assert field.isReadOnly() and field.text() == "float32 tensor of shape [400000]: too large to edit here"
