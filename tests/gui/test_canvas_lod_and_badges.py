"""The canvas zoomed out (level of detail), pinch and keyboard zoom, diagnostic badges and device tags on nodes."""

import pytest


def _paint(window):
    """The canvas as it is painted now (grabbing runs the view's paint at once)."""
    return window.view.viewport().grab().toImage()


def _show(window, qtbot, zoom=1.0):
    window.show()
    qtbot.waitExposed(window)
    window.view.resetTransform()
    window.view.scale(zoom, zoom)
    window.view.centerOn(window.scene.node_items["n1"])
    _paint(window)


def _colour_at_node(window, nid):
    """The colour the viewport shows on node ``nid``'s body, below the title bar, left of the port names."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QColor

    from gui import style

    item = window.scene.node_items[nid]
    body = item.mapToScene(QPointF(40, style.TITLE_H + 12))
    point = window.view.mapFromScene(body)
    return QColor(_paint(window).pixel(point)).name()


def test_zoomed_out_the_scene_switches_to_the_simple_form_and_back(window, qtbot):
    from PySide6.QtWidgets import QGraphicsItem

    _show(window, qtbot, 0.2)
    scene, item = window.scene, window.scene.node_items["n1"]
    assert scene.simple and scene.overview is not None and scene.overview.scene() is scene
    assert item.flags() & QGraphicsItem.ItemHasNoContents
    assert not any(p.isVisible() for p in item.ports.values())
    assert not any(e.isVisible() or e.label.isVisible() for e in scene.edge_items.values())
    window.view.zoom(5.0)
    _paint(window)
    assert not scene.simple and scene.overview is None
    assert not item.flags() & QGraphicsItem.ItemHasNoContents
    assert all(p.isVisible() for p in item.ports.values())
    assert all(e.isVisible() for e in scene.edge_items.values())


def test_zoomed_out_a_node_is_a_box_in_its_category_colour_and_the_picture_differs(window, qtbot, monkeypatch):
    from gui import style
    from gui.canvas import node_item

    _show(window, qtbot, 0.3)
    simple_picture = _paint(window)
    assert _colour_at_node(window, "n1") == style.category_color("source").name()
    monkeypatch.setattr(node_item, "SIMPLE_BELOW", 0.05)  # the same zoom drawn in full detail
    detailed_picture = _paint(window)
    assert not window.scene.simple
    assert window.scene.node_items["n1"].painted_simple is False
    assert _colour_at_node(window, "n1") == style.NODE_BG.name()
    assert detailed_picture != simple_picture


def test_a_node_drawn_small_by_another_view_paints_its_simple_form(window, qtbot):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    _show(window, qtbot, 1.0)
    item = window.scene.node_items["n1"]
    assert item.painted_simple is False
    image = QImage(120, 80, QImage.Format_ARGB32)
    painter = QPainter(image)
    window.scene.render(painter, QRectF(0, 0, 120, 80), window.scene.itemsBoundingRect())  # as the minimap does
    painter.end()
    assert item.painted_simple is True


def test_zoomed_out_clicking_a_node_still_finds_the_node(window, qtbot):
    from gui.canvas.node_item import NodeItem

    _show(window, qtbot, 0.2)
    item = window.scene.node_items["n3"]
    hit = window.scene.itemAt(item.sceneBoundingRect().center(), window.view.transform())
    assert isinstance(hit, NodeItem) and hit.node_id == "n3"


def test_an_image_export_while_zoomed_out_draws_every_item_in_full(window, qtbot):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    _show(window, qtbot, 0.2)
    rect = window.scene.itemsBoundingRect()
    image = QImage(int(rect.width()), int(rect.height()), QImage.Format_ARGB32)
    painter = QPainter(image)
    window.scene.render(painter, QRectF(image.rect()), rect)
    painter.end()
    assert window.scene.node_items["n1"].painted_simple is False
    assert window.scene.simple  # the view's zoomed-out form is back after the export


def test_moving_a_node_while_zoomed_out_moves_its_box_in_the_overview(window, qtbot):
    from PySide6.QtCore import QPointF

    _show(window, qtbot, 0.2)
    overview = window.scene.overview
    before = overview.boundingRect()
    window.scene.node_items["n1"].setPos(window.scene.node_items["n1"].pos() - QPointF(500, 0))
    assert overview.boundingRect().left() == pytest.approx(before.left() - 500, abs=1)


def _pinch(view, value, at):
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QNativeGestureEvent, QPointingDevice
    from PySide6.QtWidgets import QApplication

    local = QPointF(at)
    event = QNativeGestureEvent(Qt.ZoomNativeGesture, QPointingDevice.primaryPointingDevice(), 2, local, local,
                                QPointF(view.viewport().mapToGlobal(at)), value, QPointF(0, 0))
    QApplication.sendEvent(view.viewport(), event)


def test_a_trackpad_pinch_zooms_around_the_fingers(window, qtbot):
    from PySide6.QtCore import QPoint

    from gui.canvas.view import MAX_ZOOM

    _show(window, qtbot, 1.0)
    view = window.view
    at = QPoint(120, 90)
    under = view.mapToScene(at)
    _pinch(view, 0.25, at)
    assert view.zoom_level() == pytest.approx(1.25)
    after = view.mapToScene(at)
    assert abs(after.x() - under.x()) < 2 and abs(after.y() - under.y()) < 2
    _pinch(view, -0.5, at)
    assert view.zoom_level() == pytest.approx(0.625)
    for _ in range(30):
        _pinch(view, 1.0, at)
    assert view.zoom_level() == pytest.approx(MAX_ZOOM)  # clamped like the wheel


def test_ctrl_plus_and_ctrl_minus_zoom_the_canvas(window, qtbot):
    from PySide6.QtCore import Qt

    _show(window, qtbot, 1.0)
    window.activateWindow()
    window.view.setFocus()
    qtbot.waitUntil(lambda: window.view.hasFocus())
    qtbot.keyClick(window.view, Qt.Key_Plus, Qt.ControlModifier)
    assert window.view.zoom_level() == pytest.approx(1.2)
    qtbot.keyClick(window.view, Qt.Key_Minus, Qt.ControlModifier)
    assert window.view.zoom_level() == pytest.approx(1.0)


def _broadcast_window(qtbot, target_shape):
    """pred (32, 1) and y ``target_shape`` into an mse loss: (32,) broadcasts silently to (32, 32)."""
    from core.nodegraph.model.document import Edge, Graph, Node
    from tests.gui.conftest import make_window

    g = Graph()
    g.add_node(Node("pred", "source.randn", {"shape": [32, 1], "seed": 1}, (0.0, 0.0)))
    g.add_node(Node("y", "source.randn", {"shape": target_shape, "seed": 2}, (0.0, 200.0)))
    g.add_node(Node("loss", "loss.mse", {}, (300.0, 100.0)))
    g.connect(Edge("pred", "out", "loss", "input"))
    g.connect(Edge("y", "out", "loss", "target"))
    g.set_training("loss", "loss")
    return make_window(qtbot, g)


def test_a_silent_broadcast_puts_a_badge_on_the_loss_node_only(qtbot, node_types):
    window = _broadcast_window(qtbot, [32])
    window.run_step("forward")
    items = window.scene.node_items
    badge = items["loss"].badge
    assert badge is not None and badge.isVisible()
    assert items["pred"].badge is None and items["y"].badge is None
    assert badge.severity == "warning" and [h.rule for h in badge.hints] == ["silent_broadcast"]
    assert "(32, 32)" in badge.toolTip() and "first try:" in badge.toolTip()
    assert badge.hints == [h for h in window.training.diagnostics.hints if h.node_id == "loss"]  # the panel's list
    labels = {e.src: item.label_text for e, item in window.scene.edge_items.items()}
    assert labels == {"pred": "(32, 1)", "y": "(32,)"}  # the whole shape on the edge
    window.undo_stack.setClean()


def test_the_badge_goes_away_when_the_diagnostic_does(qtbot, node_types):
    from core.nodegraph.model import commands

    window = _broadcast_window(qtbot, [32])
    window.run_step("forward")
    assert window.scene.node_items["loss"].badge is not None
    window.scene.edit(commands.SetParam("y", "shape", [32, 1]))
    window.run_step("forward")
    assert window.scene.node_items["loss"].badge is None
    window.undo_stack.setClean()


def test_the_healthy_chapter_graph_has_no_badges(window):
    window.run_step("forward")
    window.run_step("backward")
    assert all(item.badge is None for item in window.scene.node_items.values())


def test_computed_nodes_show_their_device(window):
    assert window.scene.node_items["n1"].display.device == ""  # nothing computed yet
    window.run_step("forward")
    assert {item.display.device for item in window.scene.node_items.values()} == {"cpu"}


def test_a_device_other_than_the_cpu_stands_out(qtbot):
    from PySide6.QtGui import QColor, QImage, QPainter

    from gui.canvas.badges import DEVICE_TAG, paint_device_tag

    def tag_colours(device):
        image = QImage(120, 20, QImage.Format_ARGB32)
        image.fill(QColor("#000000"))
        painter = QPainter(image)
        width = paint_device_tag(painter, device, 116, 2)
        painter.end()
        return width, {QColor(image.pixel(x, y)).name() for x in range(120) for y in range(20)}

    cpu_width, cpu = tag_colours("cpu")
    gpu_width, gpu = tag_colours("cuda:0")
    assert DEVICE_TAG.name() in gpu and DEVICE_TAG.name() not in cpu
    assert gpu_width > cpu_width > 0


def test_a_little_zoomed_out_nodes_leave_out_the_small_print_but_keep_title_and_ports(window, qtbot, monkeypatch):
    from gui import style
    from gui.canvas import node_item

    _show(window, qtbot, 0.45)
    assert not window.scene.simple and all(p.isVisible() for p in window.scene.node_items["n1"].ports.values())
    assert _colour_at_node(window, "n1") == style.NODE_BG.name()  # a full node, not the coloured box
    assert window.scene.node_items["n1"].painted_preview is False
    without = _paint(window)
    monkeypatch.setattr(node_item, "SMALL_PRINT_BELOW", 0.42)
    assert _paint(window) != without  # the port names and previews come back
    assert window.scene.node_items["n1"].painted_preview is True


def test_a_graph_fitted_a_little_small_draws_its_values_at_the_size_they_have_at_zoom_0_6(window, qtbot):
    """Between SMALL_PRINT_BELOW and TEXT_KEPT_FROM a node's text grows in the scene as the zoom shrinks, so on
    screen it keeps its size at TEXT_KEPT_FROM (a 5-column snippet graph beside its code at 1366x768 is at 0.52)."""
    from gui.canvas import node_item

    assert node_item.text_scale(1.0) == node_item.text_scale(node_item.TEXT_KEPT_FROM) == 1.0
    on_screen = [node_item.text_scale(z) * z for z in (0.6, 0.55, node_item.SMALL_PRINT_BELOW)]
    assert on_screen == pytest.approx([node_item.TEXT_KEPT_FROM] * 3)
    _show(window, qtbot, 0.52)
    qtbot.waitUntil(lambda: window.scene.node_items["n1"].painted_preview)


def _ink_width(image, rect, background):
    """How many pixel columns of ``rect`` (viewport pixels) hold anything but ``background``."""
    columns = set()
    for x in range(max(rect.left(), 0), min(rect.right() + 1, image.width())):
        for y in range(max(rect.top(), 0), min(rect.bottom() + 1, image.height())):
            if image.pixel(x, y) != background:
                columns.add(x)
                break
    return len(columns)


def test_zoomed_out_to_the_band_below_0_6_edge_labels_and_the_device_tag_keep_their_size(window, qtbot):
    """A snippet's graph opens at about 0.52: its shapes and the 'cpu' tag stay drawn, at their size at zoom 0.6,
    like the node's values (they vanished below 0.6 or shrank with the zoom)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor
    from PySide6.QtTest import QTest

    from gui import style
    from gui.canvas import node_item
    from gui.canvas.badges import CPU_TAG

    window.run_step("forward")
    _show(window, qtbot, 0.625)
    edge = next(e for e in window.scene.edge_items.values() if e.label_text)
    window.view.centerOn(edge.label)
    text = edge.label.text_box()
    background = style.SCENE_BG.rgb()

    def label_ink():
        box = window.view.mapFromScene(edge.label.sceneBoundingRect()).boundingRect()
        return _ink_width(_paint(window), box.adjusted(-2, 0, 2, 0), background)

    before = label_ink()
    assert before == pytest.approx(text.width() * 0.625, abs=3)
    window.view.setFocus()
    QTest.keyClick(window.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.view.zoom_level() < node_item.TEXT_KEPT_FROM)
    zoom = window.view.zoom_level()
    assert node_item.SMALL_PRINT_BELOW <= zoom < 0.55
    qtbot.waitUntil(lambda: window.scene.labels_grown)
    after = label_ink()
    assert after == pytest.approx(text.width() * node_item.TEXT_KEPT_FROM, abs=3)  # on screen as at 0.6
    assert after > text.width() * zoom + 3  # not shrunk with the zoom
    grown = edge.label.mapRectToScene(edge.label.boundingRect())
    assert grown.contains(text) and grown.width() == pytest.approx(text.width() * edge.label.GROWN_BY)

    item = window.scene.node_items["n1"]
    window.view.centerOn(item)
    picture = _paint(window)
    tag = window.view.mapFromScene(item.mapRectToScene(item.boundingRect())).boundingRect()

    def near_tag_grey(x, y):
        c = QColor(picture.pixel(x, y))
        return max(abs(c.red() - CPU_TAG.red()), abs(c.green() - CPU_TAG.green()), abs(c.blue() - CPU_TAG.blue())) < 24

    grey = {x for x in range(tag.left(), tag.right()) for y in range(tag.top(), tag.bottom()) if near_tag_grey(x, y)}
    assert len(grey) >= 8, "the cpu tag is drawn, about as wide as at zoom 0.6"
