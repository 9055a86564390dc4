"""The batch size of training is the dataset node's ``batch_size``: setting it (core.nodegraph.model.batch_size,
what the Train dock's field does) changes the rows a training step sees, is one undoable edit named as the
node's own edit, and is refused with a reason where the graph has no single batch size. An older (version 3)
file's ``training.batch_size`` (which no run read) lands on its dataset node as it loads, and files are saved
without it."""

import json

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model import batch_size as bs
from core.nodegraph.model.document import Node
from core.nodegraph.run.session import Session


def _rows_per_step(graph, steps: int = 2) -> list[int]:
    """The rows the dataset node fed each of ``steps`` training steps, as core.nodegraph's run has them."""
    s = Session(graph)
    rows = []
    for _ in s.train(1):
        pass
    rows.append(s.value("n1", "x").shape[0])
    for _ in range(steps - 1):
        for _ in s.train(1):
            pass
        rows.append(s.value("n1", "x").shape[0])
    s.close()
    return rows


def test_setting_the_batch_size_changes_the_rows_a_training_step_sees():
    g = classifier_graph("moons", batch_size=32, steps=4)
    assert bs.batch_size(g) == 32 and _rows_per_step(g) == [32, 32]
    cmd = bs.set_batch_size(g, 16)
    cmd.do(g)
    assert cmd.text == "data: batch_size set to 16"  # as the Inspector's edit of the node is named
    assert g.nodes["n1"].params["batch_size"] == 16 and bs.batch_size(g) == 16
    assert _rows_per_step(g) == [16, 16]
    cmd.undo(g)
    assert bs.batch_size(g) == 32 and _rows_per_step(g) == [32, 32]


def test_batch_size_0_gives_every_row_each_step():
    g = classifier_graph("moons", batch_size=32, steps=4)
    bs.set_batch_size(g, 0).do(g)
    assert _rows_per_step(g) == [300, 300]  # the toy dataset's n_samples


def test_several_dataset_nodes_of_one_size_are_set_in_one_edit():
    g = classifier_graph("moons", batch_size=32)
    g.add_node(Node("n9", "data.dataset", {"generator": "circles", "batch_size": 32}, (0.0, 300.0), "other"))
    cmd = bs.set_batch_size(g, 8)
    before = g.to_dict()
    cmd.do(g)
    assert cmd.text == "Batch size set to 8"
    assert [g.nodes[n].params["batch_size"] for n in ("n1", "n9")] == [8, 8]
    cmd.undo(g)
    assert g.to_dict() == before


def test_dataset_nodes_that_disagree_have_no_single_batch_size():
    g = classifier_graph("moons", batch_size=32)
    g.add_node(Node("n9", "data.dataset", {"generator": "circles", "batch_size": 10}, (0.0, 300.0), "other"))
    assert bs.batch_size(g) is None
    assert "different batch sizes" in bs.why_fixed(g)
    with pytest.raises(ValueError, match="different batch sizes"):
        bs.set_batch_size(g, 8)


def test_a_graph_without_a_dataset_node_has_no_batch_size_to_set():
    g = classifier_graph("moons")
    g.remove_node("n1")
    assert bs.batch_size(g) is None and bs.why_fixed(g).startswith("no dataset node")
    with pytest.raises(ValueError, match="no dataset node"):
        bs.set_batch_size(g, 8)


def test_a_batch_size_out_of_the_nodes_range_is_refused_and_changes_nothing():
    g = classifier_graph("moons", batch_size=32)
    before = g.to_dict()
    with pytest.raises(Exception, match="batch_size"):
        bs.set_batch_size(g, -1).do(g)
    assert g.to_dict() == before


def _version_3(graph, training_batch_size) -> str:
    """``graph`` as a version 3 file wrote it: the header's version 3, ``training.batch_size`` in its training."""
    data = json.loads(files.dumps(graph))
    assert data["version"] == 4 and "batch_size" not in data["training"]  # what this version writes
    data["version"] = 3
    data["training"] = {**data["training"], "batch_size": training_batch_size}
    return json.dumps(data)


def test_an_older_files_training_batch_size_lands_on_its_dataset_node_and_is_saved_no_more(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(_version_3(classifier_graph("moons", batch_size=32, steps=4), 8), encoding="utf-8")
    loaded = files.load(path)
    assert "batch_size" not in loaded.training
    assert bs.batch_size(loaded) == 8 and _rows_per_step(loaded) == [8, 8]  # the size the learner chose runs
    files.save(loaded, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["version"] == 4 and "batch_size" not in saved["training"]  # no stale key
    assert [n["params"]["batch_size"] for n in saved["nodes"] if n["type"] == "data.dataset"] == [8]


def test_an_older_files_default_training_batch_size_leaves_the_nodes_own(tmp_path):
    """Every version 3 document carried 32 (the default) whether or not anyone chose it; the node's own size, set
    in the Inspector, is the one that ran and stays."""
    g = classifier_graph("moons", batch_size=24, steps=4)
    g.add_node(Node("n9", "data.dataset", {"generator": "circles", "batch_size": 24}, (0.0, 300.0), "other"))
    loaded = files.loads(_version_3(g, 32))
    assert bs.batch_size(loaded) == 24 and "batch_size" not in loaded.training
    every = files.loads(_version_3(g, 5))  # another value: on every dataset node
    assert {n.params["batch_size"] for n in every.nodes.values() if n.type == bs.DATASET_TYPE} == {5}


def test_an_older_file_without_a_dataset_node_loses_its_training_batch_size():
    g = classifier_graph("moons")
    g.remove_node("n1")
    loaded = files.loads(_version_3(g, 8))
    assert "batch_size" not in loaded.training and bs.batch_size(loaded) is None


def test_an_older_files_bad_training_batch_size_is_refused_naming_it():
    with pytest.raises(files.LoadError, match=r"version 3 file\) training.batch_size: must be in \[0, 100000\]"):
        files.loads(_version_3(classifier_graph("moons"), -1))
