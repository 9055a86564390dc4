"""The window fits common screens (1366x768 and 1920x1080) with its status bar, the canvas is the biggest
thing in it, and an opened document shows every node's value readable without Fit all; driven by real
clicks on the toolbar, the menus and the panels."""

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication, QDockWidget, QTabBar

from gui import window_placement
from tests.gui.real_input import click, click_toolbar, shown

SIZES = [(1366, 768), (1920, 1080)]
TITLE_AND_PANEL = 60  # a window manager's title bar and a desktop panel take this much of the screen's height


def active(qtbot, window, size):
    """Shown as app.py shows it on a screen of ``size`` (fitted to the screen, frame included), and active."""
    shown(qtbot, window, size)
    window_placement.fit_to_screen(window, QRect(0, 0, *size))
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    qtbot.waitUntil(lambda: QRect(0, 0, *size).contains(window.frameGeometry()))
    window.fitted = window.size()
    return window


def choose_menu(qtbot, window, path) -> None:
    """Click through the menu bar: ``path`` = the menu titles, then the entry's text (without '&')."""
    bar = window.menuBar()
    top = next(a for a in bar.actions() if a.text().replace("&", "") == path[0])
    click(bar, bar.actionGeometry(top).center())
    menu = top.menu()
    for text in path[1:]:
        qtbot.waitUntil(menu.isVisible)
        action = next(a for a in menu.actions() if a.text().replace("&", "") == text)
        click(menu, menu.actionGeometry(action).center())
        menu = action.menu()
        if menu is None:
            break


def click_tab(qtbot, window, title: str) -> None:
    """Click the dock tab titled ``title``."""
    bar = next(b for b in window.findChildren(QTabBar)
               if b.isVisible() and title in [b.tabText(i) for i in range(b.count())])
    click(bar, bar.tabRect([bar.tabText(i) for i in range(bar.count())].index(title)).center())


def visible_docks(window) -> list:
    return [d for d in window.findChildren(QDockWidget) if d.isVisible() and not d.visibleRegion().isEmpty()]


def area(rect: QRect) -> int:
    return rect.width() * rect.height()


def assert_canvas_is_biggest(window) -> None:
    canvas = area(window.view.viewport().rect())
    for dock in visible_docks(window):
        assert area(dock.rect()) < canvas, f"{dock.objectName()} {dock.size()} is bigger than the canvas"


def assert_window_fits(window, size) -> None:
    hint = window.minimumSizeHint()
    assert hint.width() <= size[0] and hint.height() <= size[1] - TITLE_AND_PANEL, hint
    assert QRect(0, 0, *size).contains(window.frameGeometry())
    assert window.size() == window.fitted  # no dock forced it bigger
    assert window.rect().contains(window.statusBar().geometry())


def assert_values_readable(qtbot, window) -> None:
    """Every node's value is drawn (the zoom draws previews) and every node lies inside the canvas."""
    items = list(window.scene.node_items.values())
    qtbot.waitUntil(lambda: all(i.display.value for i in items))
    window.view.viewport().update()
    qtbot.waitUntil(lambda: all(i.painted_preview for i in items))
    viewport = window.view.viewport().rect()
    for item in items:
        on_screen = window.view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        assert viewport.contains(on_screen), f"{item.title} at {on_screen} is outside the canvas {viewport}"


@pytest.mark.parametrize("size", SIZES)
def test_the_window_with_its_status_bar_fits_the_screen(qtbot, window, size):
    w = active(qtbot, window, size)
    assert_window_fits(w, size)


@pytest.mark.parametrize("size", SIZES)
def test_edit_history_opens_beside_the_inspector_and_the_window_still_fits_after_closing_it(qtbot, window, size):
    w = active(qtbot, window, size)
    before = w.minimumSizeHint()
    choose_menu(qtbot, w, ["Edit", "History"])
    qtbot.waitUntil(lambda: w.history_dock in visible_docks(w))
    assert_window_fits(w, size)
    choose_menu(qtbot, w, ["Edit", "History"])
    qtbot.waitUntil(lambda: not w.history_dock.isVisible())
    assert w.minimumSizeHint() == before
    assert_window_fits(w, size)


@pytest.mark.parametrize("size", SIZES)
def test_on_the_first_start_the_canvas_is_the_biggest_thing_and_forward_all_shows_every_value(qtbot, window, size):
    w = active(qtbot, window, size)
    assert w.lessons.first_start()  # lesson 4 beside the default graph, as app.py opens it
    qtbot.waitUntil(lambda: w.lessons.dock in visible_docks(w))
    assert_canvas_is_biggest(w)
    assert not any(w.training.docks[n].isVisible() for n in ("plots", "data", "watch"))  # nothing to show yet
    click_toolbar(w, "forward")
    assert_values_readable(qtbot, w)


@pytest.mark.parametrize("size", SIZES)
def test_lesson_4_opened_from_the_examples_menu_shows_every_value_after_forward_all(qtbot, empty_window, size):
    w = active(qtbot, empty_window, size)
    choose_menu(qtbot, w, ["File", "Examples", "4. The autograd graph"])
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 6)
    click_toolbar(w, "forward")
    assert_values_readable(qtbot, w)
    assert_canvas_is_biggest(w)


def test_a_graph_too_big_to_read_whole_opens_readable_at_its_start(qtbot, empty_window):
    from core.nodegraph.model.document import Graph
    from gui.canvas.view import READABLE_ZOOM

    nodes = [{"id": f"n{i}", "type": "source.tensor", "position": [260.0 * (i % 8), 160.0 * (i // 8)]}
             for i in range(48)]
    w = active(qtbot, empty_window, SIZES[0])
    w.set_document(Graph.from_dict({"nodes": nodes, "edges": []}), None)
    qtbot.waitUntil(lambda: abs(w.view.zoom_level() - READABLE_ZOOM) < 1e-6)
    first = w.view.mapFromScene(w.scene.node_items["n0"].sceneBoundingRect()).boundingRect()
    assert w.view.viewport().rect().contains(first)
    assert first.left() < 60 and first.top() < 60  # the graph's start, top-left


def test_training_shows_the_plots_and_data_and_the_canvas_stays_the_biggest(qtbot, window):
    from core.nodegraph.files.toy import classifier_graph

    w = window
    w.set_document(classifier_graph("moons"), None)
    active(qtbot, w, SIZES[0])
    train = w.training.docks["train"]
    click_tab(qtbot, w, "Train")
    qtbot.waitUntil(lambda: train in visible_docks(w))
    click(w.training.panel.buttons["Step"])
    docks = w.training.docks
    qtbot.waitUntil(lambda: docks["plots"] in visible_docks(w) and docks["data"] in visible_docks(w))
    assert_window_fits(w, SIZES[0])
    assert_canvas_is_biggest(w)



def left_tab_bar(window) -> QTabBar:
    return next(b for b in window.findChildren(QTabBar)
                if b.isVisible() and "Lesson" in [b.tabText(i) for i in range(b.count())])


@pytest.mark.parametrize("size", SIZES)
def test_the_left_column_shows_its_tab_titles_whole_and_each_tab_opens_by_a_click(qtbot, window, size):
    w = active(qtbot, window, size)
    assert w.lessons.first_start()
    qtbot.waitUntil(lambda: w.lessons.dock in visible_docks(w))
    bar = left_tab_bar(w)
    titles = [bar.tabText(i) for i in range(bar.count())]
    assert titles == ["Lesson", "Nodes", "Autograd", "Diagnostics"]
    for i, title in enumerate(titles):  # an elided tab is drawn narrower than its title needs
        assert bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(title), (title, bar.tabRect(i))
    for title, dock in (("Nodes", w.library_dock), ("Autograd", w.training.docks["autograd"]),
                        ("Lesson", w.lessons.dock)):
        click_tab(qtbot, w, title)
        qtbot.waitUntil(lambda d=dock: d in visible_docks(w))
    assert_canvas_is_biggest(w)


def test_the_default_graph_shows_whole_at_1366_with_the_library_in_front(qtbot, window):
    """A second start (no lesson): the left column is the Node library's, as wide as its tab titles, and the
    chapter's graph still fits the canvas, centred, after Forward all."""
    w = active(qtbot, window, SIZES[0])
    w.library_dock.raise_()
    w.view.show_document()
    click_toolbar(w, "forward")
    assert_values_readable(qtbot, w)
    viewport = w.view.viewport().rect()
    shown_nodes = QRect()
    for item in w.scene.node_items.values():
        shown_nodes = shown_nodes.united(w.view.mapFromScene(item.sceneBoundingRect()).boundingRect())
    above, below = shown_nodes.top(), viewport.bottom() - shown_nodes.bottom()
    assert abs(above - below) < viewport.height() // 4, (above, below)  # centred, not pinned to the top


def test_a_graph_just_too_wide_for_its_margins_opens_readable_and_whole(qtbot, empty_window):
    """Nodes that fit the canvas at READABLE_ZOOM only without the margins are centred, not cut at the right."""
    from core.nodegraph.model.document import Graph
    from gui.canvas.view import DOCUMENT_MARGIN, READABLE_ZOOM

    def graph(span: float) -> Graph:
        return Graph.from_dict({"nodes": [{"id": "a", "type": "source.tensor", "position": [0.0, 0.0]},
                                          {"id": "b", "type": "source.tensor", "position": [span, 200.0]}],
                                "edges": []})

    w = active(qtbot, empty_window, SIZES[0])
    w.set_document(graph(0.0), None)
    qtbot.waitUntil(lambda: "a" in w.scene.node_items)
    node_width = w.scene.node_items["a"].sceneBoundingRect().width()
    fits_bare = w.view.viewport().width() / READABLE_ZOOM - DOCUMENT_MARGIN  # wider with both margins
    w.set_document(graph(fits_bare - node_width), None)
    qtbot.waitUntil(lambda: abs(w.view.zoom_level() - READABLE_ZOOM) < 1e-6)
    viewport = w.view.viewport().rect()
    for item in w.scene.node_items.values():
        assert viewport.contains(w.view.mapFromScene(item.sceneBoundingRect()).boundingRect()), item.title


@pytest.mark.parametrize("size", SIZES)
def test_a_frame_added_after_the_first_start_fit_shrinks_the_window_back_onto_the_screen(qtbot, window, size):
    """An X11 window manager frames the window only after show(): app.py's first-start fit saw no frame and
    filled the whole screen, so the title bar pushed the status bar below it. Once the frame shows (a move or
    resize event reports it), the window is fitted again, frame included."""
    screen = QRect(0, 0, *size)
    window_placement.fit_to_screen(window, screen)  # no frame yet, as under a window manager right after show()
    filled = window.size() == screen.size()  # a laptop's whole screen; a bigger one has room to spare

    window.show()  # the offscreen platform's frame comes now, as a window manager's does
    qtbot.waitExposed(window)

    qtbot.waitUntil(lambda: screen.contains(window.frameGeometry()))
    frame = window.frameGeometry().size() - window.size()
    assert not frame.isEmpty()
    if filled:
        assert window.size() == screen.size() - frame
    assert window.rect().contains(window.statusBar().geometry())
