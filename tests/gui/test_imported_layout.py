"""A snippet opened as code (File ▸ Open code…, Ctrl+Shift+O) at 1366x768: a five-column graph shows whole beside
its code with every value drawn after Forward all, and no edge runs through a node on the canvas."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.test_code_pane import open_code
from tests.gui.test_window_fits import active
from tests.nodegraph.test_edge_routes import LONG_EDGE  # x feeds mul and exp, three columns apart

TANH = """import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
y = torch.tanh(x * w + b).sum()
y.backward()
"""



def opened(qtbot, window, monkeypatch, tmp_path, text, size=(1366, 768)):
    path = tmp_path / "snippet.py"
    path.write_text(text)
    active(qtbot, window, size)
    open_code(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: window.graph.code is not None and window.code.dock.isVisible(), timeout=30_000)
    return window


def test_a_five_column_snippet_opens_whole_beside_its_code_with_every_value_drawn(qtbot, window, monkeypatch,
                                                                                    tmp_path):
    opened(qtbot, window, monkeypatch, tmp_path, TANH)
    items = window.scene.node_items
    assert len(items) == 7 and len({round(i.pos().x()) for i in items.values()}) == 5
    view = window.view

    def all_in_view() -> bool:
        shown = view.mapToScene(view.viewport().rect()).boundingRect()
        return all(shown.contains(i.sceneBoundingRect()) for i in items.values())

    qtbot.waitUntil(all_in_view)
    QTest.keyClick(window, Qt.Key_F5)  # Forward all
    qtbot.waitUntil(lambda: all(i.display.value for i in items.values()))
    view.viewport().update()
    qtbot.waitUntil(lambda: all(i.painted_preview and i.painted_value for i in items.values()))
    assert all_in_view()


def test_an_imported_graph_draws_no_edge_through_a_node(qtbot, window, monkeypatch, tmp_path):
    opened(qtbot, window, monkeypatch, tmp_path, LONG_EDGE)
    scene = window.scene
    qtbot.waitUntil(lambda: len(scene.edge_items) == len(window.graph.edges) > 10)
    through = []
    for edge in scene.edge_items.values():
        path = edge.path()
        points = [edge.mapToScene(path.pointAtPercent(i / 100)) for i in range(101)]
        for nid, node in scene.node_items.items():
            body = node.mapRectToScene(node.body_rect()).adjusted(2, 2, -2, -2)
            if any(body.contains(p) for p in points):
                through.append((edge.edge, nid))
    assert through == []
