"""``torch.nn.attention.bias`` against PyTorch: causal_upper_left / causal_lower_right print as their masks and,
as scaled_dot_product_attention's attn_mask, give the attention torch gives (the SDPA tutorial's last part)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy


def _bias(lib):
    return importlib.import_module(lib.__name__ + ".nn.attention.bias")


def _masks(lib):
    bias = _bias(lib)
    upper, lower = bias.causal_upper_left(2, 5), bias.causal_lower_right(2, 5)
    square = bias.causal_lower_right(3, 3)
    return (repr(upper), str(lower), repr(square), type(upper).__name__, type(upper) is type(lower),
            isinstance(upper, lib.Tensor), repr(bias.CausalVariant.LOWER_RIGHT), int(lower.variant),
            (lower.seq_len_q, lower.seq_len_kv), tuple(upper.shape), repr(lower._materialize()))


def test_causal_biases_print_as_their_masks_like_torchs(torch):
    assert _masks(core) == _masks(torch)


@pytest.mark.parametrize("make", ["causal_upper_left", "causal_lower_right"])
def test_a_causal_bias_as_attn_mask_gives_torchs_attention(torch, make):
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(shape).astype(np.float32) for shape in ((2, 3, 2, 4), (2, 3, 6, 4), (2, 3, 6, 4)))

    def attend(lib):
        mask = getattr(_bias(lib), make)(2, 6)
        return lib.nn.functional.scaled_dot_product_attention(lib.tensor(q), lib.tensor(k), lib.tensor(v),
                                                              attn_mask=mask)

    np.testing.assert_allclose(to_numpy(attend(core)), to_numpy(attend(torch)), rtol=1e-5, atol=1e-6)


def test_causal_bias_refuses_is_causal_and_other_than_two_sizes_as_torch(torch):
    for lib in (core, torch):
        bias = _bias(lib)
        x = lib.ones(1, 2, 4)
        with pytest.raises(ValueError, match="CausalBias should not be used with causal=True"):
            lib.nn.functional.scaled_dot_product_attention(x, x, x, attn_mask=bias.causal_upper_left(2, 2),
                                                           is_causal=True)
        with pytest.raises(AssertionError, match="causal_lower_right only supports 2D tensors"):
            bias.causal_lower_right(2)
