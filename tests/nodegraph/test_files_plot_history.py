"""A session saved after training keeps the runs its plots drew (``"@session"``'s ``history``: the loss and every
other series per step as the session's training steps reported them, the validation points, markers and the
optimizers each run used), so the reopened document draws them again; files saved before it open with no runs."""

import json
import re

import numpy as np
import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.schema import SESSION_KEY, LoadError
from core.nodegraph.run import training_state
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import RunHistory
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture
from tests.nodegraph.test_files_training_state import _batch_norm_graph

pytestmark = pytest.mark.usefixtures("node_types")


def _recorded(steps: int = 6) -> tuple[Session, list[dict]]:
    """A session trained ``steps`` steps, recording them in its ``run_history`` as the GUI's trainer does (a
    marker where the learning rate changed), then reset and trained two more steps in a second run."""
    s = Session(_batch_norm_graph())
    run = s.run_history.new_run(s.graph.training)
    metrics = []
    for m in s.train(steps):
        run.add(m)
        metrics.append(m)
    run.mark("lr 0.1 → 0.05")
    run.add({"step": metrics[-1]["step"] + 1, "loss": 0.25, "val_loss": 0.5})  # a step that measured the held-out rows
    s.reset()
    second = s.run_history.new_run(s.graph.training)
    for m in s.train(2):
        second.add(m)
    return s, metrics


def _same_runs(a: RunHistory, b: RunHistory) -> None:
    assert [r.number for r in a.runs] == [r.number for r in b.runs]
    assert [r.label for r in a.runs] == [r.label for r in b.runs]
    for ra, rb in zip(a.runs, b.runs):
        np.testing.assert_array_equal(ra.steps(), rb.steps())
        assert sorted(ra.names()) == sorted(rb.names())
        for name in [*ra.names(), "smoothed"]:
            np.testing.assert_array_equal(ra.series(name), rb.series(name))
        for axis_a, axis_b in zip(ra.sparse("val_loss"), rb.sparse("val_loss")):
            np.testing.assert_array_equal(axis_a, axis_b)
        assert ra.markers == rb.markers


def test_a_saved_session_reopens_with_the_runs_its_plots_drew(tmp_path):
    s, metrics = _recorded()
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    graph = files.load(path)
    reopened = Session(graph)
    _same_runs(s.run_history, reopened.run_history)
    first = reopened.run_history.runs[0]
    assert list(first.series("loss")[:len(metrics)]) == [m["loss"] for m in metrics]  # what the steps reported
    assert first.sparse("val_loss")[1].tolist() == [0.5]
    assert first.markers == [(metrics[-1]["step"], "lr 0.1 → 0.05")]
    shown = RunHistory()  # what the window's plots take before any session runs the document
    assert shown.restore(training_state.saved_history(graph))
    _same_runs(s.run_history, shown)


def test_the_runs_are_saved_after_a_reset_that_left_them_drawn(tmp_path):
    """Reset sets the step count back to 0 (nothing else of the position is saved), but the plots still show the
    runs: they are saved, and the reopened session starts from step 0."""
    s, _ = _recorded()
    s.reset()
    assert s.step_count == 0 and list(s.training_position()) == ["history"]
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    reopened = Session(files.load(path))
    assert reopened.step_count == 0
    _same_runs(s.run_history, reopened.run_history)


def test_a_file_saved_before_the_history_was_kept_opens_with_no_runs(tmp_path):
    s, _ = _recorded()
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    data = json.loads(path.read_text())
    del data["trained"][SESSION_KEY]["history"]
    path.write_text(json.dumps(data))
    graph = files.load(path)
    assert training_state.saved_history(graph) is None
    reopened = Session(graph)
    assert reopened.run_history.runs == [] and reopened.step_count == s.step_count
    assert not RunHistory().restore(training_state.saved_history(graph))


def test_a_new_run_after_reopening_is_numbered_after_the_saved_ones(tmp_path):
    s, _ = _recorded()
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    history = Session(files.load(path)).run_history
    assert history.new_run({}).number == 3


@pytest.mark.parametrize("damage, where", [
    (lambda run: run["series"].update(loss=run["series"]["lr"] | {"shape": [1]}), "series.loss"),
    (lambda run: run.update(markers=[[1]]), "markers[0]"),
    (lambda run: run.update(number=0), "number"),
])
def test_a_damaged_history_is_refused_with_where(tmp_path, damage, where):
    s, _ = _recorded()
    path = tmp_path / "g.json"
    files.save(s.graph, path, trained=s.trained_values())
    data = json.loads(path.read_text())
    damage(data["trained"][SESSION_KEY]["history"]["runs"][0])
    path.write_text(json.dumps(data))
    with pytest.raises(LoadError, match=re.escape(f"@session.history.runs[0].{where}")):
        files.load(path)


def test_the_watch_lists_recorded_points_come_back_with_its_pins(tmp_path):
    """Ports pinned to the Watch list (a parameter and the loss) and recorded over 5 training steps: the file keeps
    the points, and the watch list made for the reopened document has them, each port's value and gradient kinds
    too; a watch list of a file saved before has its pins and no points."""
    from core.nodegraph.training.watch import WatchList

    graph = _batch_norm_graph()
    s = Session(graph)
    watch = WatchList(graph)
    assert watch.add("w.out") is None and watch.add("loss.out") is None
    watch.attach(s)
    for _ in s.train(5):
        pass
    path = tmp_path / "g.json"
    files.save(graph, path, trained=s.trained_values())
    reopened = WatchList(files.load(path))
    assert reopened.keys == ["w.out", "loss.out"]
    for key in reopened.keys:
        for saved, back in zip(watch.series(key), reopened.series(key)):
            np.testing.assert_array_equal(saved, back)
        assert reopened.labels(key) == watch.labels(key)
    assert len(reopened.series("loss.out")[0]) == 5
    data = json.loads(path.read_text())
    del data["trained"][SESSION_KEY]["watch"]
    path.write_text(json.dumps(data))
    older = WatchList(files.load(path))
    assert older.keys == ["w.out", "loss.out"] and all(len(older.series(k)[0]) == 0 for k in older.keys)


def test_a_watch_list_detached_from_a_session_is_not_saved_with_it(tmp_path):
    from core.nodegraph.training.watch import WatchList

    graph = _batch_norm_graph()
    s = Session(graph)
    watch = WatchList(graph)
    watch.add("w.out")
    watch.attach(s)
    for _ in s.train(2):
        pass
    assert "watch" in s.training_position()
    watch.detach()
    assert s.watch_list is None and "watch" not in s.training_position()
