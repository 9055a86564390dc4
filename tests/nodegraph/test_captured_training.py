"""Training through the captured forward pass (``core.nodegraph.training.captured``) gives the eager numbers.

Every example document is trained twice, once with ``Training.capture`` on (the default) and once off, and the
losses, metrics and final parameters must be equal bit for bit; the plain MLP documents must really replay.
"""

import numpy as np
import pytest

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from benchmarks.bench_session import classifier_graph  # moons -> MLP 2-8-8-1 tanh -> BCE with logits, SGD
from core.nodegraph.files import io
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.model.document import Edge, Node
from core.nodegraph.run.session import Session
from core.nodegraph.training.captured import LAST_STEP

EXAMPLES = sorted(p.name for p in EXAMPLES_DIR.glob("*.json"))
MLP_EXAMPLES = ("playground-classifier.json", "playground-regression.json")
METRICS = ("step", "loss", "grad_norm", "update_ratio", "accuracy", "no_gradient", "val_loss", "val_accuracy")


def _summary(metrics: list) -> list:
    """What a step reports, with an error as its phase and message."""
    out = []
    for m in metrics:
        row = {k: m.get(k) for k in METRICS}
        err = m.get("error")
        row["error"] = None if err is None else (err.phase, err.message)
        out.append(row)
    return out


def _parameters(session) -> dict:
    return {k: t.detach().numpy().copy() for k, t in session.parameters().items()}


def _train(graph, capture: bool, *calls, edit=None) -> tuple:
    """Train ``graph`` with ``train(n)`` for each n in ``calls``; ``edit(graph)`` runs between the calls."""
    session = Session(graph)
    session.trainer.capture = capture
    metrics = []
    for i, n in enumerate(calls):
        if i and edit is not None:
            edit(graph)
        metrics += list(session.train(n))
    return session, _summary(metrics), _parameters(session)


def _assert_same(captured: tuple, eager: tuple) -> None:
    assert captured[1] == eager[1]
    assert captured[2].keys() == eager[2].keys()
    for key, value in captured[2].items():
        assert value.dtype == eager[2][key].dtype and value.tobytes() == eager[2][key].tobytes(), key


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_trains_to_the_same_numbers_with_and_without_capture(name):
    captured = _train(io.load(EXAMPLES_DIR / name), True, 6)
    eager = _train(io.load(EXAMPLES_DIR / name), False, 6)
    _assert_same(captured, eager)


@pytest.mark.parametrize("name", MLP_EXAMPLES)
def test_the_plain_mlp_examples_replay_their_captured_steps(name):
    session, metrics, _ = _train(io.load(EXAMPLES_DIR / name), True, 6)
    assert session.trainer.compiled.replays > 0
    assert session.trainer.step_mode == f"eager — {LAST_STEP}"  # a call's last step runs every node
    # the first replay is checked against the eager pass, and that step uses the eager values: it counts as eager
    assert session.trainer.replayed_before_last == (session.trainer.compiled.replays - 1, 5)
    assert all(m["error"] is None for m in metrics)


def test_a_dataset_epoch_with_a_smaller_last_batch_trains_like_eager():
    graph = lambda: classifier_graph(batch_size=64)  # noqa: E731 - 200 rows: batches of 64, 64, 64 and 8
    captured = _train(graph(), True, 9)
    _assert_same(captured, _train(graph(), False, 9))
    assert captured[0].trainer.compiled.replays > 0


def test_the_value_the_session_shows_after_a_replay_is_the_steps_own():
    session = Session(classifier_graph(batch_size=200))
    metrics = list(session.train(5))
    assert session.trainer.compiled.replays > 0
    loss = session.value("loss")
    assert float(loss) == metrics[-1]["loss"]


def test_editing_a_parameter_between_train_calls_records_the_pass_again():
    def edit(graph):
        graph.set_param("one", "tensor", 0.5)

    captured = _train(classifier_graph(batch_size=200), True, 5, 5, edit=edit)
    _assert_same(captured, _train(classifier_graph(batch_size=200), False, 5, 5, edit=edit))
    assert captured[0].trainer.replayed_before_last[0] > 0  # the second call replayed too


def test_adding_a_node_between_train_calls_records_the_pass_again():
    def edit(graph):
        graph.add_node(Node("two", "source.tensor", {"tensor": 2.0}))
        graph.add_node(Node("scaled", "math.mul"))
        graph.disconnect(graph.edge_into("loss", "input"))
        for e in (("mlp", "out", "scaled", "a"), ("two", "out", "scaled", "b"), ("scaled", "out", "loss", "input")):
            graph.connect(Edge(*e))

    captured = _train(classifier_graph(batch_size=200), True, 5, 5, edit=edit)
    _assert_same(captured, _train(classifier_graph(batch_size=200), False, 5, 5, edit=edit))
    assert captured[0].trainer.compiled.replays > 0


def test_step_mode_says_why_a_step_ran_eagerly():
    session = Session(classifier_graph(batch_size=200))
    assert session.trainer.step_mode.startswith("eager")
    session.trainer.capture = False
    list(session.train(3))
    assert session.trainer.step_mode == "eager — capture is off"
    random = Session(io.load(EXAMPLES_DIR / "06-training-step.json"))
    list(random.train(4))
    assert random.trainer.step_mode == "eager — a node draws random numbers from the session's generator"


def test_a_single_step_after_a_replaying_train_says_every_node_ran():
    session = Session(classifier_graph(batch_size=200))
    list(session.train(6))
    assert session.trainer.step_mode == f"eager — {LAST_STEP}"  # the call replayed; its last step ran eagerly
    replays = session.trainer.compiled.replays
    assert session.trainer.replayed_before_last == (replays - 1, 5) and replays > 1  # (the checked one: eager)
    list(session.train(1))  # the GUI's Step: one call of one step, eager as every call's last step
    assert session.trainer.compiled.replays == replays
    assert session.trainer.step_mode == f"eager — {LAST_STEP}"
    assert session.trainer.replayed_before_last == (0, 0)


def test_an_edit_before_a_calls_last_step_leaves_no_replayed_label():
    """Steps replayed, then an edit (a parameter typed while training) invalidated the capture just before the last
    step (Pause ends a call with one more step): that step ran eagerly, but the label said 'captured (replaying)'."""
    session = Session(classifier_graph(batch_size=200))
    steps = session.train(8)
    for _ in range(6):
        next(steps)
    assert session.trainer.replayed and session.trainer.step_mode == "captured (replaying)"
    replays = session.trainer.compiled.replays
    session.graph.set_param("one", "tensor", 0.5)
    session.trainer.finish()  # as the GUI's Pause: one more step, the call's last
    assert len(list(steps)) == 1
    assert session.trainer.step_mode.startswith("eager — first step after a change")
    assert not session.trainer.replayed
    assert session.trainer.replayed_before_last == (replays - 1, 6)  # (the checked replay's step used eager values)


def test_a_cancelled_call_leaves_no_count_for_the_next_step():
    session = Session(classifier_graph(batch_size=200))
    steps = session.train(8)
    for _ in range(6):
        next(steps)
    session.trainer.cancel()
    assert list(steps) == []
    list(session.train(1))
    assert session.trainer.step_mode == f"eager — {LAST_STEP}"
    assert session.trainer.replayed_before_last == (0, 0)


def test_a_reset_records_the_pass_again_with_the_new_parameters():
    session = Session(classifier_graph(batch_size=200))
    first = [m["loss"] for m in session.train(5)]
    session.reset()
    again = [m["loss"] for m in session.train(5)]
    assert again == first
    assert np.isfinite(again).all()


def test_batches_the_session_showed_keep_their_values_while_later_steps_replay():
    session = Session(classifier_graph(batch_size=32))
    shown = []
    for _ in session.train(8):
        x = session.value("data", "x")
        shown.append((x, x.numpy().copy()))
    assert session.trainer.compiled.replays > 0
    assert all(np.array_equal(x.numpy(), copy) for x, copy in shown)


def test_finish_ends_a_train_call_with_one_eager_step_after_replays():
    session = Session(classifier_graph(batch_size=200))
    steps = session.train(50)
    for i, _metrics in enumerate(steps):
        if i == 5:
            assert session.trainer.replayed
            assert type(session.values["loss"]["out"].grad_fn).__name__ == "CompiledFunctionBackward"
            session.trainer.finish()  # what the GUI's Pause does after a replayed step
    assert i == 6 and not session.trainer.replayed
    assert session.values["loss"]["out"].grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"
    eager = _train(classifier_graph(batch_size=200), False, 7)
    assert _parameters(session).keys() == eager[2].keys()
    for key, value in _parameters(session).items():
        assert value.tobytes() == eager[2][key].tobytes(), key


def test_finish_before_a_train_call_makes_it_one_eager_step():
    session = Session(classifier_graph(batch_size=200))
    assert len(list(session.train(5))) == 5 and not session.trainer.replayed
    session.trainer.finish()  # the GUI's Step button
    assert len(list(session.train(10))) == 1
    assert not session.trainer.replayed and session.values["loss"]["out"].grad_fn.name().startswith("BinaryCross")
    assert len(list(session.train(10))) == 10  # the flag applies to one call only
