"""Every training setting is checked when a file loads, with its place in the message: what loads can be shown by
the Train dock and trained; what could not (a schedule that needs a metric, an optimizer that needs a closure, a
step size of 0, a device named "gpu") is refused with a LoadError instead of failing later in training."""

import copy
import json

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.training_settings import RANGES
from core.nodegraph.run.session import Session

BASE = files.to_file_dict(classifier_graph(sizes=(2, 4, 2), steps=2, batch_size=16))


def _with(**training):
    data = copy.deepcopy(BASE)
    data["training"].update(training)
    return json.dumps(data)


REFUSED = [
    ({"schedule": {"type": "StepLR", "step_size": 1.5}}, "training.schedule.step_size: must be an integer"),
    ({"schedule": {"type": "StepLR", "step_size": 0}}, "training.schedule.step_size: must be in [1, "),
    ({"schedule": {"type": "ReduceLROnPlateau"}}, "training.schedule.type: ReduceLROnPlateau needs the watched metric"),
    ({"schedule": {"type": "LambdaLR", "lr_lambda": 1}}, "training.schedule.type: unknown schedule 'LambdaLR'"),
    ({"schedule": {"type": "CosineAnnealingLR"}}, "training.schedule: TypeError"),
    ({"schedule": {"step_size": 3}}, "training.schedule.type: missing field"),
    ({"optimizer": "LBFGS"}, "training.optimizer: LBFGS needs a closure"),
    ({"optimizer": "Optimizer"}, "training.optimizer: unknown optimizer 'Optimizer'"),
    ({"optimizer": "__class__"}, "training.optimizer: unknown optimizer"),
    ({"device": "gpu"}, "training.device: unknown device 'gpu'"),
    ({"optimizer_params": {"lr": "abc"}}, "training.optimizer_params.lr: must be a number, got a string 'abc'"),
    ({"optimizer_params": {"lr": -0.1}}, "training.optimizer_params.lr: must be in [0.0, 10.0]"),
    ({"optimizer_params": {"lr": 0.1, "nesterov": "yes"}}, "training.optimizer_params.nesterov: must be true or false"),
    ({"optimizer": "Adam", "optimizer_params": {"lr": 0.1, "betas": [1.5, 0.9]}},
     "training.optimizer_params: ValueError: Invalid beta parameter"),
    ({"optimizer": "Adam", "optimizer_params": {"lr": 0.1, "betas": {"a": 1}}},
     "training.optimizer_params.betas: must be a number, a boolean or a list of numbers"),
    ({"seed": 2 ** 40}, "training.seed: must be in [0, 2147483647]"),
    ({"steps": 2 ** 40}, "training.steps: must be in [1, 10000000]"),
    ({"steps": 10.0}, "training.steps: must be an integer"),
    ({"batch_size": -1}, "training.batch_size: must be in [0, 100000]"),
    ({"val_every": True}, "training.val_every: must be an integer"),
    ({"stop": {"patience": 2 ** 40}}, "training.stop.patience: must be in [0, 1000000]"),
    ({"stop": {"loss_below": float("nan")}}, "training.stop.loss_below: must be in"),
]


@pytest.mark.parametrize("training, message", REFUSED, ids=[m.split(":")[0] + f"-{i}" for i, (_, m) in
                                                             enumerate(REFUSED)])
def test_a_setting_that_would_fail_later_is_refused_on_load_naming_its_place(training, message):
    with pytest.raises(LoadError) as info:
        files.loads(_with(**training))
    assert str(info.value).startswith(message)


ACCEPTED = [
    {"schedule": {"type": "StepLR", "step_size": 1, "gamma": 0.5}},
    {"schedule": {"type": "ExponentialLR", "gamma": 0.9}},
    {"schedule": {"type": "CosineAnnealingLR", "T_max": 2}},
    {"schedule": {"type": "MultiStepLR", "milestones": [1], "gamma": 0.5}},
    {"optimizer": "SGD", "optimizer_params": {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 1e-4}},
    {"optimizer": "Adamax", "optimizer_params": {"lr": 0.01, "betas": [0.8, 0.99]}},
    {"optimizer": "RMSprop", "optimizer_params": {"lr": 0.0}},
    {"batch_size": 0, "seed": RANGES["seed"][1], "val_every": 0, "stop": None},
]


@pytest.mark.parametrize("training", ACCEPTED)
def test_a_setting_that_loads_also_trains_and_saves_unchanged(training):
    g = files.loads(_with(**training))
    assert files.loads(files.dumps(g)) == g
    metrics = list(Session(g).train(2))
    assert [m["step"] for m in metrics] == [0, 1] and not any("error" in m for m in metrics)


@pytest.mark.parametrize("device", ["cpu", "cuda", "cuda:1"])
def test_the_devices_core_can_name_load(device):
    assert files.loads(_with(device=device)).training["device"] == device


def test_the_last_value_of_each_range_loads_and_one_past_it_is_refused():
    for name in ("batch_size", "steps", "seed", "val_every"):
        lo, hi = RANGES[name]
        assert files.loads(_with(**{name: hi})).training[name] == hi
        with pytest.raises(LoadError, match=rf"^training\.{name}: must be in"):
            files.loads(_with(**{name: hi + 1}))
