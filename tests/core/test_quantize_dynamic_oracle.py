"""``core.ao.quantization.quantize_dynamic`` against torch's: the same float model, quantized in both, prints the
same ``DynamicQuantizedLinear`` layers, holds the same int8 weights and scales, and gives the same outputs bit
for bit (FBGEMM's numerics: per-batch quint8 activations with reduced range, integer accumulation, one fused
multiply-add with the bias); the state dict has torch's keys and saves; ``torch.quantization`` is the same module.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy


def _model(lib, sizes=(16, 32, 8)):
    nn = lib.nn
    return nn.Sequential(nn.Linear(sizes[0], sizes[1]), nn.ReLU(), nn.Linear(sizes[1], sizes[2]))


def _quantized_pair(torch, sizes=(16, 32, 8), seed=0):
    torch.manual_seed(seed)
    theirs = _model(torch, sizes)
    ours = _model(core, sizes)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # both warn: torch.ao.quantization and quantized tensors are deprecated
        tq = torch.ao.quantization.quantize_dynamic(theirs, {torch.nn.Linear}, dtype=torch.qint8)
        cq = core.ao.quantization.quantize_dynamic(ours, {core.nn.Linear}, dtype=core.qint8)
    return cq, tq


def test_quantized_model_prints_as_torchs(torch):
    cq, tq = _quantized_pair(torch)
    assert repr(cq) == repr(tq)
    assert type(cq[0]).__name__ == "Linear" and type(cq[0]).__module__.replace("core", "torch") == \
        type(tq[0]).__module__


def test_weights_are_quantized_per_tensor_symmetric_as_torchs(torch):
    cq, tq = _quantized_pair(torch)
    for i in (0, 2):
        ours, theirs = cq[i].weight(), tq[i].weight()
        assert ours.q_scale() == theirs.q_scale() and ours.q_zero_point() == theirs.q_zero_point() == 0
        assert np.array_equal(to_numpy(ours.int_repr()), to_numpy(theirs.int_repr()))
        assert ours.qscheme() is core.per_tensor_affine


@pytest.mark.parametrize("seed", range(8))
def test_outputs_match_torch_bit_for_bit(torch, seed):
    rng = np.random.default_rng(seed)
    sizes = tuple(int(n) for n in rng.integers(1, 48, size=3))
    cq, tq = _quantized_pair(torch, sizes, seed)
    x = (rng.standard_normal((int(rng.integers(1, 9)), sizes[0])) * rng.uniform(0.05, 20)).astype(np.float32)
    ours, theirs = cq(core.tensor(x)), tq(torch.tensor(x))
    assert ours.dtype is core.float32 and tuple(ours.shape) == tuple(theirs.shape)
    assert np.array_equal(to_numpy(ours), to_numpy(theirs))


def test_inputs_with_more_dims_and_all_zero_inputs_match_torch(torch):
    cq, tq = _quantized_pair(torch)
    for x in (np.random.default_rng(1).standard_normal((2, 3, 16)).astype(np.float32),
              np.zeros((4, 16), np.float32), np.abs(np.random.default_rng(2).standard_normal((3, 16))).astype(
                  np.float32)):
        assert np.array_equal(to_numpy(cq(core.tensor(x))), to_numpy(tq(torch.tensor(x))))


def test_quantize_dynamic_copies_and_puts_the_model_in_eval_mode(torch):
    model = _model(core)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q = core.ao.quantization.quantize_dynamic(model, {core.nn.Linear}, dtype=core.qint8)
    assert isinstance(model[0], core.nn.Linear) and model.training
    assert isinstance(q[0], core.ao.nn.quantized.dynamic.Linear) and not q.training


def test_quantize_dynamic_warns_as_torch_does(torch):
    with pytest.warns(DeprecationWarning, match="torch.ao.quantization is deprecated"):
        core.ao.quantization.quantize_dynamic(_model(core), {core.nn.Linear}, dtype=core.qint8)


def test_state_dict_has_torchs_keys_and_round_trips_through_save(torch, tmp_path):
    cq, tq = _quantized_pair(torch)
    assert list(cq.state_dict()) == list(tq.state_dict())
    core.save(cq.state_dict(), tmp_path / "q.pt")
    loaded = core.load(tmp_path / "q.pt", weights_only=False)
    weight, bias = loaded["0._packed_params._packed_params"]
    assert np.array_equal(to_numpy(weight.int_repr()), to_numpy(cq[0].weight().int_repr()))


def test_torch_quantization_is_the_ao_module(torch):
    assert core.quantization.quantize_dynamic is core.ao.quantization.quantize_dynamic
    assert torch.quantization.quantize_dynamic is torch.ao.quantization.quantize_dynamic


def test_submodule_names_select_what_is_quantized(torch):
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = core.ao.quantization.quantize_dynamic(
            _model(core), {"2": core.ao.quantization.default_dynamic_qconfig, "0": None}, dtype=core.qint8)
        theirs = torch.ao.quantization.quantize_dynamic(
            _model(torch), {"2": torch.ao.quantization.default_dynamic_qconfig, "0": None}, dtype=torch.qint8)
    assert repr(ours) == repr(theirs)


def _lstm_pair(torch, seed, **kwargs):
    """The word language model tutorial's shape: an LSTM and a Linear decoder, quantized in both libraries."""
    def model(lib):
        class LSTMModel(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = lib.nn.LSTM(6, 8, **kwargs)
                self.decoder = lib.nn.Linear(16 if kwargs.get("bidirectional") else 8, 5)

            def forward(self, x, hidden=None):
                out, hidden = self.rnn(x, hidden)
                return self.decoder(out), hidden
        return LSTMModel()

    torch.manual_seed(seed)
    theirs = model(torch)
    ours = model(core)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tq = torch.ao.quantization.quantize_dynamic(theirs, {torch.nn.LSTM, torch.nn.Linear}, dtype=torch.qint8)
        cq = core.ao.quantization.quantize_dynamic(ours, {core.nn.LSTM, core.nn.Linear}, dtype=core.qint8)
    return cq, tq


@pytest.mark.parametrize("kwargs", [{}, {"num_layers": 2}, {"bidirectional": True}, {"batch_first": True}])
def test_quantized_lstm_prints_and_runs_as_torchs(torch, kwargs):
    cq, tq = _lstm_pair(torch, 0, **kwargs)
    assert repr(cq) == repr(tq)
    assert list(cq.state_dict()) == list(tq.state_dict())
    x = np.random.default_rng(0).standard_normal((5, 3, 6)).astype(np.float32)
    ours, theirs = cq(core.tensor(x)), tq(torch.tensor(x))
    # the integer parts are torch's exactly; the gates' sigmoid/tanh are core's (an ulp apart on some layouts)
    for a, b in zip((ours[0], *ours[1]), (theirs[0], *theirs[1])):
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(to_numpy(a), to_numpy(b), rtol=0, atol=1e-6)


def test_quantized_lstm_takes_an_initial_state(torch):
    cq, tq = _lstm_pair(torch, 1, num_layers=2)
    rng = np.random.default_rng(1)
    x, h, c = (rng.standard_normal(s).astype(np.float32) for s in ((4, 2, 6), (2, 2, 8), (2, 2, 8)))
    ours = cq(core.tensor(x), (core.tensor(h), core.tensor(c)))
    theirs = tq(torch.tensor(x), (torch.tensor(h), torch.tensor(c)))
    np.testing.assert_allclose(to_numpy(ours[0]), to_numpy(theirs[0]), rtol=0, atol=1e-6)


def test_default_specification_quantizes_linear_and_lstm(torch):
    cq, tq = _lstm_pair(torch, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = core.ao.quantization.quantize_dynamic(_lstm_model_float(core), dtype=core.qint8)
        theirs = torch.ao.quantization.quantize_dynamic(_lstm_model_float(torch), dtype=torch.qint8)
    assert repr(ours) == repr(theirs)


def _lstm_model_float(lib):
    return lib.nn.Sequential(lib.nn.LSTM(4, 4))


@pytest.mark.parametrize("kwargs", [{}, {"num_layers": 2, "bidirectional": True}, {"batch_first": True}])
def test_quantized_gru_prints_and_runs_as_torchs(torch, kwargs):
    torch.manual_seed(0)
    theirs = torch.nn.Sequential(torch.nn.GRU(6, 8, **kwargs))
    ours = core.nn.Sequential(core.nn.GRU(6, 8, **kwargs))
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tq = torch.ao.quantization.quantize_dynamic(theirs, {torch.nn.GRU}, dtype=torch.qint8)
        cq = core.ao.quantization.quantize_dynamic(ours, {core.nn.GRU}, dtype=core.qint8)
    assert repr(cq) == repr(tq)
    x = np.random.default_rng(2).standard_normal((5, 3, 6)).astype(np.float32)
    (out, h), (tout, th) = cq[0](core.tensor(x)), tq[0](torch.tensor(x))
    for a, b in ((out, tout), (h, th)):
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_allclose(to_numpy(a), to_numpy(b), rtol=0, atol=1e-6)


def test_the_quantized_engine_setting_reads_and_checks_as_torchs(torch):
    ours, theirs = core.backends.quantized, torch.backends.quantized
    assert ours.engine == theirs.engine and ours.supported_engines == theirs.supported_engines
    before = theirs.engine
    try:
        ours.engine = theirs.engine = "fbgemm"
        assert ours.engine == theirs.engine == "fbgemm"
        for lib in (ours, theirs):
            with pytest.raises(RuntimeError, match="foo is not a valid value for quantized engine"):
                lib.engine = "foo"
    finally:
        ours.engine = theirs.engine = before


@pytest.mark.parametrize("seed", range(4))
def test_per_channel_weights_give_torchs_outputs_bit_for_bit(torch, seed):
    rng = np.random.default_rng(seed)
    sizes = tuple(int(n) for n in rng.integers(1, 40, size=3))
    torch.manual_seed(seed)
    theirs = _model(torch, sizes)
    ours = _model(core, sizes)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tq = torch.ao.quantization.quantize_dynamic(
            theirs, {torch.nn.Linear: torch.ao.quantization.per_channel_dynamic_qconfig}, dtype=torch.qint8)
        cq = core.ao.quantization.quantize_dynamic(
            ours, {core.nn.Linear: core.ao.quantization.per_channel_dynamic_qconfig}, dtype=core.qint8)
    assert repr(cq) == repr(tq)
    assert np.array_equal(to_numpy(cq[0].weight().q_per_channel_scales()),
                          to_numpy(tq[0].weight().q_per_channel_scales()))
    x = (rng.standard_normal((3, sizes[0])) * 4).astype(np.float32)
    assert np.array_equal(to_numpy(cq(core.tensor(x))), to_numpy(tq(torch.tensor(x))))
