"""Driving the real window as a user does: clicks, drags and key presses at the widgets' positions on screen.

Everything a scenario does goes through Qt's input path (``QTest`` mouse and key events, wheel events): menus
are opened by clicking the menu bar's title and then the entry in the open menu, toolbar buttons are clicked
where they are drawn, dialogs get their text typed and Enter pressed. The app's own methods are never called;
its state is only read, for the assertions. Every wait is for a condition (``tests/gui/waiting.py``).

``start(qtbot, size)`` opens the window the app opens (the chapter's graph) at a screen size;
``click_menu(qtbot, window, "File", "Open recent", "graph.json")`` walks a menu path;
``click_toolbar(window, "forward_step")`` clicks a toolbar button; ``answer_dialog(qtbot, DialogType, fill)``
types into the modal dialog the next click opens; ``drag(viewport, a, b)`` drags with the left button;
``drawn_values(window, node_id)`` reads the value and gradient a node draws, checking a user can see them.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QTextCursor, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QToolBar

from core.nodegraph.files.examples import default_graph
from gui.canvas.node_item import SMALL_PRINT_BELOW
from gui.main_window import MainWindow
from tests.gui.real_input import click, double_click, shown, type_text

__all__ = ["answer_dialog", "canvas_point", "click", "click_canvas", "click_link", "click_menu", "click_node",
           "click_toolbar", "double_click", "drag", "drawn_values", "empty_canvas_point", "focus_window", "menu_entry",
           "numbers", "press", "start", "type_in_dialog", "type_into"]

SIZES = [(1366, 768), (1920, 1080)]


def start(qtbot, size, graph=None):
    """The app's window (on the chapter's graph unless ``graph``), shown at ``size`` and active. The caller
    closes it (qtbot would close it with a real unsaved-changes question and wait for an answer)."""
    window = MainWindow(graph if graph is not None else default_graph())
    shown(qtbot, window, size)
    return window


def focus_window(qtbot, window) -> None:
    """Make ``window`` the active window again, as the window manager does when a dialog over it closes (the
    offscreen platform leaves no window active then, and keys and focus go to the active window only)."""
    if QApplication.activeWindow() is not window:
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def press(qtbot, window, key, modifier=Qt.NoModifier) -> None:
    """A key press on the focused widget of ``window`` (its shortcuts answer it)."""
    focus_window(qtbot, window)
    QTest.keyClick(QApplication.focusWidget() or window, key, modifier)


def type_into(qtbot, widget, text: str, enter: bool = True) -> None:
    """Click into ``widget`` (once it is shown), select all it holds, type ``text`` and press Return."""
    qtbot.waitUntil(widget.isVisible)
    focus_window(qtbot, widget.window())
    type_text(qtbot, widget, text, enter)


def _plain(text: str) -> str:
    return text.replace("&", "").rstrip(".…").strip()


def menu_entry(menu_or_bar, text: str):
    """The action titled ``text`` (mnemonics and a trailing ellipsis ignored) in a menu or the menu bar."""
    for action in menu_or_bar.actions():
        if _plain(action.text()) == _plain(text):
            return action
    titles = [_plain(a.text()) for a in menu_or_bar.actions() if a.text()]
    raise AssertionError(f"no entry {text!r} in the menu; it has {titles}")


def click_menu(qtbot, window, *path: str) -> None:
    """Click the menu bar title ``path[0]``, then each entry of ``path[1:]`` in the menu it opens."""
    focus_window(qtbot, window)
    bar = window.menuBar()
    title = menu_entry(bar, path[0])
    menu = title.menu()
    QTest.mouseMove(bar, bar.actionGeometry(title).center())  # the pointer comes from the title: a menu
    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.actionGeometry(title).center())  # ignores a click
    # where the pointer already was when it opened
    qtbot.waitUntil(menu.isVisible)
    for text in path[1:]:
        entry = menu_entry(menu, text)
        assert entry.isEnabled(), f"{text!r} is disabled in the {_plain(menu.title())} menu"
        at = menu.actionGeometry(entry).center()
        QTest.mouseMove(menu, at)
        if entry.menu() is not None:  # a submenu opens where the pointer rests on its entry
            QTest.mouseClick(menu, Qt.LeftButton, Qt.NoModifier, at)
            menu = entry.menu()
            qtbot.waitUntil(menu.isVisible)
        else:
            QTest.mouseClick(menu, Qt.LeftButton, Qt.NoModifier, at)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None)


def click_toolbar(window, action_name: str) -> None:
    """Click the toolbar button of the window's action ``action_name`` where it is drawn."""
    action = window.named_actions[action_name]
    for bar in window.findChildren(QToolBar):
        button = bar.widgetForAction(action)
        if button is not None and button.isVisible():
            assert button.isEnabled(), f"the {action_name} button is disabled"
            click(button)
            return
    raise AssertionError(f"no visible toolbar button for {action_name}")


def answer_dialog(qtbot, kind, fill):
    """Before a click that opens a modal ``kind`` dialog: once it shows and is the active window (activated as
    a window manager does; the offscreen platform has none), call ``fill(dialog)``, which clicks or types into
    it and presses Enter. Returns a list that gets the dialog's class name once it was answered."""
    answered = []

    def poll():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind) or not dialog.isVisible():
            QTimer.singleShot(10, poll)
        elif QApplication.activeWindow() is not dialog:
            dialog.activateWindow()
            QTimer.singleShot(10, poll)
        else:
            fill(dialog)
            answered.append(type(dialog).__name__)  # the dialog itself is deleted once it closes

    QTimer.singleShot(0, poll)
    return answered


def type_in_dialog(text: str, name: str | None = None):
    """A ``fill`` for answer_dialog: click into the dialog's line edit (``name``: its objectName), type ``text``
    over what it holds and press Return."""
    def fill(dialog):
        edit = dialog.findChild(QLineEdit, name) if name else dialog.findChild(QLineEdit)
        click(edit)
        QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClicks(edit, text)
        QTest.keyClick(edit, Qt.Key_Return)
    return fill


def drag(widget, a: QPoint, b: QPoint, steps: int = 6) -> None:
    """Press the left button at ``a`` in ``widget``, move to ``b`` in ``steps`` and release there."""
    QTest.mousePress(widget, Qt.LeftButton, Qt.NoModifier, a)
    for i in range(1, steps + 1):
        QTest.mouseMove(widget, a + (b - a) * i / steps)
    QTest.mouseRelease(widget, Qt.LeftButton, Qt.NoModifier, b)


def numbers(text: str) -> list:
    """The numbers written in a drawn value or gradient ("[1.5, -0.5]" -> [1.5, -0.5])."""
    return [float(t) for t in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", text)]


def empty_canvas_point(window, avoid=()) -> QPoint:
    """A point of the canvas with no item under it (and away from ``avoid``), where a double-click opens the
    palette."""
    view = window.view
    rect = view.viewport().rect()
    for fy in (0.2, 0.5, 0.8):
        for fx in (0.15, 0.5, 0.85):
            p = QPoint(int(rect.width() * fx), int(rect.height() * fy))
            free = all(view.scene().itemAt(view.mapToScene(p + QPoint(dx, dy)), view.transform()) is None
                       for dx in (-120, 0, 120) for dy in (-60, 0, 60))
            if free and all((p - a).manhattanLength() > 200 for a in avoid):
                return p
    raise AssertionError("no empty place on the canvas")


def canvas_point(window, item, at: QPointF) -> QPoint:
    """The viewport point of ``at`` (item coordinates), asserting a user sees it on the canvas."""
    point = window.view.mapFromScene(item.mapToScene(at))
    assert window.view.viewport().rect().contains(point), f"{item} is outside the canvas at {point}"
    return point


def click_canvas(qtbot, window, point: QPoint | None = None) -> None:
    """Click the canvas at ``point`` (an empty place by default): nothing selected, the canvas has the focus."""
    focus_window(qtbot, window)
    click(window.view.viewport(), point if point is not None else empty_canvas_point(window))
    qtbot.waitUntil(window.view.hasFocus)


def click_node(qtbot, window, node_id: str) -> None:
    """Select a node by clicking its title bar where it is drawn now."""
    item = window.scene.node_items[node_id]
    focus_window(qtbot, window)
    QTest.mouseClick(window.view.viewport(), Qt.LeftButton, Qt.NoModifier, canvas_point(window, item, QPointF(30, 8)))
    qtbot.waitUntil(lambda: window.scene.selected_node_ids() == [node_id])


def drawn_values(window, node_id: str) -> tuple:
    """``(value, gradient)`` as node ``node_id`` draws them, checking that its whole box is inside the canvas and
    that the canvas's zoom draws the value lines (zoomed out further a node shows its title only)."""
    item = window.scene.node_items[node_id]
    view = window.view
    box = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    assert view.viewport().rect().contains(box), f"node {item.title} is not wholly on the canvas ({box})"
    assert view.zoom_level() >= SMALL_PRINT_BELOW, f"zoom {view.zoom_level():.2f}: node {item.title}'s value is hidden"
    return item.display.value, item.display.grad


def _wheel(widget, at: QPoint, notches: int) -> None:
    event = QWheelEvent(QPointF(at), QPointF(widget.mapToGlobal(at)), QPoint(0, 0), QPoint(0, 120 * notches),
                        Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def link_position(browser, href: str, after: str = "") -> int:
    """The text position of the first link to ``href`` that follows the text ``after`` (e.g. a step's title)."""
    doc = browser.document()
    start = doc.find(after).position() if after else 0
    assert start >= 0, f"no {after!r} in the text"
    block = doc.findBlock(start)
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.position() >= start and fragment.charFormat().anchorHref() == href:
                return fragment.position() + fragment.length() // 2
            it += 1
        block = block.next()
    raise AssertionError(f"no link to {href!r} after {after!r} in the text")


def click_link(qtbot, browser, href: str, after: str = "") -> None:
    """Scroll ``browser`` with the mouse wheel until the link to ``href`` (the first after the text ``after``)
    is in view, then click it."""
    cursor = QTextCursor(browser.document())
    cursor.setPosition(link_position(browser, href, after))
    viewport = browser.viewport()
    inside = viewport.rect().adjusted(0, 20, 0, -20)  # clear of the edges (a wheel notch scrolls ~60 px)
    for _ in range(200):
        spot = browser.cursorRect(cursor).center()
        if inside.contains(spot):
            break
        _wheel(viewport, viewport.rect().center(), -1 if spot.y() > inside.bottom() else 1)
    else:
        raise AssertionError(f"could not scroll the link to {href!r} into view")
    click(viewport, browser.cursorRect(cursor).center())
