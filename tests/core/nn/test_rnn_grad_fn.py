"""A recurrent layer's output and states carry the grad_fn names and strides PyTorch's CPU kernels give them.

Tutorials print an LSTM's output (``grad_fn=<MkldnnRnnLayerBackward0>``), so the last node is visible text.
"""

from __future__ import annotations

import pytest

import core
from tests.core.nn.test_rnn import compare, pair, randn

KINDS = [("RNN", {}), ("LSTM", {}), ("GRU", {})]
CONFIGS = [{}, {"num_layers": 2}, {"bidirectional": True}, {"batch_first": True},
           {"batch_first": True, "bidirectional": True}, {"bias": False}]
CONFIG_IDS = ["plain", "deep", "bi", "batch-first", "batch-first-bi", "no-bias"]


def names(result) -> list:
    out, hidden = result
    states = hidden if isinstance(hidden, tuple) else (hidden,)
    return [t.grad_fn.name() if t.grad_fn is not None else None for t in (out, *states)]


def both(torch, name, config, x, dtype="float32", **kw):
    ours, theirs = pair(torch, name, 3, 4, dtype=dtype, **kw, **config)
    return ours(core.tensor(x).to(getattr(core, dtype))), theirs(torch.tensor(x).to(getattr(torch, dtype)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize(("name", "kw"), KINDS, ids=["rnn", "lstm", "gru"])
def test_output_and_state_grad_fns_are_torchs(torch, name, kw, config, dtype):
    x = randn(2, 5, 3) if config.get("batch_first") else randn(5, 2, 3)
    ours, theirs = both(torch, name, config, x, dtype, **kw)
    assert names(ours) == names(theirs)
    assert ours[0].stride() == theirs[0].stride()
    assert ours[0].is_contiguous() == theirs[0].is_contiguous()


@pytest.mark.parametrize(("name", "kw"), KINDS, ids=["rnn", "lstm", "gru"])
def test_unbatched_output_is_squeezed_like_torchs(torch, name, kw):
    ours, theirs = both(torch, name, {"batch_first": True}, randn(5, 3), **kw)
    assert names(ours) == names(theirs)
    assert ours[0].grad_fn.next_functions[0][0].name() == theirs[0].grad_fn.next_functions[0][0].name()


@pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")
def test_projected_lstm_stacks_its_steps_as_torchs_default_kernel_does(torch):
    ours, theirs = both(torch, "LSTM", {"proj_size": 2}, randn(5, 2, 3))
    assert names(ours) == names(theirs) == ["StackBackward0"] * 3


def test_float32_batch_first_lstm_gradients_pass_through_its_output_node(torch):
    ours, theirs = pair(torch, "LSTM", 3, 4, dtype="float32", batch_first=True, num_layers=2)
    compare(torch, ours, theirs, randn(2, 5, 3).astype("float32"), rtol=1e-5, atol=1e-6)


def test_output_has_no_grad_fn_without_grad_mode(torch):
    ours, theirs = pair(torch, "LSTM", 3, 4, dtype="float32")
    with core.no_grad():
        out, _ = ours(core.randn(5, 2, 3))
    with torch.no_grad():
        expected, _ = theirs(torch.randn(5, 2, 3))
    assert out.grad_fn is None and expected.grad_fn is None
