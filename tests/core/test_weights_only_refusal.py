"""torch.load's weights-only refusal of a whole pickled model names the class as PyTorch does (its
``torch.nn.modules...`` path, not core's file layout), so the message a tutorial prints is torch's."""

from __future__ import annotations

import pickle

import pytest

import core


@pytest.mark.parametrize("make", [lambda nn: nn.Sequential(nn.Linear(2, 1)), lambda nn: nn.Linear(2, 1),
                                  lambda nn: nn.ModuleList([nn.ReLU()])])
def test_loading_a_whole_model_with_weights_only_refuses_with_torchs_message(torch, tmp_path, make):
    messages = []
    for lib in (core, torch):
        path = tmp_path / f"{lib.__name__}.pth"
        lib.save(make(lib.nn), path)
        with pytest.raises(pickle.UnpicklingError) as info:
            lib.load(path)
        messages.append(str(info.value))
    assert messages[0] == messages[1]
