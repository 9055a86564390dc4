"""Training settings the Train dock could not show are refused when a file is opened, against the very ranges
its editors use (core.nodegraph.model.training_settings.RANGES), so the window never half-switches to such a file."""

import json

import pytest
from PySide6.QtWidgets import QAbstractSpinBox, QMessageBox

from core.nodegraph.files import io as files
from core.nodegraph.files.examples import default_graph
from core.nodegraph.model.training_settings import RANGES

EDITORS = {"lr": "trainLr", "momentum": "trainMomentum", "weight_decay": "trainWeightDecay", "gamma": "trainGamma",
           "step_size": "trainStepSize", "batch_size": "trainBatchSize", "steps": "trainSteps", "seed": "trainSeed",
           "val_every": "trainValEvery", "loss_below": "stopLossBelow", "patience": "stopPatience"}


def test_every_train_dock_editor_accepts_exactly_the_range_the_loader_checks(window):
    assert set(EDITORS) == set(RANGES)
    for name, object_name in EDITORS.items():
        box = window.findChild(QAbstractSpinBox, object_name)
        assert (box.minimum(), box.maximum()) == RANGES[name], name


@pytest.mark.parametrize("setting, value, where", [("optimizer_params", {"lr": "abc"}, "training.optimizer_params.lr"),
                                                   ("seed", 2 ** 40, "training.seed"),
                                                   ("steps", 2 ** 40, "training.steps")])
def test_opening_a_file_with_a_setting_the_train_dock_cannot_show_keeps_the_open_document(
        window, tmp_path, monkeypatch, setting, value, where):
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warnings.append(text))
    data = files.to_file_dict(default_graph())
    data["training"][setting] = value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    before = window.graph
    assert window.open_path(str(path)) is False
    assert window.graph is before and window.path is None
    assert warnings and warnings[0].startswith(f"Can't open bad.json: {where}")  # the file, then the field
