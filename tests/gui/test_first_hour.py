"""What a newcomer met in the first hour at 1366x768 and 1920x1080, under a window manager, driven by real
clicks and keys on the widgets where they are drawn."""

import pytest

from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from gui import file_ops
from tests.gui.real_input import click_toolbar, shown

SIZES = [(1366, 768), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES)
def test_a_big_tensors_value_line_shows_its_dtype_and_device_whole(qtbot, empty_window, tmp_path, size):
    """Lesson 1 says y's box shows '(32, 64, 112, 112) float32'; the box showed '(32, 64, 112, 112) float…
    cpu': the device tag beside the line cut off the dtype, and the summary names the device already."""
    graph = Graph()
    add = commands.AddNode({"type": "source.randn", "params": {"shape": [32, 3, 224, 224]}, "position": [0.0, 0.0]})
    add.do(graph)
    path = str(tmp_path / "images.json")
    assert file_ops.save_graph(graph, path) is None
    w = shown(qtbot, empty_window, size)
    assert w.open_path(path)
    item = w.scene.node_items[add.node["id"]]

    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: item.display.value == "(32, 3, 224, 224) float32 cpu" and item.display.device == "cpu")
    w.view.viewport().update()
    qtbot.waitUntil(lambda: item.painted_value == item.display.value)  # drawn whole: no "…", no second "cpu"
