"""A teacher presenting at 1920x1080: Ctrl+Shift+P (View ▸ Presentation mode) enlarges the lesson's inline code with
its text (it stayed at the old size, half the text's) and widens the left column so its tab titles read whole;
pressed again, the lesson's text and code come back to their size (the text stayed half as big again)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.test_window_fits import active, left_tab_bar


def _sizes(browser) -> tuple[list[float], list[float]]:
    """The point sizes of the lesson's inline code fragments and of its plain text fragments."""
    code, text = [], []
    default = browser.document().defaultFont().pointSizeF()
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            size = fmt.fontPointSize() or default
            if fmt.fontFixedPitch() and it.fragment().text().strip():
                code.append(size)
            elif not fmt.fontFixedPitch() and fmt.fontPointSize() == 0:
                text.append(size)
            it += 1
        block = block.next()
    return code, text


def _titles_whole(bar) -> bool:
    return all(bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(bar.tabText(i))
               for i in range(bar.count()))


def test_presentation_mode_enlarges_inline_code_with_the_text_and_keeps_tab_titles_whole(qtbot, window):
    w = active(qtbot, window, (1920, 1080))
    assert w.lessons.first_start()
    browser = w.lessons.panel.browser
    qtbot.waitUntil(lambda: w.lessons.dock.isVisible() and bool(_sizes(browser)[0]))
    code, text = _sizes(browser)
    normal = max(text)
    assert min(code) >= 0.85 * normal
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: bool(w.windowState() & Qt.WindowFullScreen))
    qtbot.waitUntil(lambda: max(_sizes(browser)[1]) > normal)
    presented = _sizes(browser)
    code, text = presented
    assert min(code) >= 0.85 * max(text)
    bar = left_tab_bar(w)
    qtbot.waitUntil(lambda: _titles_whole(bar))
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: not w.windowState() & Qt.WindowFullScreen)
    qtbot.waitUntil(lambda: max(_sizes(browser)[1]) == normal)
    assert min(_sizes(browser)[0]) >= 0.85 * normal
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)  # a second time: as big as the first
    qtbot.waitUntil(lambda: bool(w.windowState() & Qt.WindowFullScreen))
    qtbot.waitUntil(lambda: _sizes(browser) == presented)
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: max(_sizes(browser)[1]) == normal)


def test_the_lessons_dialog_opened_while_presenting_reads_in_the_presentation_font(qtbot, window):
    from gui.lessons_dialog import LessonsDialog
    from tests.gui.test_window_fits import choose_menu
    from tests.gui.waiting import wait_until_layouts_settle

    w = active(qtbot, window, (1920, 1080))
    normal = w.font().pointSizeF()
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: bool(w.windowState() & Qt.WindowFullScreen) and w.font().pointSizeF() > normal)
    wait_until_layouts_settle(qtbot, [w, w.menuBar()])
    choose_menu(qtbot, w, ["Help", "Lessons…"])
    qtbot.waitUntil(lambda: any(d.isVisible() for d in w.findChildren(LessonsDialog)))
    dialog = next(d for d in w.findChildren(LessonsDialog) if d.isVisible())
    assert dialog.font().pointSizeF() == w.font().pointSizeF()
    assert dialog.about.height() >= dialog.fontMetrics().lineSpacing() * 4  # four lines of the summary, whole
    QTest.keyClick(dialog, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: w.font().pointSizeF() == normal)


def _node_text_on_screen(view) -> float:
    """How big a node's value line reads on screen, relative to its size at zoom 1 (the canvas's zoom times the
    enlargement nodes give their text a little zoomed out)."""
    from gui.canvas.node_item import text_scale

    lod = view.zoom_level()
    return text_scale(lod) * lod


def test_presentation_mode_enlarges_the_nodes_text_with_the_lessons_and_leaving_puts_it_back(qtbot, window):
    from PySide6.QtGui import QAction

    w = active(qtbot, window, (1920, 1080))
    w.lessons.menu.aboutToShow.emit()  # File ▸ Examples, filled as it opens: the largest lesson, opened whole
    w.findChild(QAction, "example_10-diagnosing").trigger()
    qtbot.waitUntil(lambda: w.lessons.dock.isVisible() and w.view.following_document
                    and any(i.title == "loss_inplace" for i in w.scene.node_items.values()))
    normal = _node_text_on_screen(w.view)
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: bool(w.windowState() & Qt.WindowFullScreen))
    qtbot.waitUntil(lambda: _node_text_on_screen(w.view) >= 1.4 * normal)
    item = next(iter(w.scene.node_items.values()))
    item.painted_preview = False
    w.view.viewport().update()
    qtbot.waitUntil(lambda: item.painted_preview)  # the values are drawn, not the zoomed-out boxes
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: not w.windowState() & Qt.WindowFullScreen)
    qtbot.waitUntil(lambda: abs(_node_text_on_screen(w.view) - normal) < 1e-6)
    # zoomed by hand first (the document no longer framed): presenting zooms about the centre, leaving zooms back
    w.view.setFocus()
    QTest.keyClick(w.view, Qt.Key_Minus)
    qtbot.waitUntil(lambda: not w.view.following_document)
    zoomed = w.view.zoom_level()
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: abs(w.view.zoom_level() - 1.5 * zoomed) < 1e-6)
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: abs(w.view.zoom_level() - zoomed) < 1e-6)


def test_presenting_a_small_lesson_that_fills_the_canvas_shows_it_whole_with_its_margin(qtbot, window):
    """Lesson 4 fits whole, readable, in the canvas while presenting (at 1920x1080 at about 1.1, here at 1800x1000 a
    little less): it was magnified to 1.125 there, its margin cut. The framing fits the whole graph, with the
    margin, while presenting too, as big as the canvas allows."""
    from PySide6.QtGui import QAction

    from gui.canvas.view import DOCUMENT_MARGIN, READABLE_ZOOM

    w = active(qtbot, window, (1800, 1000))
    w.lessons.menu.aboutToShow.emit()  # File ▸ Examples, filled as it opens
    w.findChild(QAction, "example_04-autograd-graph").trigger()
    qtbot.waitUntil(lambda: w.lessons.dock.isVisible() and w.view.following_document
                    and {i.title for i in w.scene.node_items.values()} == {"x", "w", "b", "xw", "s", "z"})

    def whole_with_margin():
        from PySide6.QtCore import QRectF

        nodes = QRectF()
        for item in w.scene.node_items.values():
            nodes = nodes.united(item.sceneBoundingRect())
        room = DOCUMENT_MARGIN - 1
        shown = w.view.mapFromScene(nodes.adjusted(-room, -room, room, room)).boundingRect()
        return w.view.viewport().rect().contains(shown)

    qtbot.waitUntil(whole_with_margin)
    normal, width = w.view.zoom_level(), w.view.viewport().width()
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: bool(w.windowState() & Qt.WindowFullScreen) and w.view.magnification > 1)
    qtbot.waitUntil(lambda: whole_with_margin() and w.view.zoom_level() >= READABLE_ZOOM)
    assert w.view.zoom_level() >= 0.99 * normal * min(1.0, w.view.viewport().width() / width)  # not shrunk
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: not w.windowState() & Qt.WindowFullScreen)
    qtbot.waitUntil(lambda: w.view.magnification == 1.0 and whole_with_margin())
