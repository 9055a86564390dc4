"""The convnet playground at 1366x768: it opens whole and filling the canvas's width, and after Forward all and
training steps its edges' shapes (``(16, 4, 13, 13)``) sit clear of every node's title (in one row, 50 px gaps, they
were boxed over the next node's title)."""

import pytest
from PySide6.QtCore import QRectF

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui import style
from gui.canvas.node_item import SMALL_PRINT_BELOW
from gui.main_window import MainWindow
from tests.gui.real_input import click, click_toolbar, show_dock, shown

pytest.importorskip("pytestqt")


@pytest.fixture
def convnet(qtbot, node_types, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(files.load(EXAMPLES_DIR / "playground-convnet.json"))
    qtbot.addWidget(w)
    yield w
    w.training.trainer.pause()
    w.undo_stack.clear()


def _graph_on_screen(w) -> QRectF:
    rect = QRectF()
    for item in w.scene.node_items.values():
        rect = rect.united(item.mapRectToScene(item.body_rect()))
    return w.view.mapFromScene(rect).boundingRect().toRectF()


def _labels_over_titles(w) -> list[tuple[str, str]]:
    titles = {nid: item.mapRectToScene(QRectF(0, 0, style.NODE_WIDTH, style.TITLE_H))
              for nid, item in w.scene.node_items.items()}
    found = []
    for item in w.scene.edge_items.values():
        if item.label_text and item.label.isVisible():
            box = item.label.text_box()
            found += [(item.label_text, nid) for nid, title in titles.items() if box.intersects(title)]
    return found


def test_the_convnet_opens_whole_and_its_shapes_stay_off_the_titles(qtbot, convnet):
    w = shown(qtbot, convnet)
    viewport = QRectF(w.view.viewport().rect())
    qtbot.waitUntil(lambda: viewport.contains(_graph_on_screen(w)))
    assert w.view.zoom_level() >= SMALL_PRINT_BELOW  # values drawn
    assert _graph_on_screen(w).width() > 0.85 * viewport.width()  # the graph fills the canvas's width
    assert _graph_on_screen(w).height() > 0.35 * viewport.height()  # two rows and more, not a thin strip

    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: sum(1 for i in w.scene.edge_items.values() if i.label_text) == len(w.graph.edges))
    assert any("(16, 4, 13, 13)" == i.label_text for i in w.scene.edge_items.values())
    assert _labels_over_titles(w) == []

    show_dock(qtbot, w, w.training.docks["train"])
    trainer = w.training.trainer
    click(w.training.panel.buttons["Step"])
    qtbot.waitUntil(lambda: trainer.done >= 1 and trainer.state == "idle", timeout=60_000)
    qtbot.waitUntil(lambda: w.training.docks["plots"].isVisible())
    qtbot.waitUntil(lambda: QRectF(w.view.viewport().rect()).contains(_graph_on_screen(w)))  # still whole
    assert _labels_over_titles(w) == []
