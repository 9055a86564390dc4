"""nn.AdaptiveLogSoftmaxWithLoss gives PyTorch's outputs, loss, gradients, log_prob, predict and errors."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

X = np.random.default_rng(0).standard_normal((6, 16)).astype(np.float32)
T = np.array([0, 3, 5, 9, 12, 19])


def pair(torch, **kw):
    theirs = torch.nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[4, 10], div_value=2.0, **kw)
    ours = core.nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[4, 10], div_value=2.0, **kw)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


@pytest.mark.parametrize("head_bias", [False, True])
def test_forward_gives_torchs_outputs_loss_and_gradients(torch, head_bias):
    results = []
    for lib, m in zip((core, torch), pair(torch, head_bias=head_bias)):
        x = lib.tensor(X, requires_grad=True)
        out = m(x, lib.tensor(T))
        out.loss.backward()
        results.append((repr(m), type(out).__name__, out.output, out.loss, x.grad,
                        [p.grad for p in m.parameters()]))
    assert results[0][:2] == results[1][:2]
    assert_same(results[0][2:], results[1][2:])


def test_unbatched_input_and_log_prob_and_predict_match_torch(torch):
    results = []
    for lib, m in zip((core, torch), pair(torch)):
        one = m(lib.tensor(X[0]), lib.tensor(11))
        results.append((one.output, one.loss, m.log_prob(lib.tensor(X)), m.predict(lib.tensor(X))))
    assert_same(results[0], results[1])


def test_same_seed_gives_torchs_initial_weights(torch):
    weights = []
    for lib in (core, torch):
        lib.manual_seed(0)
        weights.append(list(lib.nn.AdaptiveLogSoftmaxWithLoss(16, 20, [2, 5]).state_dict().values()))
    assert_same(weights[0], weights[1])


@pytest.mark.parametrize("bad", [
    lambda lib, m: m(lib.tensor(X), lib.tensor([0, 1])),
    lambda lib, m: m(lib.tensor(X), lib.tensor([0, 1, 2, 3, 4, 25])),
    lambda lib, m: m(lib.tensor(X), lib.zeros(6, 2, dtype=lib.long)),
    lambda lib, m: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [5, 3]),
    lambda lib, m: lib.nn.AdaptiveLogSoftmaxWithLoss(8, 10, []),
], ids=["batch-size", "target-range", "2d-target", "unsorted-cutoffs", "no-cutoffs"])
def test_bad_targets_and_cutoffs_raise_torchs_errors(torch, bad):
    errors = []
    for lib, m in zip((core, torch), pair(torch)):
        with pytest.raises((RuntimeError, ValueError)) as info:
            bad(lib, m)
        errors.append((type(info.value).__name__, str(info.value)))
    assert errors[0] == errors[1]
