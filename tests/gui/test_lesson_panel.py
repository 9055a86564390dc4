"""The Lesson dock and File ▸ Examples: lessons open from the menu, their links step the session."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt

from core.nodegraph.files.examples import default_graph
from core.nodegraph.lessons.texts import list_lessons
from gui.lesson_panel import display_markdown
from gui.main_window import MainWindow


@pytest.fixture
def window(qtbot):
    w = MainWindow(default_graph())
    qtbot.addWidget(w)
    yield w
    w.undo_stack.setClean()


def _lesson(key):
    return next(lesson for lesson in list_lessons() if lesson.key == key)


def test_the_examples_menu_lists_every_lesson_in_reading_order(window):
    window.lessons.fill_menu()
    titles = [a.text().replace("&", "") for a in window.lessons.menu.actions()]
    assert titles == [lesson.title for lesson in list_lessons()]
    assert titles[3].startswith("4. The autograd graph")


def test_opening_a_lesson_loads_its_graph_and_shows_its_text(window):
    assert window.lessons.open(_lesson("03-views"))
    assert [n.title for n in window.graph.nodes.values()][:3] == ["r", "a", "b"]
    assert not window.lessons.dock.isHidden()
    assert "view(12) fails" in window.lessons.panel.browser.toPlainText()


def test_action_links_step_the_session_and_node_links_select_the_node(window):
    window.lessons.open(_lesson("04-autograd-graph"))
    panel = window.lessons.panel
    panel.follow("action:forward")
    assert window.bridge.session.value("n6").item() == pytest.approx(1.6)
    panel.follow("action:backward")
    assert window.bridge.session.grad("n1").tolist() == pytest.approx([1.5, -0.5])
    panel.follow("node:n2")
    assert window.scene.selected_node_ids() == ["n2"]


def test_the_retain_graph_link_toggles_the_window_action_so_a_second_backward_accumulates(window):
    window.lessons.open(_lesson("05-three-rules"))
    panel = window.lessons.panel
    panel.follow("action:retain_graph?value=true")
    assert window.named_actions["retain_graph"].isChecked()
    panel.follow("action:backward")
    panel.follow("action:backward")
    assert window.bridge.session.grad("n1").tolist() == pytest.approx([3.0, -1.0])


def test_a_set_loss_link_is_an_undoable_edit(window):
    window.lessons.open(_lesson("09-higher-order"))
    window.lessons.panel.follow("action:set_loss?node=outer_loss")
    assert window.graph.training["loss"] == "n15"
    window.undo_stack.undo()
    assert window.graph.training["loss"] == "n6"


def test_steps_blocks_are_shown_as_a_checklist_of_what_to_expect_in_plain_language():
    shown = display_markdown("## s\ntext\n```steps\ndo: forward\nexpect: z = 1.6\nexpect: x.is_leaf = true\n```\n")
    assert "```" not in shown and "do: forward" not in shown and "expect:" not in shown
    assert "☐ z is 1.6000  \n☐ x is a leaf\n" in shown


def test_the_first_start_shows_lesson_four_once(window, tmp_path):
    from PySide6.QtCore import QSettings

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    assert window.lessons.first_start(settings)
    assert window.lessons.panel.lesson.key == "04-autograd-graph"
    assert not window.lessons.dock.isHidden()
    assert not window.lessons.first_start(settings)


def test_opening_an_example_file_directly_shows_its_lesson(window):
    assert window.open_path(str(_lesson("07-gradcheck").file))
    assert window.lessons.panel.lesson.key == "07-gradcheck"
    assert not window.lessons.dock.isHidden()


def test_page_down_does_the_lessons_next_step_once(window):
    window.lessons.open(_lesson("04-autograd-graph"))
    window.lessons.next_step()
    assert window.lessons.panel.step_index == 0
    assert window.bridge.session.value("n6").item() == pytest.approx(1.6)
    window.lessons.next_step()
    assert window.bridge.session.grad("n3") is None and window.bridge.session.backward_in_progress
    window.lessons.previous_step()
    assert window.lessons.panel.step_index == 0
    window.lessons.next_step()  # step 1 again: shown, not done twice
    assert window.lessons.panel.step_index == 1
    assert window.bridge.session.grad("n3") is None


def test_presentation_mode_goes_full_screen_with_larger_fonts_and_back(window):
    size = window.font().pointSizeF()
    window.lessons.presentation.setChecked(True)
    assert window.windowState() & Qt.WindowFullScreen and window.font().pointSizeF() == pytest.approx(size * 1.5)
    assert not window.lessons.dock.isHidden()
    window.lessons.presentation.setChecked(False)
    assert not window.windowState() & Qt.WindowFullScreen and window.font().pointSizeF() == pytest.approx(size)
