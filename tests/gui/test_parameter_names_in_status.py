"""The status bar names a Parameter node's tensor by the node's title, as the canvas and the plots do: lesson 8's
Optimizer step read 'w.w, w2.w2 ... updated' (the title, then the tensor's name: the same word)."""

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui.main_window import MainWindow
from tests.gui.real_input import click, shown, toolbar_button


def test_optimizer_step_names_lesson_8s_parameters_by_their_titles(qtbot, node_types, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)
    w = MainWindow(files.load(EXAMPLES_DIR / "08-gradient-flow.json"))
    qtbot.addWidget(w)
    shown(qtbot, w)
    params = [n for n in w.graph.nodes.values() if n.type == "param.parameter"]
    assert params and all(n.params["name"] == n.title for n in params)  # each tensor named as its node
    for name in ("forward", "backward", "optimizer_step"):
        click(toolbar_button(w, name))
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Optimizer step (lr "))
    text = w.status_label.text()
    updated = text.split("): ", 1)[1].removesuffix(" updated").split(", ")
    assert updated and set(updated) <= {n.title for n in params}, text
    w.undo_stack.setClean()
