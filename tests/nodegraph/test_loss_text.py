"""A loss is written one way wherever the app shows it: as ``print`` writes the loss tensor in PyTorch (the
canvas's text for the loss node), in the stop conditions' messages and the diagnostics too."""

import core
from core.nodegraph.model.numtext import printed, scalar
from core.nodegraph.training.runs import StopConditions


def test_a_loss_reads_as_print_writes_its_tensor():
    for value in (0.026293, 1.2345e-5, 11.16384, 2.0, float("nan")):
        assert scalar(value) == printed(core.tensor(value))  # tensor(0.0263), tensor(1.2345e-05), tensor(2.)


def test_the_stop_message_writes_the_loss_as_the_app_does():
    stops = StopConditions()
    stops.apply({"loss_below": 0.05})
    message = stops.check({"step": 7, "loss": 0.026293})
    assert message == f"stopped at step 7: loss {scalar(0.026293)} is below 0.05"


def test_a_loss_just_below_the_threshold_keeps_the_digits_that_show_it():
    stops = StopConditions()
    stops.apply({"loss_below": 0.05})
    message = stops.check({"step": 7, "loss": 0.049996})
    assert scalar(0.049996) == "0.0500"  # four decimals would not read as below 0.05
    assert message == "stopped at step 7: loss 0.049996 is below 0.05"
