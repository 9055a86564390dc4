"""``F.ctc_loss`` and ``nn.CTCLoss`` against PyTorch: losses, gradients (raw and after log_softmax), target
layouts, reductions, zero_infinity and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_error, check_grads

RNG = np.random.default_rng(4)
T, N, C = 12, 3, 5
LOGITS = RNG.standard_normal((T, N, C)).astype(np.float32)
TARGETS = RNG.integers(1, C, (N, 4))
TARGETS[0, 1] = TARGETS[0, 0]  # a repeated label needs a blank between its two frames
IN_LEN, TGT_LEN = [12, 10, 7], [4, 2, 3]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("normalised", [True, False])
def test_ctc_loss_matches_torch_with_gradients(torch, reduction, normalised):
    def fn(lib, x):
        lp = x.log_softmax(2) if normalised else x  # raw log_probs: torch's gradient is exp(lp) - posterior
        return lib.nn.functional.ctc_loss(lp, lib.tensor(TARGETS), lib.tensor(IN_LEN), lib.tensor(TGT_LEN),
                                          reduction=reduction)

    check_grads(fn, [LOGITS], torch, rtol=1e-4, atol=1e-5)


def test_ctc_loss_takes_concatenated_targets_lists_and_unbatched_input_like_torch(torch):
    flat = np.concatenate([TARGETS[i, :TGT_LEN[i]] for i in range(N)])

    def fn(lib, x):
        lp = x.log_softmax(-1)
        batched = lib.nn.CTCLoss(reduction="none")(lp, lib.tensor(flat), IN_LEN, TGT_LEN)
        single = lib.nn.functional.ctc_loss(lp[:, 1], lib.tensor(TARGETS[1, :2]), lib.tensor(10), lib.tensor(2))
        return lib.cat([batched, single.reshape(1)])

    check_grads(fn, [LOGITS], torch, rtol=1e-4, atol=1e-5)


def test_ctc_loss_zero_infinity_zeroes_impossible_alignments_like_torch(torch):
    outs = []
    for lib in (core, torch):
        x = lib.tensor(LOGITS[:3], requires_grad=True)
        loss = lib.nn.CTCLoss(zero_infinity=True, reduction="none")(x.log_softmax(2), lib.tensor(TARGETS), [3, 3, 3],
                                                                     TGT_LEN)
        loss.sum().backward()
        inf = lib.nn.functional.ctc_loss(x.detach().log_softmax(2), lib.tensor(TARGETS), [3, 3, 3], TGT_LEN,
                                         reduction="none")
        outs.append([loss, x.grad, inf])
    assert_same(outs[0], outs[1], rtol=1e-4, atol=1e-5)
    assert repr(core.nn.CTCLoss()) == "CTCLoss()"


def test_ctc_loss_rejects_input_lengths_longer_than_the_input_like_torch(torch):
    check_error(lambda lib, x: lib.nn.functional.ctc_loss(x, lib.tensor(TARGETS), [13, 3, 3], TGT_LEN), [LOGITS],
                torch, match="Expected input_lengths to have value at most 12")
