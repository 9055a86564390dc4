"""Backward all twice without Retain graph: the Diagnostics hint names the toolbar's Retain graph toggle (it said
'pass retain_graph=True', an argument a user of the app has nowhere to pass), and following it works."""

from tests.gui.real_input import click, click_toolbar, show_dock, shown


def test_the_second_backwards_hint_names_retain_graph_and_switching_it_on_lets_backward_run_twice(window, qtbot):
    w = shown(qtbot, window)
    z = w.scene.node_items["n6"]
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: z.display.value != "")
    for _ in range(2):
        click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: "n6" in w.bridge.session.errors and "second time" in w.bridge.session.errors["n6"].message)
    panel = w.training.diagnostics
    show_dock(qtbot, w, w.training.docks["diagnostics"])
    panel.refresh(force=True)
    qtbot.waitUntil(lambda: panel.tree.topLevelItemCount() > 0)
    tree = panel.tree
    row = next(tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == "error")
    click(tree.viewport(), tree.visualItemRect(row).center())
    qtbot.waitUntil(lambda: "switch on Retain graph" in panel.detail.text())
    assert panel.detail.isVisible() and "backward ran a second time" in panel.detail.text()
    click_toolbar(w, "retain_graph")  # as the hint says
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    click_toolbar(w, "forward")
    x = w.scene.node_items["n1"]
    for note in ("", "sum of 2 backward calls"):
        click_toolbar(w, "backward")
        qtbot.waitUntil(lambda note=note: x.display.grad != "" and x.display.grad_note == note)
    assert "n6" not in w.bridge.session.errors
