"""A newcomer's first hour, a fifth pass: what they misread or missed by hand, driven as they drove it (real
clicks, keys and pointer moves on the real widgets of a shown window)."""

from PySide6.QtWidgets import QComboBox, QScrollArea

from tests.gui.real_input import choose_in_combo, click_node, shown


def _visible_combo(w, name: str) -> QComboBox | None:
    return next((c for c in w.inspector.findChildren(QComboBox, name) if c.isVisible()), None)


def test_a_sources_dtype_box_says_which_dtype_default_is(window, qtbot):
    """Selecting x (a literal) shows its dtype box reading ``default (float32; ints: int64)``, whole, with
    the dtype from core's get_default_dtype(); choosing float64 and then that entry again with the keyboard stores
    the bare choices the file keeps, and x's value follows."""
    import core

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    spec_dtype = next(p for p in w.graph.nodes["n1"].spec.params if p.name == "dtype")  # what core.nodegraph offers
    default = spec_dtype.choice_text("default")
    assert default == f"default ({str(core.get_default_dtype()).removeprefix('torch.')}; ints: int64)"
    qtbot.waitUntil(lambda: _visible_combo(w, "param_dtype") is not None)
    box = _visible_combo(w, "param_dtype")
    assert box.currentText() == default
    assert box.width() >= box.sizeHint().width()  # the note is read whole, not cut off
    scroll = w.findChild(QScrollArea, "inspectorDockScroll")
    assert not scroll.horizontalScrollBar().isVisible()  # nor does it push the Inspector wider than its dock
    choose_in_combo(qtbot, box, "float64")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["dtype"] == "float64")
    choose_in_combo(qtbot, _visible_combo(w, "param_dtype"), default)
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["dtype"] == "default")
    w.undo_stack.setClean()


def test_a_factory_added_from_the_library_says_default_is_float32(window, qtbot):
    """A randn node added with a double-click in the Node library offers ``default (float32)`` (core's default
    dtype, no integer case: a factory always makes it), and after Forward all the Inspector's value line names the
    same dtype."""
    import core
    from tests.gui.real_input import click_toolbar, double_click_library

    w = shown(qtbot, window)
    node_id = double_click_library(qtbot, w, "source.randn")
    click_node(qtbot, w, node_id)
    qtbot.waitUntil(lambda: _visible_combo(w, "param_dtype") is not None)
    dtype = str(core.get_default_dtype()).removeprefix("torch.")
    assert _visible_combo(w, "param_dtype").currentText() == f"default ({dtype})"
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: node_id in w.bridge.session.values)
    assert str(w.bridge.session.value(node_id).dtype) == f"torch.{dtype}"
    qtbot.waitUntil(lambda: f" {dtype} cpu" in w.inspector.value_view.toPlainText())
    w.undo_stack.setClean()
