"""``core.embedding_bag`` (ATen's form at ``torch.embedding_bag``) against torch's: the output and its gradient,
and the three index results (``offset2bag``, ``bag_size``, ``max_indices``) for sum, mean and max bags, with empty
bags, ``include_last_offset``, ``padding_idx`` and per-sample weights.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

INDICES = np.array([0, 1, 2, 4, 5, 1, 3, 3])
# (offsets, mode, include_last_offset, padding_idx, per-sample weights)
CASES = {
    "sum": ([0, 2, 2, 5], 0, False, None, False),
    "mean": ([0, 2, 2, 5], 1, False, None, False),
    "max": ([0, 2, 2, 5], 2, False, None, False),
    "sum_last_offset": ([0, 3, 3, 8], 0, True, None, False),
    "mean_last_offset": ([0, 3, 3, 8], 1, True, None, False),
    "max_last_offset": ([0, 3, 3, 8], 2, True, None, False),
    "sum_padding": ([0, 2, 4], 0, False, 1, False),
    "mean_padding": ([0, 2, 4], 1, False, 3, False),
    "max_padding": ([0, 2, 4], 2, False, 1, False),
    "sum_weighted": ([0, 3, 6], 0, False, None, True),
    "mean_padding_minus_one": ([0, 4], 1, False, -1, False),
    "one_bag": ([0], 1, False, None, False),
}


def _run(lib, name, weight, psw):
    offsets, mode, last, padding_idx, weighted = CASES[name]
    w = lib.tensor(weight, requires_grad=True)
    per_sample = lib.tensor(psw) if weighted else None
    out = lib.embedding_bag(w, lib.tensor(INDICES), lib.tensor(offsets), False, mode, False, per_sample, last,
                            padding_idx)
    (out[0] * lib.arange(out[0].numel(), dtype=w.dtype).view(out[0].shape)).sum().backward()
    return [*out, w.grad]


@pytest.mark.parametrize("name", list(CASES))
def test_embedding_bag_gives_torchs_four_results_and_gradient(torch, name):
    rng = np.random.default_rng(3)
    weight, psw = rng.standard_normal((6, 3)), rng.standard_normal(len(INDICES))
    assert_same(_run(core, name, weight, psw), _run(torch, name, weight, psw), rtol=1e-12, atol=1e-12)
    weight, psw = weight.astype(np.float32), psw.astype(np.float32)
    assert_same(_run(core, name, weight, psw), _run(torch, name, weight, psw))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["sum", "sum_last_offset", "sum_padding", "mean_last_offset", "max"])
def test_embedding_bag_without_grad_gives_torchs_forward_only_results(torch, name, dtype):
    def run(lib):
        offsets, mode, last, padding_idx, _ = CASES[name]
        w = lib.tensor((np.arange(18.0).reshape(6, 3) * 7 % 5).astype(dtype))
        return list(lib.embedding_bag(w, lib.tensor(INDICES), lib.tensor(offsets), False, mode, False, None, last,
                                      padding_idx))

    assert_same(run(core), run(torch))


def test_embedding_bag_defaults_are_a_sum(torch):
    def run(lib):
        w = lib.tensor(np.arange(12.0, dtype=np.float32).reshape(6, 2))
        return list(lib.embedding_bag(w, lib.tensor([0, 1, 5]), lib.tensor([0, 1])))

    assert_same(run(core), run(torch))
