"""Files through the window (save, reopen, bad files, unsaved changes, export) and the inspector's
validated parameter widgets."""

import pytest

from tests.gui.conftest import make_window


@pytest.fixture
def files():
    from core.nodegraph.files import io as files

    return files


def test_save_then_reopen_gives_the_same_document(window, qtbot, files, tmp_path):
    path = str(tmp_path / "chapter.json")
    assert window.save_to(path)
    assert window.windowTitle().startswith("chapter.json — ")
    other = make_window(qtbot)
    assert other.open_path(path)
    assert other.graph.to_dict() == window.graph.to_dict()
    assert len(other.scene.node_items) == 6 and other.windowTitle().startswith("chapter.json — ")


def test_a_bad_file_shows_the_loaders_message_and_keeps_the_document(window, files, tmp_path, dialogs):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nodegrad-graph", "version": 1, "nodes": [')
    before = window.graph.to_dict()
    assert not window.open_path(str(bad))
    assert window.graph.to_dict() == before and len(window.scene.node_items) == 6
    kind, message = dialogs[-1]
    assert kind == "warning" and message and window.status_label.text() == message


def test_closing_with_unsaved_changes_asks(window, dialogs):
    window.scene.add_node("math.exp", (0, 0))
    assert window.windowTitle().startswith("untitled*")
    window.close()
    assert dialogs and dialogs[-1][0] == "question"


def test_revert_reloads_the_saved_file(window, files, tmp_path):
    path = str(tmp_path / "g.json")
    window.save_to(path)
    window.scene.add_node("math.exp", (0, 0))
    window.revert()
    assert len(window.graph.nodes) == 6 and not window.is_modified()


def test_recent_files_remember_saved_paths(window, files, tmp_path):
    from gui import file_ops

    path = str(tmp_path / "r.json")
    window.save_to(path)
    assert file_ops.recent_files()[0] == path


def test_export_image_writes_png_and_svg(window, tmp_path):
    from gui import file_ops

    for name in ("g.png", "g.svg"):
        assert file_ops.export_image(window.scene, str(tmp_path / name)) is None
        assert (tmp_path / name).stat().st_size > 500


def test_inspector_builds_widgets_from_the_spec(window):
    from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit

    window.inspector.show_node("n1")
    eds = window.inspector.editors
    assert isinstance(eds["tensor"], QLineEdit) and eds["tensor"].text() == "[2.0, 3.0]"
    assert isinstance(eds["requires_grad"], QCheckBox) and eds["requires_grad"].isChecked()
    assert isinstance(eds["dtype"], QComboBox)
    assert all(w.objectName() == f"param_{n}" for n, w in eds.items())


def test_a_bad_parameter_value_is_refused_with_the_message_and_not_applied(window, qtbot):
    from PySide6.QtCore import Qt

    window.inspector.show_node("n1")
    before, count = window.graph.to_dict(), window.undo_stack.count()
    edit = window.inspector.editors["tensor"]
    edit.clear()
    qtbot.keyClicks(edit, "[[1, 2], [3]]")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert "tensor" in window.inspector.refusal_notes["tensor"].text()
    assert window.graph.to_dict() == before and window.undo_stack.count() == count


def test_a_good_parameter_value_is_one_undoable_set_param(window):
    window.inspector.show_node("n5")
    window.inspector.editors["keepdim"].setChecked(True)
    assert window.graph.node("n5").params["keepdim"] is True
    assert window.undo_stack.undoText() == "s: keepdim set to True"  # the node by its title, as the canvas draws it
    window.undo_stack.undo()
    assert window.graph.node("n5").params["keepdim"] is False
    assert not window.inspector.editors["keepdim"].isChecked()


def test_int_and_float_spin_boxes_carry_the_bounds(qtbot):
    from core.nodegraph.model.spec import Param
    from gui.param_widgets import make_editor

    w = make_editor(Param("n", "int", 3, minimum=0, maximum=10), 3, lambda v: None)
    assert (w.minimum(), w.maximum()) == (0, 10)
    f = make_editor(Param("lr", "float", 0.1, minimum=0.0), 0.1, lambda v: None)
    assert f.minimum() == 0.0


def test_a_2d_value_gets_a_colour_table(empty_window):
    import numpy as np

    nid = empty_window.scene.add_node("source.tensor", (0, 0), {"tensor": [[1.0, 2.0], [3.0, 4.0]]})
    empty_window.named_actions["forward"].trigger()
    empty_window.inspector.show_node(nid)
    heat = empty_window.inspector.heatmap
    assert heat is not None and heat.isVisibleTo(empty_window.inspector)
    assert np.array_equal(heat.data, [[1.0, 2.0], [3.0, 4.0]])


def test_tiles_show_3d_slices_side_by_side():
    import numpy as np

    from gui.plots.heatmap import tile

    out = tile(np.arange(8.0).reshape(2, 2, 2))
    assert out.shape == (2, 5) and np.isnan(out[0, 2]) and out[1, 4] == 7.0


def test_a_2d_value_gets_a_small_heatmap_on_its_node(empty_window):
    nid = empty_window.scene.add_node("source.tensor", (0, 0), {"tensor": [[1.0, 2.0], [3.0, 5.0]]})
    empty_window.named_actions["forward"].trigger()
    d = empty_window.scene.node_items[nid].display
    assert d.value == "(2, 2) float32 cpu" and d.heat == [[0.0, 0.25], [0.5, 1.0]]
