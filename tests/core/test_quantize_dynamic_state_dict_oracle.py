"""A dynamically quantized model's state dict carries torch's metadata: the dynamic LSTM's and GRU's version (2),
the dynamic Linear's and its packed parameters' versions, under the same keys."""

from __future__ import annotations

import warnings

import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only


def _metadata(lib, make, types):
    lib.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = lib.ao.quantization.quantize_dynamic(make(lib), types(lib), dtype=lib.qint8)
    state = model.state_dict()
    return list(state.keys()), dict(state._metadata)


MODELS = {
    "lstm": (lambda lib: lib.nn.Sequential(lib.nn.LSTM(4, 3)), lambda lib: {lib.nn.LSTM}),
    "gru": (lambda lib: lib.nn.Sequential(lib.nn.GRU(4, 3, num_layers=2)), lambda lib: {lib.nn.GRU}),
    "linear": (lambda lib: lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU()), lambda lib: {lib.nn.Linear}),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_quantized_state_dict_has_torchs_keys_and_metadata(name):
    assert _metadata(core, *MODELS[name]) == _metadata(torch, *MODELS[name])
