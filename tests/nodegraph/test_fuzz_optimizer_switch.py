"""Switching the optimizer (the Train dock's combo box, ``SetTraining("optimizer", ...)``) keeps the arguments the
new optimizer takes and drops the others: Adam chosen after SGD with momentum saved a file that would not reopen
(``Adam.__init__() got an unexpected keyword argument 'momentum'``). Undo gives the old ones back; a file that
holds such an argument is refused with a LoadError naming it."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types of the example
from core.nodegraph.files import io as files
from core.nodegraph.files.schema import LoadError
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import GraphError
from tests.hypothesis_profiles import fuzz_settings

EXAMPLE = (lessons.EXAMPLES_DIR / "06-training-step.json").read_text(encoding="utf-8")
OPTIMIZERS = ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop", "Adadelta"]
ARGUMENTS = st.fixed_dictionaries({"lr": st.sampled_from([0.0, 0.01, 0.5])}, optional={
    "momentum": st.sampled_from([0.0, 0.5, 0.9]), "nesterov": st.booleans(),
    "weight_decay": st.sampled_from([0.0, 0.1]),
    "dampening": st.just(0.0), "betas": st.just([0.8, 0.99]), "eps": st.just(1e-6), "amsgrad": st.booleans(),
    "alpha": st.just(0.9), "centered": st.booleans(), "lr_decay": st.just(0.01)})


def _with(optimizer: str, params: dict):
    g = files.loads(EXAMPLE)
    g.training.update(optimizer=optimizer, optimizer_params=params)  # what some file held
    return g


def test_adam_chosen_after_sgd_with_momentum_drops_momentum_and_the_file_reopens():
    g = files.loads(EXAMPLE)
    cmd.SetTraining("optimizer_params", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}).do(g)
    before = files.dumps(g)
    switch = cmd.SetTraining("optimizer", "Adam")
    switch.do(g)
    assert g.training["optimizer"] == "Adam"
    assert g.training["optimizer_params"] == {"lr": 0.1, "weight_decay": 0.01}
    assert files.loads(files.dumps(g)) == g
    switch.undo(g)
    assert files.dumps(g) == before
    switch.do(g)  # redo
    assert g.training["optimizer_params"] == {"lr": 0.1, "weight_decay": 0.01}


def test_rmsprop_chosen_after_sgd_keeps_its_momentum():
    g = files.loads(EXAMPLE)
    cmd.SetTraining("optimizer_params", {"lr": 0.1, "momentum": 0.9, "nesterov": True}).do(g)
    cmd.SetTraining("optimizer", "RMSprop").do(g)
    assert g.training["optimizer_params"] == {"lr": 0.1, "momentum": 0.9}


def test_a_file_holding_an_argument_its_optimizer_does_not_take_is_refused_naming_it():
    data = json.loads(files.dumps(_with("Adam", {"lr": 0.1, "momentum": 0.9})))
    with pytest.raises(LoadError, match=r"training.optimizer_params.momentum: Adam takes no argument 'momentum' "
                                        r"\(it takes lr, betas, eps"):
        files.loads(json.dumps(data))


@fuzz_settings(max_examples=60, deadline=None)
@given(first=st.sampled_from(OPTIMIZERS), params=ARGUMENTS, then=st.sampled_from(OPTIMIZERS))
def test_any_switch_of_optimizer_is_made_or_refused_and_the_file_always_reopens(first, params, then):
    g = files.loads(EXAMPLE)
    cmd.SetTraining("optimizer", first).do(g)
    try:
        cmd.SetTraining("optimizer_params", params).do(g)
    except GraphError:
        pass  # arguments this optimizer refuses (SGD's nesterov without momentum)
    before = files.dumps(g)
    switch = cmd.SetTraining("optimizer", then)
    try:
        switch.do(g)
    except GraphError as exc:
        assert str(exc) and files.dumps(g) == before
        return
    assert files.loads(files.dumps(g)) == g
    switch.undo(g)
    assert files.dumps(g) == before
