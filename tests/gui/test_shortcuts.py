"""Every shortcut does one thing: no two actions of the window share a key (Qt ignores an ambiguous one, so
F5 bound to Forward all and Train did nothing), and the Run keys work when pressed on the window."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from core.nodegraph.files.toy import classifier_graph
from tests.gui.real_input import press, shown


def _bindings(window) -> dict:
    keys: dict = {}
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            if not seq.isEmpty():
                keys.setdefault(seq.toString(), []).append(action.objectName() or action.text())
    return keys


def test_no_two_actions_share_a_shortcut(window):
    shared = {key: names for key, names in _bindings(window).items() if len(names) > 1}
    assert shared == {}


def test_forward_all_and_train_have_their_own_keys(window):
    keys = _bindings(window)
    assert keys["F5"] == ["action_forward"]
    assert keys["Ctrl+T"] == ["action_train"]


def test_pressing_f5_runs_forward_all(window, qtbot):
    w = shown(qtbot, window)
    press(w, Qt.Key_F5)
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete)
    assert w.scene.node_items["n6"].display.value == "1.6000"


def test_pressing_ctrl_t_trains_and_f6_pauses(qtbot, node_types):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=100_000))
    qtbot.addWidget(w)
    shown(qtbot, w)
    press(w, Qt.Key_T, Qt.ControlModifier)
    trainer = w.training.trainer
    qtbot.waitUntil(lambda: trainer.state == "training" and trainer.done > 0)
    press(w, Qt.Key_F6)
    qtbot.waitUntil(lambda: trainer.state == "paused")
    w.undo_stack.setClean()
