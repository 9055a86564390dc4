"""A newcomer's first hour, a fifth pass: what they misread or missed by hand, driven as they drove it (real
clicks, keys and pointer moves on the real widgets of a shown window)."""

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QComboBox, QScrollArea

from tests.gui.real_input import choose_in_combo, click_node, show_node_on_canvas, shown


def _visible_combo(w, name: str) -> QComboBox | None:
    return next((c for c in w.inspector.findChildren(QComboBox, name) if c.isVisible()), None)


def test_a_sources_dtype_box_says_which_dtype_default_is(window, qtbot):
    """Selecting x (a literal) shows its dtype box reading ``default (float32; ints: int64)``, whole, with
    the dtype from core's get_default_dtype(); choosing float64 and then that entry again with the keyboard stores
    the bare choices the file keeps, and x's value follows."""
    import core

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    spec_dtype = next(p for p in w.graph.nodes["n1"].spec.params if p.name == "dtype")  # what core.nodegraph offers
    default = spec_dtype.choice_text("default")
    assert default == f"default ({str(core.get_default_dtype()).removeprefix('torch.')}; ints: int64)"
    qtbot.waitUntil(lambda: _visible_combo(w, "param_dtype") is not None)
    box = _visible_combo(w, "param_dtype")
    assert box.currentText() == default
    assert box.width() >= box.sizeHint().width()  # the note is read whole, not cut off
    scroll = w.findChild(QScrollArea, "inspectorDockScroll")
    assert not scroll.horizontalScrollBar().isVisible()  # nor does it push the Inspector wider than its dock
    choose_in_combo(qtbot, box, "float64")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["dtype"] == "float64")
    choose_in_combo(qtbot, _visible_combo(w, "param_dtype"), default)
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["dtype"] == "default")
    w.undo_stack.setClean()


def test_a_factory_added_from_the_library_says_default_is_float32(window, qtbot):
    """A randn node added with a double-click in the Node library offers ``default (float32)`` (core's default
    dtype, no integer case: a factory always makes it), and after Forward all the Inspector's value line names the
    same dtype."""
    import core
    from tests.gui.real_input import click_toolbar, double_click_library

    w = shown(qtbot, window)
    node_id = double_click_library(qtbot, w, "source.randn")
    click_node(qtbot, w, node_id)
    qtbot.waitUntil(lambda: _visible_combo(w, "param_dtype") is not None)
    dtype = str(core.get_default_dtype()).removeprefix("torch.")
    assert _visible_combo(w, "param_dtype").currentText() == f"default ({dtype})"
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: node_id in w.bridge.session.values)
    assert str(w.bridge.session.value(node_id).dtype) == f"torch.{dtype}"
    qtbot.waitUntil(lambda: f" {dtype} cpu" in w.inspector.value_view.toPlainText())
    w.undo_stack.setClean()


def test_two_edges_from_x_into_one_mul_show_both_shape_labels_apart(window, qtbot):
    """x dragged onto the mul's second input too (``x * x``): after Forward all both edges carry ``(2,)``, the
    label of the edge into ``a`` above the one into ``b``, neither crossed by a curve, and the two never overlap;
    dragging the mul away and back keeps them apart."""
    from PySide6.QtCore import QPointF

    from tests.gui.real_input import click_toolbar
    from tests.gui.scenarios.driver import canvas_point, drag

    w = shown(qtbot, window)
    show_node_on_canvas(w, "n4")
    x, mul = w.scene.node_items["n1"], w.scene.node_items["n4"]
    drag(w.view.viewport(), canvas_point(w, x, x.port("out", True).pos()),
         canvas_point(w, mul, mul.port("b", False).pos()))
    qtbot.waitUntil(lambda: w.graph.edge_into("n4", "b") is not None and w.graph.edge_into("n4", "b").src == "n1")
    click_toolbar(w, "forward")
    session = w.bridge.session
    qtbot.waitUntil(lambda: "n6" in session.values)
    into = {port: w.scene.edge_items[w.graph.edge_into("n4", port)] for port in ("a", "b")}
    qtbot.waitUntil(lambda: all(item.label_text for item in into.values()))
    shape = str(tuple(session.value("n1").shape))

    def apart() -> bool:
        a, b = (into[p].label.sceneBoundingRect() for p in ("a", "b"))
        return not a.intersects(b) and a.center().y() < b.center().y()

    for item in into.values():
        assert item.label_text == shape and item.label.isVisible()
    assert apart()
    for item in into.values():  # neither label is crossed by either curve
        rect = item.label.sceneBoundingRect()
        assert not any(other.line().intersects(rect) for other in into.values())
    before, title = w.graph.nodes["n4"].position, canvas_point(w, mul, QPointF(40, 8))
    drag(w.view.viewport(), title, title + QPoint(60, 40))
    qtbot.waitUntil(lambda: w.graph.nodes["n4"].position != before)
    assert apart()
    w.undo_stack.setClean()


def _two_rows(long_top: bool):
    """Two rows of a source and a neg far apart at 1366x768: the bottom edge runs under the canvas's bottom right
    corner, and with ``long_top`` the top one under its top right corner too."""
    from core.nodegraph.model.document import Edge, Graph, Node

    g = Graph()
    for nid, type_id, at in (("n1", "source.tensor", (0, 0)), ("n2", "math.neg", (1600 if long_top else 300, 0)),
                             ("n3", "source.tensor", (0, 800)), ("n4", "math.neg", (1600, 800))):
        g.add_node(Node(nid, type_id, position=at))
    g.connect(Edge("n1", "out", "n2", "x"))
    g.connect(Edge("n3", "out", "n4", "x"))
    return g


def _under_minimap(w) -> tuple[list, list]:
    from gui.canvas.edge_item import EdgeItem
    from gui.canvas.node_item import NodeItem

    mini = w.view.minimap
    box = mini.geometry().translated(-w.view.viewport().geometry().topLeft())  # in the canvas's viewport
    items = w.scene.items(w.view.mapToScene(box).boundingRect())
    return ([i.node_id for i in items if isinstance(i, NodeItem)], [i.edge for i in items if isinstance(i, EdgeItem)])


def _edge_shows_through(w, edge) -> bool:
    """Whether, where ``edge``'s curve runs under the map, the canvas as drawn is bluer on the curve than a few
    pixels off it (the map alone draws no curve there)."""
    mini, view = w.view.minimap, w.view
    path = w.scene.edge_items[edge].path()
    inside = mini.geometry().adjusted(6, 6, -6, -12)
    spots = [view.mapFromScene(path.pointAtPercent(i / 200)) + view.viewport().pos() for i in range(201)]
    spot = next(p for p in spots if inside.contains(p))
    picture = view.grab().toImage()
    on, off = picture.pixelColor(spot), picture.pixelColor(spot + QPoint(0, 6))
    return on.blue() > off.blue() + 15


def test_the_minimap_keeps_off_edges_where_a_corner_is_clear_else_lets_them_show_through(qtbot, node_types):
    """A graph wider than the canvas, opened at 1366x768: the bottom right corner has no node but an edge runs
    under it, so the map takes the clear top right corner, drawn opaque. With an edge under every free corner it
    sits over one (never over a node) and is drawn translucent, the edge showing through; Fit all hides it."""
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click_toolbar

    for long_top, clear in ((False, True), (True, False)):
        w = shown(qtbot, make_window(qtbot, _two_rows(long_top)))
        w.view.show_document()  # as the document opened
        mini = w.view.minimap
        qtbot.waitUntil(lambda mini=mini: mini.isVisible() and not mini._timer.isActive())
        nodes, edges = _under_minimap(w)
        assert nodes == []
        viewport = w.view.viewport().geometry()
        if clear:
            assert edges == [] and not mini.translucent
            assert mini.geometry().bottom() < viewport.center().y()  # the top right corner, off the bottom edge
        else:
            assert edges and mini.translucent
            assert _edge_shows_through(w, edges[0])
        click_toolbar(w, "fit_all")
        qtbot.waitUntil(lambda mini=mini: not mini.isVisible())
        w.undo_stack.setClean()
        w.close()


@pytest.mark.parametrize("damage, reason", [
    (lambda text: text[:text.index('"type"') + 12], "Unterminated string starting at line "),  # cut in a string
    (lambda text: text.replace('"dtype": "default"', '"dtype": "flaot32"', 1),
     "parameter 'dtype' must be one of default, float32,"),
])
def test_a_truncated_or_misspelt_file_is_refused_in_plain_words(window, qtbot, monkeypatch, tmp_path, dialogs,
                                                                damage, reason):
    """The chapter's graph saved with File ▸ Save As…, then damaged as an editor or a cut download leaves it:
    File ▸ Open… refuses it with the loader's words, each written once ("starting at line 8", never "at at"), a dtype
    typo with the choice it was near; the open document stays."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QFileDialog

    w = shown(qtbot, window)
    saved = tmp_path / "chapter.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(saved.exists)
    bad = tmp_path / "damaged.json"
    bad.write_text(damage(saved.read_text()))
    before = w.graph.to_dict()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: any(kind == "warning" for kind, _ in dialogs))
    message = next(m for kind, m in dialogs if kind == "warning")
    assert message.startswith("Can't open damaged.json: ") and reason in message
    assert " at at " not in message
    if "dtype" in reason:
        assert message.endswith("got 'flaot32' (did you mean 'float32'?)")
    assert w.graph.to_dict() == before and w.status_label.text() == message


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_the_loss_a_stop_watches_is_read_whole_in_the_train_dock(window, qtbot, size):
    """The chapter's graph has no validation split: in the Train dock (its tab clicked) 'No improvement in' offers
    'training loss (no validation split)', under its label and never cut off, at a laptop's and a desktop's size;
    raising the patience with the arrow key enables it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    from tests.gui.real_input import click, show_dock

    w = shown(qtbot, window, size)
    show_dock(qtbot, w, w.training.docks["train"])
    panel = w.training.panel
    click(panel.patience)
    QTest.keyClick(panel.patience, Qt.Key_Up)
    qtbot.waitUntil(lambda: panel.watch.isEnabled())
    panel.settings_scroll.ensureWidgetVisible(panel.watch)
    qtbot.waitUntil(lambda: not panel.watch.visibleRegion().isEmpty())
    box = panel.watch
    assert box.currentText() == "training loss (no validation split)"
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                       QStyle.SubControl.SC_ComboBoxEditField, box)
    assert box.fontMetrics().horizontalAdvance(box.currentText()) <= field.width()  # drawn whole
    assert not panel.settings_scroll.horizontalScrollBar().isVisible()
    w.undo_stack.setClean()


def test_a_shape_label_too_wide_for_its_edge_sits_off_the_nodes_and_back_on_its_edge_when_there_is_room(window, qtbot):
    """xw dragged right up against x: the edge between them is shorter than its label ``(2,)``, which then sits
    above or below the two nodes, over neither node's frame (on them, on a patch of the canvas's colour, it covered
    their borders); dragged away again it sits free on its edge."""
    from PySide6.QtCore import QPointF

    from tests.gui.real_input import click_toolbar
    from tests.gui.scenarios.driver import canvas_point, drag

    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: not w.stepper.active and "n6" in w.bridge.session.values)
    x, mul = w.scene.node_items["n1"], w.scene.node_items["n4"]
    edge = w.scene.edge_items[w.graph.edge_into("n4", "a")]
    qtbot.waitUntil(lambda: edge.label_text == "(2,)")
    assert not edge.label.boxed  # the chapter's layout: a free middle
    show_node_on_canvas(w, "n4")

    def drag_mul_by(dx: float, dy: float) -> None:
        before, title = w.graph.nodes["n4"].position, canvas_point(w, mul, QPointF(40, 8))
        target = w.view.mapFromScene(mul.mapToScene(QPointF(40, 8)) + QPointF(dx, dy))
        drag(w.view.viewport(), title, target)
        qtbot.waitUntil(lambda: w.graph.nodes["n4"].position != before)

    x_right = x.sceneBoundingRect().right()
    def off_nodes() -> bool:
        box = edge.label.text_box()
        return not edge.label.boxed and not any(box.intersects(n.sceneBoundingRect()) for n in (x, mul))

    def by_its_curve() -> bool:
        middle = edge.mapToScene(edge.path().pointAtPercent(0.5))
        return abs(edge.label.text_box().center().y() - middle.y()) < 24

    drag_mul_by(x_right + 6 - mul.sceneBoundingRect().left(), x.scenePos().y() - mul.scenePos().y())
    qtbot.waitUntil(lambda: off_nodes() and not by_its_curve())
    assert edge.label.isVisible() and edge.label.text() == "(2,)"
    drag_mul_by(200, 0)
    qtbot.waitUntil(lambda: off_nodes() and by_its_curve())
    w.undo_stack.setClean()
