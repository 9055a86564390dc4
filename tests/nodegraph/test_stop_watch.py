"""Early stopping on the validation loss: "no improvement for N steps" watches val_loss when the run measures one
(counting steps between the measurements), the training loss otherwise or when asked, and says which it watched."""

import pytest

from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.run.session import Session
from core.nodegraph.training import holdout
from core.nodegraph.training.runs import StopConditions


def frozen_classifier(fraction=0.2, val_every=2):
    """The toy classifier on the whole (training) part every step with a learning rate of 0: neither the training
    loss nor the validation loss ever improves on its first value."""
    g = classifier_graph(steps=50)
    g.nodes["n1"].params.update(batch_size=0, val_fraction=fraction, shuffle=False)  # same sum order every step
    g.set_training("optimizer", "SGD")
    g.set_training("optimizer_params", {"lr": 0.0})
    g.set_training("val_every", val_every)
    return g


def train_until_stop(g, stop, steps=50):
    session = Session(g)
    for metrics in session.train(steps):
        info = stop.stop_info(metrics, session)
        if info is not None:
            return metrics["step"], info["message"]
    return None, None


def steps_of(losses, vals):
    """Metrics of consecutive steps: a training loss each, a val_loss on the steps of ``vals``."""
    return [{"step": i, "loss": loss, **({"val_loss": vals[i]} if i in vals else {})} for i, loss in enumerate(losses)]


def first_stop(stop, metrics):
    for m in metrics:
        message = stop.check(m)
        if message is not None:
            return m["step"], message
    return None, None


def test_patience_counts_steps_since_the_best_val_loss_and_judges_on_measured_steps_only():
    losses = [1.0 - 0.01 * i for i in range(30)]  # the training loss keeps improving: it must not matter
    vals = {4: 1.0, 9: 0.8, 14: 0.85, 19: 0.9, 24: 0.7}
    step, message = first_stop(StopConditions(patience=10), steps_of(losses, vals))
    assert step == 19
    assert message == "stopped at step 19: no improvement in val_loss for 10 steps; best 0.8000 at step 9"


def test_a_val_loss_that_improves_in_time_keeps_training_going():
    vals = {4: 1.0, 9: 0.8, 14: 0.85, 19: 0.7, 24: 0.75}
    stop = StopConditions(patience=10)
    assert first_stop(stop, steps_of([1.0] * 30, vals)) == (None, None)
    assert stop.watching == "val_loss"


def test_watching_the_training_loss_ignores_the_val_loss():
    vals = {i: 1.0 - 0.1 * i for i in range(0, 10, 2)}  # improving at every measurement
    step, message = first_stop(StopConditions(patience=3, watch="loss"), steps_of([1.0] * 10, vals))
    assert step == 3 and "no improvement in loss for 3 steps; best 1. at step 0" in message


def test_without_a_session_the_training_loss_is_watched_until_a_val_loss_is_reported():
    stop = StopConditions(patience=5)
    assert stop.watching == "loss"
    stop.check({"step": 0, "loss": 1.0})
    assert stop.watching == "loss"
    stop.check({"step": 1, "loss": 1.0, "val_loss": 2.0})
    assert stop.watching == "val_loss"
    stop.reset()
    assert stop.watching == "loss"


def test_an_unknown_watch_is_refused():
    with pytest.raises(ValueError, match="watch must be one of val_loss, loss"):
        StopConditions(watch="accuracy")


def test_a_run_with_a_split_stops_on_val_loss_and_not_on_the_flat_training_loss():
    stop = StopConditions(patience=3)
    step, message = train_until_stop(frozen_classifier(), stop)
    assert stop.watching == "val_loss"
    assert step == 5 and message.startswith("stopped at step 5: no improvement in val_loss for 3 steps; best ")
    assert message.endswith(" at step 1")  # measured at steps 1, 3, 5: the first one stays the best


def test_the_same_run_watching_the_training_loss_stops_earlier():
    step, message = train_until_stop(frozen_classifier(), StopConditions(patience=3, watch="loss"))
    assert step == 3 and "no improvement in loss for 3 steps" in message


@pytest.mark.parametrize("fraction, val_every", [(0.0, 2), (0.2, 0)], ids=["no split", "val_every 0"])
def test_without_validation_the_val_loss_watch_stays_on_the_training_loss(fraction, val_every):
    g = frozen_classifier(fraction, val_every)
    assert not holdout.measures(g, "n3")
    stop = StopConditions(patience=3)
    step, message = train_until_stop(g, stop)
    assert stop.watching == "loss" and step == 3 and "no improvement in loss for 3 steps" in message


def test_measures_needs_a_loss_node_of_the_graph():
    g = frozen_classifier()
    assert holdout.measures(g, "n3") and not holdout.measures(g, "gone") and not holdout.measures(g, None)


def test_an_edit_that_adds_a_split_mid_run_switches_the_watch_to_val_loss():
    g = frozen_classifier(fraction=0.0)
    session, stop = Session(g), StopConditions(patience=100)
    for m in session.train(2):
        stop.stop_info(m, session)
    assert stop.watching == "loss"
    g.set_param("n1", "val_fraction", 0.2)
    for m in session.train(1):
        stop.stop_info(m, session)
    assert stop.watching == "val_loss"
    g.set_training("val_every", 0)
    other = Session(frozen_classifier(fraction=0.0))  # another document: asked again as well
    for m in other.train(1):
        stop.stop_info(m, other)
    assert stop.watching == "loss" and stop._on_graph_event not in g._listeners
