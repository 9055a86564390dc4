"""Large softmax/log_softmax (issue #19): SLEEF's exp blocks shared among ``core.get_num_threads()`` threads and
softmax's exps written into its shifted input give torch's bits, on any thread count, with the values that take
SLEEF's out-of-range path (far below the row's max, -inf, nan) among them."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

RNG = np.random.default_rng(19)


def _logits(rows: int, cols: int, *, extremes: bool) -> np.ndarray:
    x = (RNG.standard_normal((rows, cols)) * 8).astype(np.float32)
    if extremes:
        x[:, ::97] = -300.0  # exp of -300 - max: SLEEF's flush to 0
        x[3, ::5] = -np.inf
        x[5, 7] = np.nan
    return x


@pytest.fixture
def threads():
    before = core.get_num_threads()
    yield
    core.set_num_threads(before)


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("extremes", [False, True])
@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
def test_a_large_softmax_gives_torchs_bits_on_any_thread_count(torch, threads, count, extremes, op):
    x = _logits(64, 8191, extremes=extremes)  # 16+ SLEEF blocks: shared among the threads
    core.set_num_threads(count)
    ours = getattr(core, op)(core.tensor(x), -1)
    assert_same(ours, getattr(torch, op)(torch.tensor(x), -1), rtol=0, atol=0)


def test_softmax_of_a_transposed_input_over_its_last_dim_gives_torchs_bits(torch):
    x = _logits(2048, 160, extremes=True).T  # (a non-contiguous shift: the exps are not written in place)
    assert_same(core.softmax(core.tensor(x), -1), torch.softmax(torch.tensor(x), -1), rtol=0, atol=0)
    assert_same(core.tensor(x).softmax(0), torch.tensor(x).softmax(0), rtol=0, atol=0)
