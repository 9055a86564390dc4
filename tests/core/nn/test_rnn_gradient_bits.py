"""float32 nn.RNN (tanh, relu) and nn.GRU give PyTorch's gradients bit for bit on the CPU: torch runs them as the
composite steps (only the float32 LSTM goes to oneDNN), so the fused layer's backward (``core.nn.modules._fused_rnn``)
takes the composite's ops in their order: ``tanh_backward``'s single rounding, ``sigmoid_backward``'s products, the
previous state's gradient terms in the order the engine adds them, and each step's products through ``core.mm``."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.nn.test_fused_rnn import wrapper
from tests.core.nn.test_rnn import pair, run
from tests.core.oracle import to_numpy
from tests.core.reference_cpu import assert_bits_where_blocked

KINDS = [("RNN", {}), ("RNN", {"nonlinearity": "relu"}), ("GRU", {})]
KIND_IDS = ["rnn-tanh", "rnn-relu", "gru"]
CONFIGS = [{}, {"batch_first": True}, {"num_layers": 2}, {"bidirectional": True},
           {"num_layers": 2, "bidirectional": True, "batch_first": True}]
CONFIG_IDS = ["plain", "batch-first", "deep", "bi", "deep-bi-bf"]
# NOTE: where core does not follow MKL's blocked float32 sgemm (M >= 4, N >= 12: a deep layer's input product, the
# weights' gradients; tests.core.reference_cpu), NumPy's GEMM was measured (an AMD Zen 3 before core._openblas_chains)
# within 5 ulps of each array's largest magnitude, 57 of these 91 cases bit for bit
MAX_ULP = 5
def step_cases():
    for steps in (1, 2, 5, 10):
        for config, cid in zip(CONFIGS, CONFIG_IDS):
            yield pytest.param(config, steps, id=f"{cid}-{steps}")


def inputs(config, steps, batch, hidden, given, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, steps, 3) if config.get("batch_first") else (steps, batch, 3)).astype(np.float32)
    layers = config.get("num_layers", 1) * (2 if config.get("bidirectional") else 1)
    return x, rng.standard_normal((layers, batch, hidden)).astype(np.float32) if given else None


def assert_bits(torch, name, kw, config, x, h0, hidden, wrap=lambda lib, t: t):
    torch.manual_seed(0)
    ours, theirs = pair(torch, name, 3, hidden, dtype="float32", **kw, **config)
    _, oo, go, po = run(core, ours, x, h0, wrap)
    _, ot, gt, pt = run(torch, theirs, x, h0, wrap)
    for a, b in zip(oo + go, ot + gt):
        assert_bits_where_blocked(to_numpy(a), to_numpy(b), MAX_ULP, of_largest=True)
    for key in pt:
        assert_bits_where_blocked(to_numpy(po[key]), to_numpy(pt[key]), MAX_ULP, of_largest=True)


@pytest.mark.parametrize(("config", "steps"), list(step_cases()))
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_float32_gradients_are_torchs_bits(torch, name, kw, config, steps):
    x, h0 = inputs(config, steps, 3, 32, given=steps % 2 == 0)
    assert_bits(torch, name, kw, config, x, h0, 32)


@pytest.mark.parametrize("hidden", [5, 8, 16, 24, 48])
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_float32_gradients_are_torchs_bits_on_narrow_gates(torch, name, kw, hidden):
    x, h0 = inputs({"bidirectional": True}, 7, 2, hidden, given=True)
    assert_bits(torch, name, kw, {"bidirectional": True}, x, h0, hidden)


@pytest.mark.parametrize(("how", "layers"), [("packed-sorted", 1), ("packed-sorted", 2), ("packed-unsorted", 1),
                                             pytest.param("packed-unsorted", 2)])
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=KIND_IDS)
def test_float32_gradients_of_packed_sequences_are_torchs_bits(torch, name, kw, how, layers):
    config = {"bidirectional": True, "num_layers": layers}
    x, h0 = inputs(config, 5, 4, 32, given=True)
    assert_bits(torch, name, kw, config, x, h0, 32, wrap=wrapper(how, False))


@pytest.fixture
def without_onednn(torch, monkeypatch):
    """torch's oneDNN off (its float32 CPU LSTM then runs the composite cell), and core's switch with it."""
    monkeypatch.setattr(core.backends.mkldnn, "enabled", False)
    with torch.backends.mkldnn.flags(enabled=False):
        yield


@pytest.mark.parametrize(("config", "steps"), [({}, 1), ({}, 5), ({"batch_first": True}, 10),
                                               ({"num_layers": 2, "bidirectional": True}, 5)])
def test_float32_lstm_gradients_are_torchs_bits_without_onednn(torch, without_onednn, config, steps):
    x, h0 = inputs(config, steps, 3, 32, given=True)
    c0 = np.random.default_rng(7).standard_normal(h0.shape).astype(np.float32)
    assert_bits(torch, "LSTM", {}, config, x, (h0, c0), 32)
