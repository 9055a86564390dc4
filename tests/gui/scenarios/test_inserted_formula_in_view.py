"""Scenario: a formula typed into Edit ▸ Insert expression lands where the user can see all of it."""

from PySide6.QtWidgets import QInputDialog

from tests.gui.scenarios import driver as d


def test_an_inserted_formula_is_wholly_on_the_canvas_without_fit_all(qtbot, app_window):
    w = app_window
    d.click_menu(qtbot, w, "File", "New")
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 0)
    answered = d.answer_dialog(qtbot, QInputDialog, d.type_in_dialog("(x * w).sum() + b"))
    d.click_menu(qtbot, w, "Edit", "Insert expression")
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 6)
    assert answered == ["QInputDialog"]
    for node_id in w.graph.nodes:
        d.drawn_values(w, node_id)  # wholly inside the canvas, drawn at a readable size
