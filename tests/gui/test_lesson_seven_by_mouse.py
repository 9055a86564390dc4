"""Lesson 7 by mouse, as a learner does it: Forward all from the lesson's link ticks its checks, the check node's
Inspector shows the function the text names (the text wrote `lambda inp: (inp ** 3).sum()`, the Inspector's formula
field `(x ** 3).sum()`: the text now says so), and its Try this works as written: eps typed as 0.01 gives a
max_error of 1e-4, and the wrong formula typed as `(x * x * x).sum()` passes."""

import math

from PySide6.QtWidgets import QApplication

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from tests.gui.real_input import click_link, click_node, open_lesson_by_mouse, show_dock, shown, type_text

CHECK, CHECK_WRONG = "n2", "n3"


def _outputs(w, nid):
    return w.bridge.session.value(nid)


def test_lesson_seven_by_mouse_shows_the_formula_its_text_names_and_its_try_this_works(qtbot, window):
    w = shown(qtbot, window)
    open_lesson_by_mouse(qtbot, w, "7.")
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith("07-gradcheck.json"), timeout=60_000)
    w.activateWindow()  # as the window manager gives the keys back once the Lessons box is gone
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
    assert "the formula `(x ** 3).sum()`" in (EXAMPLES_DIR / "07-gradcheck.md").read_text()
    click_link(qtbot, w.lessons.panel.browser, "action:forward")
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete, timeout=60_000)
    assert bool(_outputs(w, CHECK)["passed"]) and not bool(_outputs(w, CHECK_WRONG)["passed"])

    show_dock(qtbot, w, w.inspector_dock)
    click_node(qtbot, w, CHECK)
    qtbot.waitUntil(lambda: w.inspector.node_id == CHECK, timeout=60_000)
    assert w.inspector.editors["formula"].text() == "(x ** 3).sum()"
    qtbot.waitUntil(lambda: w.inspector.editors["eps"].isVisible(), timeout=60_000)
    type_text(qtbot, w.inspector.editors["eps"], "0.01")  # Try this: eps 0.01
    qtbot.waitUntil(lambda: w.graph.nodes[CHECK].params["eps"] == 0.01, timeout=60_000)
    qtbot.waitUntil(lambda: CHECK in w.bridge.session.values, timeout=60_000)
    out = _outputs(w, CHECK)
    assert bool(out["passed"]) and math.isclose(float(out["max_error"]), 1e-4, rel_tol=1e-3)  # eps ** 2

    click_node(qtbot, w, CHECK_WRONG)
    qtbot.waitUntil(lambda: w.inspector.node_id == CHECK_WRONG, timeout=60_000)
    qtbot.waitUntil(lambda: w.inspector.editors["formula"].isVisible(), timeout=60_000)
    type_text(qtbot, w.inspector.editors["formula"], "(x * x * x).sum()")
    qtbot.waitUntil(lambda: w.graph.nodes[CHECK_WRONG].params["formula"] == "(x * x * x).sum()", timeout=60_000)
    qtbot.waitUntil(lambda: CHECK_WRONG in w.bridge.session.values, timeout=60_000)
    assert bool(_outputs(w, CHECK_WRONG)["passed"])
    w.undo_stack.setClean()
