"""Many short rows (a classifier's logits) take the row max and the row sums of exps through a transposed copy
reduced along its first axis (``core._lane_sum.row_max``, ``lane_row_sum``): softmax, log_softmax and
cross_entropy keep torch's bits there, forward and backward, signed zeros, ties, infinities and NaN included."""

import numpy as np
import pytest

import core
from core._lane_sum import lane_row_sum, row_max


def _logits(shape, pattern, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 4).astype(np.float32)
    if pattern == "zeros":  # rows of +0 and -0: every element a maximum
        x = np.where(rng.random(shape) < 0.5, -0.0, 0.0).astype(np.float32)
    elif pattern == "ties":  # whole numbers, zeros of both signs among them
        x = np.round(x / 4)
        x[x == 0] = np.where(rng.random(int((x == 0).sum())) < 0.5, -0.0, 0.0)
    elif pattern == "specials":
        flat = x.reshape(-1)
        flat[::7], flat[1::11], flat[2::13] = np.nan, np.inf, -np.inf
    elif pattern == "confident":  # one large logit a row: the sum of exps rounds to 1
        x[:, 0] = 60
    return x


@pytest.mark.parametrize("shape", [(64, 10), (16, 2), (100, 32), (3, 17, 5), (40, 1)])
@pytest.mark.parametrize("pattern", ["spread", "zeros", "ties", "specials", "confident"])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_short_rows_softmax_forward_and_backward_match_torch_bit_for_bit(torch, shape, pattern, op):
    x = _logits(shape, pattern, len(shape) + shape[-1])
    g = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(lib, op)(t, -1)
        y.backward(lib.tensor(g))
        results.append((y.detach().numpy(), t.grad.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)
        finite = np.isfinite(theirs)
        assert ours[finite].tobytes() == theirs[finite].tobytes()


@pytest.mark.parametrize("pattern", ["spread", "ties", "confident"])
def test_a_batch_of_64_cross_entropy_steps_matches_torch_bit_for_bit(torch, pattern):
    x = _logits((64, 10), pattern, 3)
    target = np.random.default_rng(4).integers(0, 10, 64)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(t, lib.tensor(target))
        loss.backward()
        results.append((loss.detach().numpy(), t.grad.numpy()))
    for ours, theirs in zip(*results):
        assert ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("shape", [(64, 10), (16, 3), (3, 17, 5), (64, 15)])
def test_short_rows_sums_add_left_to_right_from_the_first_element(shape):
    """The transposed route's sum starts from the first element, not from +0 (NumPy's add would): rows of -0 sum
    to -0 as ``np.cumsum`` adds them; the max equals NumPy's row by row on values."""
    rng = np.random.default_rng(0)
    e = np.where(rng.random(shape) < 0.5, -0.0, 0.0).astype(np.float32)
    e[0] = -0.0
    sums = lane_row_sum(e)
    assert sums.shape == (*shape[:-1], 1)
    assert sums.tobytes() == np.cumsum(e, axis=-1)[..., -1:].tobytes()
    assert np.signbit(sums.reshape(-1)[0])
    x = rng.standard_normal(shape).astype(np.float32)
    assert row_max(x).tobytes() == np.max(x, axis=-1, keepdims=True).tobytes()
