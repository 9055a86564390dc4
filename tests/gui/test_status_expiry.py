"""No stale status message: a refusal that changed nothing ("Can't open damaged.json: ...") went on standing over
every later click that said nothing; it goes after a while unless another message took its place. An error message
goes once the session no longer has the error. Step descriptions, which a learner reads beside the lesson, stay."""

from PySide6.QtCore import Qt

from tests.gui.real_input import click_node, click_toolbar, press, shown


def test_a_refused_file_message_goes_after_a_while_and_a_step_message_stays(qtbot, window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    w = shown(qtbot, window)
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"format": "nodegrad", "version": 4, "nodes": [{"id": ')
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(damaged), "Nodegrad graphs (*.json)"))
    timer = w.status_expiry.timer
    timer.setInterval(300)  # (12 s in the app)
    press(w, Qt.Key_O, Qt.ControlModifier)  # File ▸ Open…
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Can't open damaged.json"))
    assert w.graph.nodes and w.path is None  # the document stays
    click_node(qtbot, w, next(nid for nid, n in w.graph.nodes.items() if n.title == "x"))  # says nothing
    qtbot.waitUntil(lambda: w.status_label.text() == "")
    assert not w.status_details.isVisible()

    press(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Can't open damaged.json"))
    click_toolbar(w, "forward_step")  # another message takes its place before the refusal's time is up
    qtbot.waitUntil(lambda: not w.status_label.text().startswith("Can't open"))
    assert w.status_label.text() != "" and not timer.isActive()  # the step's description stays


def test_an_error_message_goes_once_the_session_has_no_error(qtbot):
    """``StatusExpiry`` alone, on a status line: the refresh after a pass that ran through clears the error."""
    from gui.status_expiry import StatusExpiry
    from gui.training.status_line import StatusLine

    line, errors = StatusLine(), {"z": "RuntimeError"}
    qtbot.addWidget(line)
    expiry = StatusExpiry(line, lambda: line.setText(""), lambda: bool(errors))
    line.setText("Error at z: RuntimeError: Trying to backward through the graph a second time")
    expiry.said(line.text())
    expiry.recheck()  # the session still has the error: the message stays
    assert line.text().startswith("Error at z")
    errors.clear()
    expiry.recheck()
    assert line.text() == ""
    line.setText("MulBackward0: sent grad [2., 3.] to w")  # a step's description is no error message
    expiry.recheck()
    assert line.text() == "MulBackward0: sent grad [2., 3.] to w"


def test_details_hides_while_a_buttons_hover_tip_covers_the_error_and_comes_back_after(qtbot, window):
    from PySide6.QtTest import QTest

    from tests.gui.real_input import toolbar_button

    w = shown(qtbot, window)
    z = w.scene.node_items["n6"]
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: z.display.value != "")
    for _ in range(2):
        click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Error at z") and w.status_details.isVisible())
    QTest.mouseMove(w.view.viewport())
    QTest.mouseMove(toolbar_button(w, "fit_all"))  # its hover tip stands over the error
    qtbot.waitUntil(lambda: w.statusBar().currentMessage() == "Zoom to show every node")
    assert not w.status_details.isVisible(), "Details… stayed beside the hover tip (and would open the error)"
    QTest.mouseMove(w.view.viewport())  # the pointer leaves: the error and its Details… come back
    qtbot.waitUntil(lambda: w.statusBar().currentMessage() == "")
    qtbot.waitUntil(w.status_details.isVisible)
