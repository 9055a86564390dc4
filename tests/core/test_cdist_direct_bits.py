"""``torch.cdist``'s direct route (no matrix product) for p = 1 and 2, bit for bit against PyTorch (#19).

ATen's ``run_parallel_cdist`` adds one pair's terms one feature at a time; its compiled p = 2 loop rounds the squares
of the unrolled part and fuses the last M % 4 (float32) or M % 2 (float64) into multiply-adds. A norm kernel's
vector lanes (core's earlier route) differed in the last bit of ~half the distances: sentence-transformers'
``util.manhattan_sim``/``euclidean_sim`` and their ``similarity`` functions showed it.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core

SHAPES = [((4, 1), (5, 1)), ((4, 15), (5, 15)), ((6, 17), (7, 17)), ((3, 32), (9, 32)), ((2, 30, 8), (2, 12, 8)),
          ((25, 64), (25, 64)), ((3, 100), (7, 100)), ((2, 1, 5, 7), (3, 6, 7)), ((5, 0), (3, 0))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("p", [1.0, 2.0])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_cdist_direct_route_bits(shapes, p, dtype):
    rng = np.random.default_rng(sum(map(sum, shapes)))
    a, b = (rng.standard_normal(s).astype(dtype) * 3 for s in shapes)
    kw = dict(p=p, compute_mode="donot_use_mm_for_euclid_dist")
    want = torch.cdist(torch.from_numpy(a), torch.from_numpy(b), **kw).numpy()
    got = core.cdist(core.from_numpy(a), core.from_numpy(b), **kw).numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)


@pytest.mark.parametrize("p", [1.0, 2.0])
def test_cdist_default_mode_few_rows_and_specials(p):
    """Few rows (at most 25 on each side) take the direct route by default; inf and NaN propagate as PyTorch's."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((6, 13)).astype(np.float32)
    b = rng.standard_normal((9, 13)).astype(np.float32)
    a[1, 3], b[2, 5], a[4, 0] = np.inf, np.nan, -0.0
    want = torch.cdist(torch.from_numpy(a), torch.from_numpy(b), p=p).numpy()
    got = core.cdist(core.from_numpy(a), core.from_numpy(b), p=p).numpy()
    assert np.array_equal(got, want, equal_nan=True)


def test_sentence_transformers_similarities_match():
    """util.manhattan_sim and euclidean_sim as sentence-transformers computes them: -cdist of float32 embeddings."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((4, 32)).astype(np.float32), rng.standard_normal((5, 32)).astype(np.float32)
    for p in (1.0, 2.0):
        want = (-torch.cdist(torch.from_numpy(a), torch.from_numpy(b), p=p)).numpy()
        got = (-core.cdist(core.from_numpy(a), core.from_numpy(b), p=p)).numpy()
        assert np.array_equal(got, want)
