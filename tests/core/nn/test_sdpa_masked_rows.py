"""scaled_dot_product_attention with a mask that hides every key from some queries: such rows attend to nothing
(zeros, zero gradients) as in PyTorch's safe softmax, not NaN; the other rows are as before."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.oracle import check_grads

# row 0 sees keys 1..3, row 3 sees nothing (an upper-triangle mask used as an "allowed" mask)
ALLOWED = np.triu(np.ones((4, 4), dtype=bool), k=1)


def _qkv(seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((2, 2, 4, 3)).astype(np.float32) for _ in range(3)]


@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fully_masked_rows_give_torchs_zeros_and_gradients(kind, torch):
    def attend(lib, q, k, v):
        mask = lib.tensor(ALLOWED)
        if kind == "float":
            mask = lib.zeros(4, 4).masked_fill(mask.logical_not(), float("-inf"))
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=mask)

    out, grads = check_grads(attend, _qkv(), torch)
    assert np.all(out.detach().numpy()[..., 3, :] == 0) and not np.isnan(grads[0].numpy()).any()


def test_a_mask_with_no_empty_row_gives_torchs_values_and_gradients(torch):
    def attend(lib, q, k, v):
        return lib.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=lib.tensor(~ALLOWED))

    check_grads(attend, _qkv(1), torch)
