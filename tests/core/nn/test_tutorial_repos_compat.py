"""Behaviour that small tutorial repositories (nlp-tutorial, PyTorchZeroToAll, Machine-Learning-Collection) rely on,
checked against PyTorch: what they print, and the errors old code meets."""

from __future__ import annotations

import pytest

import core


@pytest.mark.parametrize("loss", ["cross_entropy", "nll_loss"])
@pytest.mark.parametrize("shape", [(1, 5), (3, 5), (2, 3, 4)])
def test_a_0d_target_for_a_batch_reports_torchs_batch_size_message(torch, loss, shape):
    # char-RNN code passes target[c] (0-d) for a [1, C] output: torch names the target's batch size 0
    messages = []
    for lib in (torch, core):
        with pytest.raises(ValueError) as info:
            getattr(lib.nn.functional, loss)(lib.zeros(*shape), lib.tensor(1))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
