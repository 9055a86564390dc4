"""``exponential_`` into float32, float16 and bfloat16 draws PyTorch's values bit for bit while it takes NumPy's
vectorised ``log1p`` (and the C library's only near a float32 rounding boundary); ``multinomial`` over a
GPT-2-sized vocabulary, which draws one exponential per category, samples torch's tokens; oracle tests."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _bits(t) -> np.ndarray:
    return t.float().numpy().view(np.int32)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64"])
@pytest.mark.parametrize("lambd", [1.0, 0.37, 25.0])
def test_exponential_draws_torchs_values_bit_for_bit(torch, dtype, lambd):
    n = 200_000 if dtype != "float64" else 20_000  # enough float32 draws for a few near a rounding boundary
    draws = []
    for lib in (core, torch):
        lib.manual_seed(3)
        draws.append(lib.empty(n, dtype=getattr(lib, dtype)).exponential_(lambd))
    if dtype == "float64":
        assert np.array_equal(draws[0].numpy().view(np.int64), draws[1].numpy().view(np.int64))
    else:
        assert np.array_equal(_bits(draws[0]), _bits(draws[1]))


def test_multinomial_over_a_wide_vocabulary_samples_torchs_tokens(torch):
    tokens = []
    for lib in (core, torch):
        lib.manual_seed(0)
        probs = lib.softmax(lib.randn(3, 50257) / 0.7, dim=-1)
        tokens.append([lib.multinomial(probs, 1).tolist() for _ in range(5)] + [lib.multinomial(probs[0], 4).tolist()])
    assert tokens[0] == tokens[1]


def test_an_exponential_distribution_samples_torchs_values(torch):
    samples = []
    for lib in (core, torch):
        lib.manual_seed(1)
        samples.append(lib.distributions.Exponential(lib.tensor([0.5, 2.0])).sample((1000,)))
    assert np.array_equal(_bits(samples[0]), _bits(samples[1]))
