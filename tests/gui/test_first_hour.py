"""What a newcomer met in the first hour at 1366x768 and 1920x1080, under a window manager, driven by real
clicks and keys on the widgets where they are drawn."""

import pytest

from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from gui import file_ops
from tests.gui.real_input import click, click_toolbar, double_click_library, press, shown

SIZES = [(1366, 768), (1920, 1080)]


@pytest.mark.parametrize("size", SIZES)
def test_a_big_tensors_value_line_shows_its_dtype_and_device_whole(qtbot, empty_window, tmp_path, size):
    """Lesson 1 says y's box shows '(32, 64, 112, 112) float32'; the box showed '(32, 64, 112, 112) float…
    cpu': the device tag beside the line cut off the dtype, and the summary names the device already."""
    graph = Graph()
    add = commands.AddNode({"type": "source.randn", "params": {"shape": [32, 3, 224, 224]}, "position": [0.0, 0.0]})
    add.do(graph)
    path = str(tmp_path / "images.json")
    assert file_ops.save_graph(graph, path) is None
    w = shown(qtbot, empty_window, size)
    assert w.open_path(path)
    item = w.scene.node_items[add.node["id"]]

    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: item.display.value == "(32, 3, 224, 224) float32 cpu" and item.display.device == "cpu")
    w.view.viewport().update()
    qtbot.waitUntil(lambda: item.painted_value == item.display.value)  # drawn whole: no "…", no second "cpu"


def test_open_recent_lists_a_file_once_however_it_was_opened_and_names_the_folders_of_namesakes(
        qtbot, empty_window, tmp_path, monkeypatch):
    """``app.py examples/01-tensors.json`` and the same lesson from Help ▸ Lessons were two '01-tensors.json'
    entries (one relative to the directory the app started in); two files of one name were two entries alike."""
    from tests.gui.test_window_fits import choose_menu

    graph = Graph()
    commands.AddNode({"type": "source.tensor", "params": {}, "position": [0.0, 0.0]}).do(graph)
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        assert file_ops.save_graph(graph, str(tmp_path / folder / "g.json")) is None
    monkeypatch.chdir(tmp_path)
    w = shown(qtbot, empty_window)
    assert w.open_path(str(tmp_path / "b" / "g.json"))
    assert w.open_path("a/g.json")  # as on the command line
    assert w.open_path(str(tmp_path / "a" / "g.json"))  # as from a menu
    assert file_ops.recent_files() == [str(tmp_path / "a" / "g.json"), str(tmp_path / "b" / "g.json")]

    choose_menu(qtbot, w, ["File", "Open recent"])
    menu = w.recent_menu
    qtbot.waitUntil(menu.isVisible)
    labels = [a.text() for a in menu.actions()]
    assert labels == [f"&1 g.json ({tmp_path / 'a'})", f"&2 g.json ({tmp_path / 'b'})"]
    click(menu, menu.actionGeometry(menu.actions()[1]).center())
    qtbot.waitUntil(lambda: w.path == str(tmp_path / "b" / "g.json"))


def test_insert_code_says_before_importing_that_its_graph_replaces_the_open_one(qtbot, window, tmp_path):
    """File ▸ New graph from code… (once Edit ▸ Insert code…, beside Insert expression…, which adds nodes to the
    open graph): the imported snippet opens as a new untitled document, which the box says before Import is
    pressed."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel

    path = str(tmp_path / "mine.json")
    assert file_ops.save_graph(window.graph, path) is None
    w = shown(qtbot, window)
    assert w.open_path(path)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: any(d.isVisible() for d in w.findChildren(QDialog, "codeInputDialog")))
    dialog = next(d for d in w.findChildren(QDialog, "codeInputDialog") if d.isVisible())
    said = " ".join(label.text() for label in dialog.findChildren(QLabel) if label.isVisible())
    assert "new document in place of the open one" in said
    click(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))  # the chapter's example, as offered
    qtbot.waitUntil(lambda: w.graph.code is not None, timeout=60_000)
    assert w.path is None and w.windowTitle().startswith("untitled")


def test_a_view_is_marked_with_the_names_of_the_nodes_it_shares_memory_with(qtbot, empty_window):
    """Lesson 3's a = r.reshape(3, 4) was marked 'view of n1' (a node id the canvas shows nowhere), and r itself,
    the base, 'view of n2'; the mark names the nodes as the canvas titles them, either way round."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR

    w = shown(qtbot, empty_window)
    assert w.open_path(str(EXAMPLES_DIR / "03-views.json"))
    click_toolbar(w, "forward")
    items = w.scene.node_items
    qtbot.waitUntil(lambda: items["n2"].display.value != "" and items["n10"].display.value != "")
    assert "shares memory with r, b" in items["n2"].display.badges  # a (n2): reshape of r (n1), b (n3) is a.t()
    assert any(badge.startswith("shares memory with a") for badge in items["n1"].display.badges)
    assert any(badge.startswith("shares memory with") and "row" in badge for badge in items["n8"].display.badges)
    for item in items.values():
        assert not any(badge.startswith("view of") for badge in item.display.badges)


def test_backward_steps_through_a_layer_name_the_autograd_node_and_parameter_each_gradient_came_from(
        qtbot, empty_window):
    """Lesson 6's model = Linear(4, 1): stepping backward said 'MseLossBackward0: sent grad (1, 4) array to
    model' for the weight (and the bias), the loss's node and not the layer's TBackward0 (AddmmBackward0)."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR

    w = shown(qtbot, empty_window)
    assert w.open_path(str(EXAMPLES_DIR / "06-training-step.json"))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.bridge.session.forward_complete)
    said = []
    for _ in range(5):  # MseLoss, Addmm, the bias's AccumulateGrad, T, the weight's
        click_toolbar(w, "backward_step")
        qtbot.waitUntil(lambda: w.status_label.text() not in said[-1:])
        said.append(w.status_label.text())
    assert any(m.startswith("AddmmBackward0: sent grad ") and m.endswith(" to model.bias") for m in said), said
    assert any(m.startswith("TBackward0: sent grad (1, 4) array to model.weight") for m in said), said


def test_a_parameter_node_is_not_said_to_share_memory_with_itself(qtbot, empty_window):
    """Lesson 8's parameter w was marked 'shares memory with w' (its value and its parameter are one tensor)."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR

    w = shown(qtbot, empty_window)
    assert w.open_path(str(EXAMPLES_DIR / "08-gradient-flow.json"))
    click_toolbar(w, "forward")
    items = w.scene.node_items
    qtbot.waitUntil(lambda: all(items[n].display.value for n in ("n2", "n4", "n5")))
    for nid in ("n2", "n8"):  # w, w2
        assert not any(b.startswith("shares memory with") and items[nid].title in b.split("with ")[1].split(", ")
                       for b in items[nid].display.badges), items[nid].display.badges
    assert "shares memory with target" in items["n4"].display.badges  # y and y.detach() do share it


def test_arrow_keys_on_the_canvas_select_nodes_so_the_keyboard_reaches_a_nodes_parameters(qtbot, window):
    """Without a mouse there was no way to select a node (Tab on the canvas opens the palette): Ctrl+1, an arrow
    selects the node nearest the middle, more arrows walk to the next node that way, Ctrl+2 edits it."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    w = shown(qtbot, window)
    w.scene.clearSelection()
    press(w, Qt.Key_1, Qt.ControlModifier)  # View ▸ Focus canvas
    qtbot.waitUntil(w.view.hasFocus)
    QTest.keyClick(w.view, Qt.Key_Left)
    qtbot.waitUntil(lambda: len(w.scene.selected_node_ids()) == 1)
    for _ in range(len(w.graph.nodes)):  # walk left to the first column
        before = w.scene.selected_node_ids()
        QTest.keyClick(w.view, Qt.Key_Left)
        if w.scene.selected_node_ids() == before:
            break
    assert w.scene.selected_node_ids() in (["n1"], ["n2"])  # x or w, the leftmost nodes
    QTest.keyClick(w.view, Qt.Key_Up)
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == ["n1"])  # x, above w
    QTest.keyClick(w.view, Qt.Key_Right)
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == ["n4"])  # xw, the next node to the right
    qtbot.waitUntil(lambda: w.inspector.node_id == "n4")
    press(w, Qt.Key_2, Qt.ControlModifier)  # View ▸ Focus Inspector: its first field, the name
    qtbot.waitUntil(lambda: w.inspector.name_edit.hasFocus())
    QTest.keyClicks(w.inspector.name_edit, "product")
    QTest.keyClick(w.inspector.name_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: w.graph.nodes["n4"].title == "product")


def test_a_node_without_parameters_shows_its_value_right_under_its_watch_buttons(qtbot, window):
    """Selecting z (an add, no parameters) left an empty band of a parameter form between Watch and the value."""
    from tests.gui.real_input import click_node, show_dock

    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")  # x: a parameter form
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: w.inspector.form_host.isVisible() and "tensor" in w.inspector.editors)
    click_node(qtbot, w, "n6")  # z = s + b
    qtbot.waitUntil(lambda: w.inspector.node_id == "n6" and w.inspector.value_view.isVisible())
    assert not w.inspector.form_host.isVisible()
    gap = lambda: w.inspector.value_view.y() - w.inspector.watch_buttons.geometry().bottom()  # noqa: E731
    qtbot.waitUntil(lambda: gap() <= 2 * w.inspector.layout_.spacing() + 2)
    click_node(qtbot, w, "n2")  # w: its form comes back
    qtbot.waitUntil(lambda: w.inspector.node_id == "n2" and w.inspector.form_host.isVisible())


def test_the_empty_inspector_names_the_keyboard_path_to_a_node_and_it_works(qtbot, window):
    """With nothing selected, Ctrl+2 landed in an Inspector that only said to click a node."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    w = shown(qtbot, window)
    w.scene.clearSelection()
    press(w, Qt.Key_2, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.inspector.heading.isVisible())
    said = w.inspector.heading.text()
    assert "Ctrl+1" in said and "arrow key" in said
    press(w, Qt.Key_1, Qt.ControlModifier)  # what it says
    qtbot.waitUntil(w.view.hasFocus)
    QTest.keyClick(w.view, Qt.Key_Down)
    qtbot.waitUntil(lambda: w.inspector.node_id is not None and w.inspector.name_edit.isVisible())


def test_insert_expression_says_what_its_names_become_in_a_box_wide_enough_for_the_formula(qtbot, empty_window):
    """The Insert expression box was as narrow as 'Formula:' (its title cut to 'Insert…ession') and said
    nothing of the names: each becomes a tensor node whose values the user fills in."""
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QLineEdit

    w = shown(qtbot, empty_window)
    seen = {}

    def fill():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or not dialog.isVisible():
            QTimer.singleShot(10, fill)
            return
        edit = dialog.findChild(QLineEdit)
        seen["said"] = " ".join(label.text() for label in dialog.findChildren(QLabel) if label.isVisible())
        seen["fits"] = edit.width() >= edit.fontMetrics().horizontalAdvance("(x * w).sum() + b") + 8
        QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClicks(edit, "(x * w).sum() + b")
        QTest.keyClick(edit, Qt.Key_Return)

    QTimer.singleShot(0, fill)
    press(w, Qt.Key_E, Qt.ControlModifier)  # Edit ▸ Insert expression…
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 6)
    assert "becomes a tensor node" in seen["said"] and seen["fits"]
    assert {n.title for n in w.graph.nodes.values() if n.type == "source.tensor"} == {"x", "w", "b"}


@pytest.mark.parametrize("name", ["playground-classifier", "playground-regression", "playground-convnet"])
def test_a_playgrounds_target_edge_runs_clear_of_the_model(qtbot, empty_window, name):
    """data.y -> loss.target ran behind the model's nodes (into mlp at its value line), as if y fed the model;
    data and loss now sit a row under the model, so the edge passes under it, clear of every other node."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR

    w = shown(qtbot, empty_window)
    assert w.open_path(str(EXAMPLES_DIR / f"{name}.json"))
    click_toolbar(w, "forward")  # the nodes grow their value lines and previews
    qtbot.waitUntil(lambda: all(i.display.value for i in w.scene.node_items.values()), timeout=30_000)
    edge = next(e for e in w.graph.edges if e.src_port == "y")
    item = w.scene.edge_items[edge]
    stroke = item.mapToScene(item.line())
    for nid, node in w.scene.node_items.items():
        if nid not in (edge.src, edge.dst):
            assert not stroke.intersects(node.mapRectToScene(node.body_rect())), f"{name}: y runs behind {node.title}"


def test_edit_history_names_its_first_row_and_clicking_it_undoes_every_edit(qtbot, window):
    """Edit ▸ History's first row read '<empty>' (Qt's placeholder); it is the document as opened."""
    from PySide6.QtCore import Qt

    w = shown(qtbot, window)
    before = w.graph.to_dict()
    double_click_library(qtbot, w, "math.exp")
    press(w, Qt.Key_H, Qt.ControlModifier)  # Edit ▸ History
    view = w.history_view
    qtbot.waitUntil(lambda: view.isVisible() and view.model().rowCount() == 2)
    first = view.model().index(0, 0)
    assert first.data() == "As opened (click to undo every edit)"
    click(view.viewport(), view.visualRect(first).center())
    qtbot.waitUntil(lambda: w.graph.to_dict() == before)
