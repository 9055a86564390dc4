"""TransformerEncoder in eval mode with a key padding mask takes PyTorch's nested-tensor path there, whose output
is zero at padded positions; core gives those zeros in the same cases (and the computed values otherwise)."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

X = np.random.default_rng(0).standard_normal((2, 4, 8)).astype(np.float32)
END_PADDED = np.array([[False, False, True, True], [False, False, False, False]])
HOLES = np.array([[False, True, False, True], [False, False, False, False]])


def _encoders(torch, **kw):
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True)
    theirs = torch.nn.TransformerEncoder(layer, num_layers=2, **kw)
    ours = core.nn.TransformerEncoder(
        core.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, batch_first=True), num_layers=2, **kw)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


def _run(lib, enc, pad, *, train=False, grad=False, float_mask=False):
    enc.train(train)
    mask = lib.tensor(pad)
    if float_mask:
        mask = lib.zeros(pad.shape).masked_fill(mask, float("-inf"))
    with lib.set_grad_enabled(grad):
        return enc(lib.tensor(X), src_key_padding_mask=mask).detach()


@pytest.mark.parametrize("pad, kw", [(END_PADDED, {}), (END_PADDED, {"float_mask": True}), (HOLES, {}),
                                     (END_PADDED, {"grad": True})],
                         ids=["padding_at_the_end", "float_mask", "padding_not_left_aligned", "grad_enabled"])
def test_eval_output_at_padded_positions_is_torchs(pad, kw, torch):
    ours, theirs = _encoders(torch)
    assert_same(_run(core, ours, pad, **kw), _run(torch, theirs, pad, **kw), rtol=1e-4, atol=1e-5)


def test_padded_rows_are_zero_in_eval_and_computed_in_training(torch):
    ours, theirs = _encoders(torch)
    assert np.all(_run(core, ours, END_PADDED).numpy()[0, 2:] == 0)
    torch.manual_seed(1)
    core.manual_seed(1)
    for layer in list(ours.layers) + list(theirs.layers):  # training mode without dropout draws
        layer.dropout.p = layer.dropout1.p = layer.dropout2.p = 0.0
    trained = _run(core, ours, END_PADDED, train=True)
    assert not np.all(trained.numpy()[0, 2:] == 0)
    assert_same(trained, _run(torch, theirs, END_PADDED, train=True), rtol=1e-4, atol=1e-5)


def test_the_fast_path_switch_turns_the_zeros_off_as_in_torch(torch):
    ours, theirs = _encoders(torch)
    for lib in (core, torch):
        lib.backends.mha.set_fastpath_enabled(False)
    try:
        assert_same(_run(core, ours, END_PADDED), _run(torch, theirs, END_PADDED), rtol=1e-4, atol=1e-5)
        assert not np.all(_run(core, ours, END_PADDED).numpy()[0, 2:] == 0)
    finally:
        for lib in (core, torch):
            lib.backends.mha.set_fastpath_enabled(True)
