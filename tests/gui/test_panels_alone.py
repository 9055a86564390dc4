"""Every panel is built alone, without the main window, from what it takes in its constructor (a document, a
session bridge, an undo stack, a trainer), and one real click or key on it changes the model or the bridge or
says what the user picked."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QUndoView

from core.nodegraph.model.commands import SetParam
from core.nodegraph.model.document import Edge, Graph, Node
from tests.gui.real_input import choose_in_combo, click, click_checkbox, click_link, double_click, type_text


@pytest.fixture
def doc(qtbot, node_types):
    """The chapter's z = (x*w).sum() + b with its undo stack, canvas scene and session bridge (no window)."""
    from core.nodegraph.files.examples import default_graph
    from gui.canvas.scene import GraphScene
    from gui.session_bridge import SessionBridge

    graph = default_graph()
    stack = QUndoStack()
    scene = GraphScene(graph, stack)
    bridge = SessionBridge(graph)
    yield graph, stack, scene, bridge
    bridge.close()


def alone(qtbot, widget):
    """``widget`` shown as a top-level window of its own, on screen."""
    qtbot.addWidget(widget)
    widget.resize(max(widget.sizeHint().width(), 400), max(widget.sizeHint().height(), 300))
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_the_inspector_alone_edits_a_parameter_by_typing(qtbot, doc):
    from gui.inspector import Inspector

    graph, _stack, scene, _bridge = doc
    inspector = alone(qtbot, Inspector(scene.edit))
    inspector.set_context(graph, None)
    inspector.show_node("n1")
    qtbot.waitUntil(inspector.editors["tensor"].isVisible)
    type_text(qtbot, inspector.editors["tensor"], "[4.0, 5.0]")
    qtbot.waitUntil(lambda: graph.node("n1").params["tensor"] == [4.0, 5.0])


def test_the_training_controls_alone_set_the_optimizer_from_the_train_dock(qtbot, doc):
    from gui.training.controls import TrainingControls

    graph, _stack, scene, bridge = doc
    training = TrainingControls(bridge, scene)
    alone(qtbot, training.docks["train"])
    panel = training.panel
    qtbot.waitUntil(panel.optimizer.isVisible)
    choose_in_combo(qtbot, panel.optimizer, "Adam")
    qtbot.waitUntil(lambda: graph.training["optimizer"] == "Adam")
    training.close()


def test_the_train_panels_step_button_alone_trains_one_step_through_the_bridge(qtbot, node_types):
    from core.nodegraph.files.toy import classifier_graph
    from gui.session_bridge import SessionBridge
    from gui.training.train_panel import TrainPanel
    from gui.training.trainer import Trainer
    from gui.undo import push

    graph = classifier_graph("moons", steps=5)
    bridge = SessionBridge(graph)
    trainer = Trainer(bridge)
    stack = QUndoStack()
    panel = alone(qtbot, TrainPanel(trainer, lambda command: push(stack, graph, command)))
    click(panel.buttons["Step"])
    qtbot.waitUntil(lambda: bridge.session is not None and len(trainer.history.current) == 1)
    assert trainer.history.current.last("loss") is not None
    bridge.close()


def test_the_watch_panel_alone_unpins_a_port_with_its_remove_button(qtbot, doc):
    from gui.watch_panel import WatchPanel

    _graph, _stack, _scene, bridge = doc
    panel = alone(qtbot, WatchPanel(bridge))
    assert panel.pin("n6.out") is None and panel.watch.keys == ["n6.out"]
    panel.refresh()
    click(panel.remove_button("n6.out"))
    qtbot.waitUntil(lambda: panel.watch.keys == [])


def test_the_lesson_panel_alone_asks_for_a_links_action(qtbot, node_types):
    from core.nodegraph.lessons.texts import list_lessons
    from gui.lesson_panel import LessonPanel

    panel = alone(qtbot, LessonPanel())
    lesson = next(x for x in list_lessons() if x.key == "04-autograd-graph")
    panel.show_lesson(lesson)
    with qtbot.waitSignal(panel.action_requested) as asked:
        click_link(qtbot, panel.browser, "action:forward")
    assert asked.args[0].name == "forward"


def test_the_node_library_alone_offers_a_type_by_double_click(qtbot, node_types):
    from gui.node_library import NodeLibrary

    tree = alone(qtbot, NodeLibrary())
    item = next(i for i in tree.type_items() if i.data(0, Qt.UserRole) == "math.add")
    item.parent().setExpanded(True)
    tree.scrollToItem(item)
    qtbot.waitUntil(lambda: tree.viewport().rect().contains(tree.visualItemRect(item)))
    with qtbot.waitSignal(tree.activated_type) as chosen:
        double_click(tree.viewport(), tree.visualItemRect(item).center())
    assert chosen.args == ["math.add"]


def test_the_palette_alone_chooses_the_typed_type_on_return(qtbot, node_types):
    from gui.palette import NodePalette

    palette = NodePalette()
    qtbot.addWidget(palette)
    palette.open_at(QPoint(100, 100))
    qtbot.waitUntil(palette.search_edit.isVisible)
    QTest.keyClicks(palette.search_edit, "matmul")
    with qtbot.waitSignal(palette.chosen) as chosen:
        QTest.keyClick(palette.search_edit, Qt.Key_Return)
    assert chosen.args == ["linalg.matmul"]


def test_the_diagnostics_panel_alone_names_the_node_of_a_clicked_hint(qtbot, node_types):
    from gui.diagnostics_panel import DiagnosticsPanel
    from gui.session_bridge import SessionBridge

    g = Graph()
    g.add_node(Node("pred", "source.randn", {"shape": [32, 1], "seed": 1}))
    g.add_node(Node("y", "source.randn", {"shape": [32], "seed": 2}, (0.0, 150.0)))
    g.add_node(Node("loss", "loss.mse", {}, (250.0, 50.0)))
    g.connect(Edge("pred", "out", "loss", "input"))
    g.connect(Edge("y", "out", "loss", "target"))
    g.set_training("loss", "loss")
    bridge = SessionBridge(g)
    panel = alone(qtbot, DiagnosticsPanel(bridge))
    bridge.run("forward")
    hints = panel.refresh(force=True)
    row = next(i for i, h in enumerate(hints) if h.rule == "silent_broadcast")
    tree = panel.tree
    with qtbot.waitSignal(panel.node_selected) as chosen:
        click(tree.viewport(), tree.visualItemRect(tree.topLevelItem(row)).center())
    assert chosen.args == ["loss"]
    bridge.close()


def test_the_autograd_view_alone_names_the_graph_node_of_a_clicked_box(qtbot, doc):
    from gui.autograd_view import AutogradView

    _graph, _stack, _scene, bridge = doc
    view = alone(qtbot, AutogradView(bridge))
    bridge.stepped.connect(view.on_event)
    bridge.run("forward")
    qtbot.waitUntil(lambda: "MulBackward0" in view.names())
    box = next(b for b in view.boxes if b.name == "MulBackward0")
    gv = view.graph_view
    with qtbot.waitSignal(view.node_selected) as chosen:
        click(gv.viewport(), gv.mapFromScene(box.sceneBoundingRect().center()))
    assert chosen.args == ["n4"]


def test_the_plots_alone_switch_the_loss_axis_to_log_by_click(qtbot, doc):
    from gui.plots.loss_plot import LossPlot
    from gui.training.trainer import Trainer

    _graph, _stack, _scene, bridge = doc
    trainer = Trainer(bridge)
    plot = alone(qtbot, LossPlot(trainer.history))
    trainer.step()
    click_checkbox(plot.log_box)
    qtbot.waitUntil(lambda: plot.plots["loss"].getViewBox().state["logMode"][1])


def test_the_data_view_alone_shows_the_dataset_of_the_bridges_session(qtbot, node_types):
    from core.nodegraph.files.toy import classifier_graph
    from gui.data_view import DataView
    from gui.session_bridge import SessionBridge

    bridge = SessionBridge(classifier_graph("moons", steps=5))
    view = alone(qtbot, DataView(bridge))
    bridge.run("forward")
    view.refresh(force=True)
    qtbot.waitUntil(lambda: view.caption.text().startswith("300 points, 2 classes"))
    bridge.close()


def test_the_code_pane_alone_names_the_nodes_of_a_clicked_line(qtbot):
    from gui.code_pane import CodePane

    pane = alone(qtbot, CodePane())
    pane.set_code({"text": "x = torch.ones(2)\ny = x * 2\n", "lines": {"x": 1, "y": 2}})
    editor = pane.editor
    block = editor.document().findBlockByNumber(1)
    at = editor.blockBoundingGeometry(block).translated(editor.contentOffset()).center().toPoint()
    with qtbot.waitSignal(pane.line_clicked) as clicked:
        click(editor.viewport(), at)
    assert clicked.args == [2] and pane.nodes_on(2) == ["y"]


def test_the_history_view_alone_undoes_an_edit_by_clicking_the_start(qtbot, doc):
    graph, stack, scene, _bridge = doc
    view = alone(qtbot, QUndoView(stack))
    scene.edit(SetParam("n3", "tensor", 0.5))
    assert graph.node("n3").params["tensor"] == 0.5
    first = view.model().index(0, 0)  # "<empty>": the document before any edit
    click(view.viewport(), view.visualRect(first).center())
    qtbot.waitUntil(lambda: graph.node("n3").params["tensor"] == 0.1)
