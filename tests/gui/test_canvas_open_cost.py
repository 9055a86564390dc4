"""Opening a document costs what the document needs once (issue #21: a 20,000-node file must open in 5 s): the
minimap renders the new scene once, and a refresh that changes no node's display or edge's label redraws none."""

from tests.gui.conftest import make_window


def _chain_graph(n):
    from core.nodegraph.model.document import Edge, Graph, Node

    g = Graph()
    g.add_node(Node("n0", "source.tensor", {"tensor": [1.0, 2.0]}, (0.0, 0.0)))
    for i in range(1, n):
        g.add_node(Node(f"n{i}", "math.exp", {}, (i * 240.0, 0.0)))
        g.connect(Edge(f"n{i - 1}", "out", f"n{i}", "x"))
    return g


def test_opening_a_document_renders_the_minimap_once(qtbot, node_types, tmp_path, monkeypatch):
    from core.nodegraph.files import io as files
    from gui.canvas.minimap import Minimap

    path = str(tmp_path / "wide.json")
    files.save(_chain_graph(30), path)  # wider than the view: the minimap shows
    window = make_window(qtbot)
    window.show()
    qtbot.waitExposed(window)
    renders = []
    real = Minimap._render
    monkeypatch.setattr(Minimap, "_render", lambda self: (renders.append(self), real(self)))
    assert window.open_path(path)
    mini = window.view.minimap
    qtbot.waitUntil(lambda: not mini._timer.isActive() and mini.isVisible())
    assert len(renders) == 1
    window.undo_stack.setClean()


def test_a_refresh_that_changes_nothing_redraws_no_edge_or_node(window, monkeypatch):
    from gui.canvas.edge_item import EdgeItem
    from gui.canvas.node_item import NodeItem

    window.refresh_session_view()
    redrawn = []
    monkeypatch.setattr(EdgeItem, "update_path", lambda self: redrawn.append(self))
    monkeypatch.setattr(NodeItem, "_update_geometry", lambda self: redrawn.append(self))
    window.refresh_session_view()
    assert redrawn == []



def test_the_minimap_draws_a_large_graph_in_batches_not_item_by_item(qtbot, node_types, monkeypatch):
    from PySide6.QtGui import QColor

    from gui.canvas.scene import GraphScene

    window = make_window(qtbot, _chain_graph(200))
    window.show()
    qtbot.waitExposed(window)
    assert not window.scene.simple  # the main view shows the items themselves
    rendered = []
    monkeypatch.setattr(GraphScene, "render", lambda self, *a: rendered.append(self))  # item by item
    mini = window.view.minimap
    mini.refit()
    assert rendered == []
    image = mini.grab().toImage()
    background = window.scene.backgroundBrush().color().name()
    colours = {QColor(image.pixel(x, y)).name() for x in range(0, image.width(), 2) for y in range(image.height())}
    assert len(colours - {background}) > 2  # the nodes and edges are in the picture
    window.undo_stack.setClean()


def test_an_edge_label_is_shown_only_while_it_has_a_text_and_the_edge_is_drawn(window):
    from gui.canvas import overview

    edge = next(iter(window.scene.edge_items.values()))
    edge.set_label("")
    assert not edge.label.isVisible()  # an empty label would still be painted (at the origin, once per edge)
    edge.set_label("(2,)")
    assert edge.label.isVisible()
    overview.set_simple(window.scene, True)
    assert not edge.label.isVisible()
    overview.set_simple(window.scene, False)
    assert edge.label.isVisible()
    edge.set_label("")
    assert not edge.label.isVisible()


def test_an_edge_makes_its_label_item_only_when_it_first_shows_a_text(empty_window):
    from gui.canvas.edge_item import EdgeLabel

    window = empty_window
    window.set_document(_chain_graph(5), None)
    scene = window.scene
    assert [i for i in scene.items() if isinstance(i, EdgeLabel)] == []
    edge = next(iter(scene.edge_items.values()))
    edge.set_label("(2,)")
    (label,) = [i for i in scene.items() if isinstance(i, EdgeLabel)]
    assert label is edge.label and label.text() == "(2,)" and label.isVisible()


def test_the_zoomed_out_picture_follows_a_change_though_it_is_cached(qtbot, node_types):
    window = make_window(qtbot, _chain_graph(300))
    window.show()
    qtbot.waitExposed(window)
    window.view.fit_all()
    qtbot.waitUntil(lambda: window.scene.simple)
    before = window.view.viewport().grab().toImage()
    window.scene.node_items["n150"].setSelected(True)  # the overview frames a selected node
    qtbot.waitUntil(lambda: window.view.viewport().grab().toImage() != before)
    window.undo_stack.setClean()
