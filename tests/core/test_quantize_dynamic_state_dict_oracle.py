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


RNNS = {
    "lstm": lambda lib: lib.nn.Sequential(lib.nn.LSTM(8, 8)),
    "lstm_and_gru": lambda lib: lib.nn.Sequential(lib.nn.LSTM(8, 8), lib.nn.GRU(8, 4, 2, bidirectional=True)),
}


def _quantized_rnn(lib, make):
    lib.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lib.ao.quantization.quantize_dynamic(make(lib), {lib.nn.LSTM, lib.nn.GRU}, dtype=lib.qint8)


@pytest.mark.parametrize("name", sorted(RNNS))
def test_saved_quantized_rnn_state_dict_has_torchs_size(tmp_path, name):
    sizes = []
    for lib in (core, torch):
        path = tmp_path / lib.__name__ / "temp.p"
        path.parent.mkdir()
        lib.save(_quantized_rnn(lib, RNNS[name]).state_dict(), path)
        sizes.append(path.stat().st_size)
    assert sizes[0] == sizes[1]


def test_packed_rnn_weights_are_a_script_object_in_both_libraries(tmp_path):
    ours = _quantized_rnn(core, RNNS["lstm"]).state_dict()["0._all_weight_values.0.param"]
    theirs = _quantized_rnn(torch, RNNS["lstm"]).state_dict()["0._all_weight_values.0.param"]
    assert type(ours).__name__ == type(theirs).__name__ == "ScriptObject"
    assert ours.__getstate__()[1] == theirs.__getstate__()[1]
    kind, tensors, doubles, longs, packed = ours.__getstate__()[0]
    assert (kind, len(tensors), doubles, longs, len(packed)) == (theirs.__getstate__()[0][0], 2, [], [1], 2)


def test_quantized_rnn_state_dict_round_trips_between_libraries(tmp_path):
    model, reference = _quantized_rnn(core, RNNS["lstm"]), _quantized_rnn(torch, RNNS["lstm"])
    x = torch.randn(3, 2, 8)
    core.save(model.state_dict(), tmp_path / "ours.p")
    loaded = _quantized_rnn(torch, RNNS["lstm"])
    loaded.load_state_dict(torch.load(tmp_path / "ours.p", weights_only=False))
    torch.save(reference.state_dict(), tmp_path / "theirs.p")
    model.load_state_dict(core.load(tmp_path / "theirs.p", weights_only=False))
    assert torch.equal(loaded(x)[0], reference(x)[0])
    assert torch.equal(torch.tensor(model(core.tensor(x.numpy()))[0].numpy()), reference(x)[0])


def test_loading_packed_rnn_weights_needs_weights_only_false_in_both(tmp_path):
    for lib in (core, torch):
        path = tmp_path / f"{lib.__name__}.p"
        lib.save(_quantized_rnn(lib, RNNS["lstm"]).state_dict(), path)
        with pytest.raises(Exception, match="Weights only load failed"):
            lib.load(path)
