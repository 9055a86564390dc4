"""The first hour, by hand, a twelfth time: what a newcomer met under a real virtual screen (1366x768 and
1920x1080) opening files by File ▸ Open, each driven here through the real window's keys."""

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.io import dumps
from tests.gui.real_input import shown


def _open_by_keyboard(qtbot, w, monkeypatch, path) -> None:
    """File ▸ Open… with Ctrl+O, the file dialog answering ``path``."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)


def test_a_file_with_a_node_of_a_newer_type_says_so_when_it_opens(window, qtbot, monkeypatch, tmp_path):
    """A file from a newer Nodegrad whose node x has a type this one lacks opened with just 'Opened
    newer.json' in the status bar and x drawn as any node; only a step said, later, that it could not run."""
    w = shown(qtbot, window)
    data = json.loads(dumps(default_graph()))
    node = next(n for n in data["nodes"] if n["title"] == "x")
    node["type"] = "source.quantum"
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(data))
    _open_by_keyboard(qtbot, w, monkeypatch, path)
    qtbot.waitUntil(lambda: w.path == str(path))
    text = w.status_label.text()
    assert text.startswith("Opened newer.json: node x has a type this version of Nodegrad doesn't know")
    assert "(source.quantum)" in text and "placeholder" in text
    assert w.graph.node(node["id"]).type == "source.quantum"  # kept, with its data, to be saved back


def test_a_file_of_known_types_just_says_it_opened(window, qtbot, monkeypatch, tmp_path):
    w = shown(qtbot, window)
    path = tmp_path / "mine.json"
    path.write_text(dumps(default_graph()))
    _open_by_keyboard(qtbot, w, monkeypatch, path)
    qtbot.waitUntil(lambda: w.path == str(path))
    assert w.status_label.text() == "Opened mine.json"


def test_lesson_six_forgetting_zero_grad_flags_the_diverging_loss_as_its_text_says(window, qtbot):
    """Lesson 6 done as written, at 1366x768: Train 100 steps, Reset, then 'Train 20 steps without zero_grad' (the
    loop by the Run actions). The text promises hints on the model (grad accumulation) and on the loss (loss
    diverging); the loss's never came: the Diagnostics panel read the trend only from Train's runs."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from tests.gui.real_input import click_link, click_toolbar, show_dock

    w = shown(qtbot, window)
    assert w.open_path(str(EXAMPLES_DIR / "06-training-step.json"))
    show_dock(qtbot, w, w.lessons.dock)
    browser, trainer = w.lessons.panel.browser, w.training.trainer
    click_link(qtbot, browser, "action:train?n=100")
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 100, timeout=60_000)
    click_toolbar(w, "reset")
    click_link(qtbot, browser, "action:train?n=20&zero_grad=false")
    qtbot.waitUntil(lambda: "☑ the last loss is 30.91" in browser.toPlainText(), timeout=30_000)
    qtbot.waitUntil(lambda: "☑ a hint on loss: loss diverging" in browser.toPlainText(), timeout=10_000)
    assert "☑ a hint on model: grad accumulation" in browser.toPlainText()
    loss = w.graph.training["loss"]
    hints = w.training.diagnostics.hints
    assert any(h.rule == "loss_diverging" and h.node_id == loss and "11.16" in h.message for h in hints)


def test_presentation_mode_makes_the_status_bar_line_tall_enough_for_its_bigger_font(window, qtbot):
    """Ctrl+Shift+P at 1366x768 after a forward pass (lesson 10 said loss_flat there): the status bar's line kept the
    height of the normal font, so the bigger text lost its bottom ('Forward: loss flat = ...', no underscore)."""
    from tests.gui.test_window_fits import active

    w = active(qtbot, window, (1366, 768))
    QTest.keyClick(w, Qt.Key_F5)  # Forward all: the status bar names the last node
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Forward: "))
    line, details = w.status_label, w.status_details
    normal = line.fontMetrics().height()
    assert line.height() >= normal
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: line.fontMetrics().height() > normal)
    qtbot.waitUntil(lambda: line.height() >= line.fontMetrics().height())  # the whole text's height, descenders too
    assert details.height() == line.height()
    QTest.keyClick(w, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: line.fontMetrics().height() == normal and line.height() == normal + 2)


def test_opening_a_damaged_file_over_unsaved_changes_refuses_it_without_asking_to_save(
        window, qtbot, monkeypatch, tmp_path, dialogs):
    """Ctrl+O on a truncated file with an unsaved edit open: 'Save the changes to this graph first?' came before the
    file was read, so the learner answered a question for a file that then could not open."""
    from tests.gui.real_input import double_click_library

    w = shown(qtbot, window)
    double_click_library(qtbot, w, "math.exp")  # an unsaved edit
    before = w.graph.to_dict()
    bad = tmp_path / "truncated.json"
    bad.write_text(dumps(default_graph())[:200])
    _open_by_keyboard(qtbot, w, monkeypatch, bad)
    qtbot.waitUntil(lambda: any(kind == "warning" for kind, _ in dialogs))
    assert [kind for kind, _ in dialogs] == ["warning"]  # no question about saving first
    assert w.graph.to_dict() == before and w.is_modified()


def test_opening_a_good_file_over_unsaved_changes_still_asks_to_save_first(
        window, qtbot, monkeypatch, tmp_path, dialogs):
    from tests.gui.real_input import double_click_library

    w = shown(qtbot, window)
    double_click_library(qtbot, w, "math.exp")
    good = tmp_path / "good.json"
    good.write_text(dumps(default_graph()))
    _open_by_keyboard(qtbot, w, monkeypatch, good)
    qtbot.waitUntil(lambda: w.path == str(good))
    assert [kind for kind, _ in dialogs] == ["question"]  # answered Discard by the fixture
    assert not w.is_modified()


def test_opening_the_open_file_again_after_saving_its_changes_shows_what_was_saved(
        window, qtbot, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from tests.gui.real_input import double_click_library

    w = shown(qtbot, window)
    path = tmp_path / "mine.json"
    path.write_text(dumps(default_graph()))
    assert w.open_path(str(path))
    double_click_library(qtbot, w, "math.exp")  # an unsaved edit of mine.json
    edited = len(w.graph.nodes)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Save)
    _open_by_keyboard(qtbot, w, monkeypatch, path)  # mine.json again: Save writes the edit, then it opens
    qtbot.waitUntil(lambda: not w.is_modified())
    assert len(w.graph.nodes) == edited and json.loads(path.read_text())["nodes"][-1]["type"] == "math.exp"
