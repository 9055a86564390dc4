"""The main window: layout, menus, default graph on the canvas, title, screenshot from the command line."""


from PySide6.QtWidgets import QDockWidget, QGraphicsView, QToolBar

from core.nodegraph.lessons.texts import EXAMPLES_DIR


def test_window_has_canvas_docks_menus_toolbar_and_status_bar(window):
    assert isinstance(window.centralWidget(), QGraphicsView)
    assert window.centralWidget().objectName() == "graphView"
    docks = {d.objectName() for d in window.findChildren(QDockWidget)}
    assert {"libraryDock", "inspectorDock", "historyDock"} <= docks
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles[:5] == ["File", "Edit", "Run", "View", "Help"]
    assert window.findChild(QToolBar, "runToolbar") is not None
    assert window.statusBar().objectName() == "statusBar"


def test_every_action_has_an_object_name(window):
    names = [a.objectName() for a in window.named_actions.values()]
    assert all(n.startswith("action_") for n in names) and len(set(names)) == len(names)


def test_default_graph_is_drawn_with_six_nodes_and_five_edges(window):
    assert len(window.scene.node_items) == 6 and len(window.scene.edge_items) == 5
    titles = {item.title for item in window.scene.node_items.values()}
    assert {"x", "w", "b", "z"} <= titles


def test_title_names_the_file_and_marks_changes(window):
    assert window.windowTitle().startswith("untitled — ")
    window.scene.add_node("math.mul", (0, 0))
    assert window.windowTitle().startswith("untitled* — ")
    window.undo_stack.undo()
    assert "*" not in window.windowTitle()


def test_history_action_shows_the_undo_view(window, qtbot):
    assert not window.history_dock.isVisible()
    window.show()
    window.named_actions["history"].trigger()
    assert window.history_dock.isVisible()


def test_screenshot_option_writes_a_png(tmp_path, node_types):
    import app

    out = tmp_path / "shot.png"
    assert app.main(["--screenshot", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_window_shows_the_default_graph(qtbot, node_types):
    """The window opens on the default graph (how fast is benchmarks/bench_gui_canvas.py's concern, not a test's)."""
    from core.nodegraph.files.examples import default_graph
    from gui.main_window import MainWindow

    graph = default_graph()
    w = MainWindow(graph)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    assert w.isVisible() and len(w.scene.node_items) == len(graph.nodes)


def test_screenshot_after_backward_and_training_writes_pngs(tmp_path, node_types):
    import app

    out = tmp_path / "b.png"
    assert app.main(["--screenshot", str(out), "--forward", "--backward"]) == 0 and out.stat().st_size > 1000
    trained = tmp_path / "t.png"
    assert app.main([str(EXAMPLES_DIR / "06-training-step.json"), "--screenshot", str(trained), "--train", "3"]) == 0
    assert trained.stat().st_size > 1000


def test_screenshot_of_a_bad_file_fails_with_a_nonzero_exit(tmp_path, node_types, dialogs):
    import app

    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    assert app.main([str(bad), "--screenshot", str(tmp_path / "x.png")]) == 1
    assert dialogs and dialogs[-1][0] == "warning"
