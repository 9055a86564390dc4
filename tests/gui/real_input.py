"""Real mouse and keyboard input for GUI tests: clicks and key presses at a widget's real position.

Tests of a user path go through these (QTest events on the widget the user would touch) instead of
``setChecked``/``trigger``/window methods, which skip the event path where PySide6 can crash.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTabBar


def shown(qtbot, window, size=(1366, 768)):
    """Show ``window`` at ``size`` and wait until it is on screen and active (its shortcuts answer keys)."""
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    return window


def click(widget, pos: QPoint | None = None, button=Qt.LeftButton) -> None:
    """Click ``widget`` at ``pos`` (its centre by default)."""
    assert widget.isVisible(), f"{widget.objectName() or widget} is not visible, a user could not click it"
    QTest.mouseClick(widget, button, Qt.NoModifier, pos if pos is not None else widget.rect().center())


def double_click(widget, pos: QPoint) -> None:
    """A double click as the system delivers it: press and release, then the double-click press and release
    (``QTest.mouseDClick`` alone sends only the second half, which a drag-enabled view ignores)."""
    QTest.mouseClick(widget, Qt.LeftButton, Qt.NoModifier, pos)
    QTest.mouseDClick(widget, Qt.LeftButton, Qt.NoModifier, pos)


def click_checkbox(box) -> None:
    """Click a check box on its indicator, where a user clicks it."""
    click(box, QPoint(min(8, box.width() // 2), box.height() // 2))


def type_text(qtbot, widget, text: str, enter: bool = True) -> None:
    """Click into ``widget``, select what it holds, type ``text`` and (by default) press Return."""
    click(widget)
    qtbot.waitUntil(widget.hasFocus)
    QTest.keyClick(widget, Qt.Key_A, Qt.ControlModifier)
    QTest.keyClicks(widget, text)
    if enter:
        QTest.keyClick(widget, Qt.Key_Return)


def choose_in_combo(qtbot, combo, text: str) -> None:
    """Open ``combo``'s list with a click, move to the entry ``text`` with the arrow keys and press Return.

    (A click on the entry is what a user does, but the list ignores a release that comes within a
    double-click interval of opening, so a test's instant click would depend on timing.)"""
    index = combo.findText(text)
    assert index >= 0, f"{text!r} is not offered by {combo.objectName()}"
    click(combo)
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    row = view.currentIndex().row()
    for _ in range(abs(index - row)):
        QTest.keyClick(view, Qt.Key_Down if index > row else Qt.Key_Up)
    qtbot.waitUntil(lambda: view.currentIndex().row() == index)
    QTest.keyClick(view, Qt.Key_Return)
    qtbot.waitUntil(lambda: not view.isVisible())


def show_dock(qtbot, window, dock) -> None:
    """Bring ``dock`` to the front by clicking its tab (when it shares its place with other docks)."""
    for bar in window.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.isVisible() and bar.tabText(i).replace("&", "") == dock.windowTitle():
                click(bar, bar.tabRect(i).center())
    qtbot.waitUntil(lambda: dock.isVisible() and not dock.visibleRegion().isEmpty())


def show_node_on_canvas(window, node_id: str):
    """Zoom to 100 % around the node so that a click lands on it; returns its item."""
    item = window.scene.node_items[node_id]
    window.view.resetTransform()
    window.view.centerOn(item)
    QApplication.processEvents()
    return item


def click_node(qtbot, window, node_id: str) -> None:
    """Select a node by clicking its title bar on the canvas."""
    item = show_node_on_canvas(window, node_id)
    at = window.view.mapFromScene(item.mapToScene(item.boundingRect().topLeft() + QPoint(30, 8)))
    QTest.mouseClick(window.view.viewport(), Qt.LeftButton, Qt.NoModifier, at)
    qtbot.waitUntil(lambda: window.scene.selected_node_ids() == [node_id])


def double_click_library(qtbot, window, type_id: str) -> str:
    """Add a node by double-clicking its type in the Node library; returns the new node's id."""
    window.library_dock.show()
    window.library_dock.raise_()
    tree = window.library
    item = next(i for i in tree.type_items() if i.data(0, Qt.UserRole) == type_id)
    item.parent().setExpanded(True)
    tree.scrollToItem(item)
    qtbot.waitUntil(lambda: tree.isVisible() and tree.viewport().rect().contains(tree.visualItemRect(item)))
    before = set(window.graph.nodes)
    double_click(tree.viewport(), tree.visualItemRect(item).center())
    qtbot.waitUntil(lambda: len(window.graph.nodes) == len(before) + 1)
    return (set(window.graph.nodes) - before).pop()


def new_randn_shape_field(qtbot, window):
    """A randn node added from the Node library and selected by a click: its id and its Inspector shape field (the
    visible ``param_shape`` line edit, waited for)."""
    from PySide6.QtWidgets import QLineEdit

    nid = double_click_library(qtbot, window, "source.randn")
    click_node(qtbot, window, nid)

    def field():
        return next((f for f in window.inspector.findChildren(QLineEdit, "param_shape") if f.isVisible()), None)

    qtbot.waitUntil(lambda: field() is not None)
    return nid, field()


def toolbar_button(window, action_name: str):
    """The toolbar button of ``window.named_actions[action_name]``."""
    from PySide6.QtWidgets import QToolBar

    action = window.named_actions[action_name]
    for bar in window.findChildren(QToolBar):
        button = bar.widgetForAction(action)
        if button is not None:
            return button
    raise AssertionError(f"no toolbar button for {action_name}")


def click_toolbar(window, action_name: str) -> None:
    click(toolbar_button(window, action_name))


def click_link(qtbot, browser, href: str) -> None:
    """Click the link to ``href`` in a QTextBrowser, where its text is drawn (scrolled into view first)."""
    from PySide6.QtGui import QTextCursor

    doc, where = browser.document(), None
    block = doc.begin()
    while block.isValid() and where is None:
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.charFormat().anchorHref() == href:
                where = frag.position() + max(frag.length() // 2, 0)
                break
            it += 1
        block = block.next()
    assert where is not None, f"no link to {href!r} in the text"
    cursor = QTextCursor(doc)
    cursor.setPosition(where)
    browser.setTextCursor(cursor)
    browser.ensureCursorVisible()
    qtbot.waitUntil(lambda: browser.viewport().rect().contains(browser.cursorRect(cursor).center()))
    click(browser.viewport(), browser.cursorRect(cursor).center())


def press(window, key, modifier=Qt.NoModifier) -> None:
    """Press a key (a shortcut) on the window."""
    QTest.keyClick(window, key, modifier)


def add_by_tab(qtbot, window, type_name: str) -> str:
    """Tab on the focused canvas, type ``type_name`` into the node palette's search and press Return, as a user
    adds a node at the pointer; the new node's id."""
    QTest.keyClick(window.view.viewport(), Qt.Key_Tab)
    qtbot.waitUntil(lambda: window.node_palette is not None and window.node_palette.search_edit.isVisible())
    before = set(window.graph.nodes)
    QTest.keyClicks(window.node_palette.search_edit, type_name)
    QTest.keyClick(window.node_palette.search_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(window.graph.nodes) == len(before) + 1)
    (new,) = set(window.graph.nodes) - before
    return new


def open_lesson_by_mouse(qtbot, w, title_start: str) -> None:
    """Help ▸ Lessons by clicks, then a double-click on the lesson whose title starts with ``title_start``."""
    from gui.lessons_dialog import LessonsDialog

    bar = w.menuBar()
    help_menu = next(a for a in bar.actions() if a.text().replace("&", "") == "Help")
    click(bar, bar.actionGeometry(help_menu).center())
    menu = help_menu.menu()
    qtbot.waitUntil(menu.isVisible)
    click(menu, menu.actionGeometry(next(a for a in menu.actions() if a.objectName() == "action_lessons")).center())
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), LessonsDialog))
    lessons = QApplication.activeModalWidget().list
    row = next(i for i in range(lessons.count()) if lessons.item(i).text().startswith(title_start))
    lessons.scrollToItem(lessons.item(row))
    double_click(lessons.viewport(), lessons.visualItemRect(lessons.item(row)).center())


def click_menu_action(qtbot, window, name: str) -> None:
    """Open the menu that holds ``window.named_actions[name]`` from the menu bar by a click and click the entry."""
    action = window.named_actions[name]
    menu = next(m for m in window.menus.values() if action in m.actions())
    bar = window.menuBar()
    click(bar, bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    click(menu, menu.actionGeometry(action).center())


def framed_red(widget) -> bool:
    """Whether ``widget`` shows the refusal's red frame, as the user sees it (its left border's middle pixel)."""
    from PySide6.QtGui import QColor

    from gui.number_spin_box import REFUSED_RED

    image = widget.grab().toImage()
    return image.pixelColor(0, image.height() // 2) == QColor(REFUSED_RED)
