"""Fuzzing the training loop fed bad values between its steps, as the Train dock and the canvas can while the
window trains (``gui.training.trainer`` pulls steps from one live ``Session.train`` generator, adds each to a
``Run`` and asks ``StopConditions`` after each): a learning rate set to nan, inf or 1e308, a batch larger than the
data, the loss node disconnected or deleted, data turned to nan, another optimizer or schedule.

Each edit is made or refused with a ``GraphError``/``ParamError`` carrying a message (the document unchanged); the
steps after it run, stop with a message (a NaN loss) or end with an error in their metrics; nothing raises, the
plotted run holds every step that ran, in order, and the document still saves and reopens.
"""

import math

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types of the examples
from core.nodegraph.files import io as files
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import GraphError
from core.nodegraph.model.spec import ParamError
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import RunHistory, StopConditions
from tests.hypothesis_profiles import fuzz_settings

EXAMPLES = {name: (lessons.EXAMPLES_DIR / f"{name}.json").read_text(encoding="utf-8")
            for name in ("06-training-step", "playground-regression", "playground-classifier")}
BAD_LR = [float("nan"), float("inf"), float("-inf"), 1e308, -1.0, 10.000001]
EDITS = st.one_of(
    st.tuples(st.just("lr"), st.sampled_from(BAD_LR + [0.0, 10.0, 1e-300])),
    st.tuples(st.just("optimizer"), st.sampled_from(["SGD", "Adam", "RMSprop", "Adagrad", "AdamW", "LBFGS"])),
    st.tuples(st.just("schedule"), st.sampled_from([None, {"type": "StepLR", "step_size": 1, "gamma": 0.01},
                                                    {"type": "ExponentialLR", "gamma": 0.01}])),
    st.tuples(st.just("batch_size"), st.sampled_from([0, 1, 99, 100, 101, 100_000, -1])),
    st.tuples(st.just("n_samples"), st.sampled_from([1, 2, 3])),
    st.tuples(st.just("val_fraction"), st.sampled_from([0.5, 0.9, 0.99])),
    st.tuples(st.just("noise"), st.sampled_from([float("nan"), float("inf"), 1e308])),
    st.tuples(st.just("nan data"), st.just([[float("nan")], [1.0], [float("inf")], [1e308]])),
    st.tuples(st.just("disconnect loss"), st.integers(0, 3)),
    st.tuples(st.just("delete loss"), st.none()),
    st.tuples(st.just("loss"), st.sampled_from(["n1", "n2", "nope"])),
)


def _command(g, edit, value):
    """The command the app would push for ``edit``, or None when the example has nothing to edit so."""
    loss = g.training.get("loss")
    datasets = [n for n, node in g.nodes.items() if node.type == "data.dataset"]
    tensors = [n for n, node in g.nodes.items() if node.type == "source.tensor"]
    if edit == "lr":
        return cmd.SetTraining("optimizer_params", {**g.training["optimizer_params"], "lr": value})
    if edit in ("optimizer", "schedule", "loss"):
        return cmd.SetTraining(edit, value)
    if edit in ("batch_size", "n_samples", "val_fraction", "noise"):
        return cmd.SetParam(datasets[0], edit, value) if datasets else None
    if edit == "nan data":
        return cmd.SetParam(tensors[0], "tensor", value) if tensors else None
    into = [e for e in g.edges if e.dst == loss]
    if edit == "disconnect loss":
        return cmd.Disconnect(*into[value % len(into)]) if into else None
    return cmd.RemoveNodes([loss]) if loss in g.nodes else None


@fuzz_settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(EXAMPLES)), edits=st.lists(EDITS, min_size=1, max_size=3),
       every=st.integers(1, 3))
def test_bad_values_between_training_steps_are_refused_or_end_training_with_a_message(name, edits, every):
    g = files.loads(EXAMPLES[name])
    session, runs, stops = Session(g), RunHistory(), StopConditions()
    run = runs.new_run(dict(g.training))
    steps, pending, ran = session.train(12), list(edits), 0
    for i, metrics in enumerate(steps):
        if "error" in metrics:  # the step could not run: a message, and no point for the plot
            assert metrics["error"].message and metrics["error"].type
            break
        assert isinstance(metrics["loss"], float)
        run.add(metrics)
        ran += 1
        stop = stops.stop_info(metrics, session)
        if stop is not None:  # a NaN loss: training stops with a message naming where it came from
            assert stop["message"]
            break
        if pending and i % every == 0:
            command = _command(g, *pending.pop(0))
            before = files.dumps(g)
            try:
                if command is not None:
                    command.do(g)
            except (GraphError, ParamError) as exc:
                assert str(exc) and files.dumps(g) == before
    assert len(run) == ran
    assert list(run.steps()) == sorted(set(run.steps())) and all(math.isfinite(s) for s in run.steps())
    runs.to_csv()
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)


@pytest.mark.parametrize("lr", BAD_LR)
def test_a_bad_learning_rate_set_between_steps_is_refused_and_training_goes_on(lr):
    g = files.loads(EXAMPLES["playground-regression"])
    steps = Session(g).train(3)
    next(steps)
    with pytest.raises(GraphError, match=r"training.optimizer_params.lr: must be in \[0.0, 10.0\]"):
        cmd.SetTraining("optimizer_params", {"lr": lr}).do(g)
    assert [m.get("error") for m in steps] == [None, None]


def test_deleting_the_loss_node_between_steps_ends_training_saying_the_last_node_stood_in():
    g = files.loads(EXAMPLES["playground-regression"])
    steps = Session(g).train(3)
    next(steps)
    cmd.RemoveNodes([g.training["loss"]]).do(g)
    last = list(steps)[-1]
    assert last["error"].message == ("the loss node 'n3' was deleted, so training took the last node, mlp, as the "
                                     "loss: grad can be implicitly created only for scalar outputs (choose the loss "
                                     "in the Train dock)")
    assert files.dumps(files.loads(files.dumps(g))) == files.dumps(g)
