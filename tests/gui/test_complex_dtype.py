"""Complex dtypes in a source's dtype box: chosen by hand for x and w of the chapter's graph, Forward all shows
complex values on the canvas and in the Inspector, and Backward all puts torch's refusal (backward needs a real
scalar output) on z, the complex loss."""

from PySide6.QtWidgets import QComboBox

from tests.gui.real_input import choose_in_combo, click_node, click_toolbar, shown


def _dtype_box(w) -> QComboBox | None:
    return next((c for c in w.inspector.findChildren(QComboBox, "param_dtype") if c.isVisible()), None)


def test_complex_x_and_w_step_forward_and_backward_of_a_complex_z_is_refused_on_z(window, qtbot):
    w = shown(qtbot, window)
    for nid in ("n1", "n2"):  # x and w
        click_node(qtbot, w, nid)
        qtbot.waitUntil(lambda: _dtype_box(w) is not None)
        choose_in_combo(qtbot, _dtype_box(w), "complex64")
        qtbot.waitUntil(lambda nid=nid: w.graph.nodes[nid].params["dtype"] == "complex64")
    click_toolbar(w, "forward")
    session = w.bridge.session
    qtbot.waitUntil(lambda: "n6" in session.values)
    assert session.value("n6").is_complex() and session.errors == {}
    x = w.scene.node_items["n1"]
    qtbot.waitUntil(lambda: "j" in x.display.value)  # printed as torch prints it: [2.+0.j, 3.+0.j]
    assert x.display.value.startswith("[2.+0.j")
    click_node(qtbot, w, "n1")
    qtbot.waitUntil(lambda: "complex64" in w.inspector.value_view.toPlainText())
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: "n6" in session.errors)
    assert "real scalar outputs" in session.errors["n6"].message
    qtbot.waitUntil(lambda: "real scalar outputs" in w.scene.node_items["n6"].display.error)
    assert session.value("n1").grad is None
    w.undo_stack.setClean()
