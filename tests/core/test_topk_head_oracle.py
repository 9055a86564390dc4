"""``topk`` with a short head over long rows (``topk(logits, 50)`` over a 50257-token vocabulary) sorts only the
head, and still returns PyTorch's values and indices: ties at and across the k-th place, signed zeros, infinities,
NaN, other dims, ``largest=False``, ``sorted=False``, k = 0 and half precision; oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _rows(kind: str) -> np.ndarray:
    rng = np.random.default_rng(7)
    x = rng.standard_normal((3, 400)).astype(np.float32)
    if kind == "ties":  # many equal values, some across the k-th place
        x = np.round(x * 2) / 2
    elif kind == "zeros_and_infs":
        x[:, ::7] = 0.0
        x[:, 3::11] = -0.0
        x[0, 5] = x[1, 9] = np.inf
        x[2, 4] = -np.inf
    elif kind == "nan":
        x[1, 17] = np.nan
    elif kind == "masked":  # top-k sampling's masked logits: most of a row is -inf
        x[:, 30:] = -np.inf
    return x


@pytest.mark.parametrize("kind", ["plain", "ties", "zeros_and_infs", "nan", "masked"])
@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k", [0, 1, 5, 50, 99])
def test_topk_of_a_short_head_gives_torchs_values_and_indices(torch, kind, largest, k):
    out = []
    for lib in (core, torch):
        values, indices = lib.topk(lib.tensor(_rows(kind)), k, largest=largest)
        out.append((values.numpy().tobytes(), indices.tolist()))
    assert out[0] == out[1]


@pytest.mark.parametrize("dtype", ["float16", "float64"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_topk_along_any_dim_and_dtype_gives_torchs_result(torch, dtype, dim):
    x = np.random.default_rng(3).standard_normal((40, 48, 44)).astype(np.float32)
    out = []
    for lib in (core, torch):
        values, indices = lib.topk(lib.tensor(x, dtype=getattr(lib, dtype)), 3, dim=dim)
        out.append((values.float().numpy().tobytes(), indices.tolist()))
    assert out[0] == out[1]


def test_unsorted_topk_of_a_short_head_gives_torchs_order(torch):
    out = []
    for lib in (core, torch):
        values, indices = lib.topk(lib.tensor(_rows("plain")), 20, sorted=False)
        out.append(indices.tolist())
    assert out[0] == out[1]


def test_topk_gradient_reaches_the_head_positions(torch):
    grads = []
    for lib in (core, torch):
        x = lib.tensor(_rows("plain"), requires_grad=True)
        (lib.topk(x, 4).values * lib.arange(4.0)).sum().backward()
        grads.append(x.grad.numpy().tobytes())
    assert grads[0] == grads[1]
