"""scaled_dot_product_attention with an ``attn_mask`` and ``is_causal=True`` together, as PyTorch's CPU kernels take
them: its flash kernel (4-D inputs, one head size, no dropout, unit stride along the head dim) applies the mask
within the causal triangle, its math kernel (any other input, or flash switched off) refuses the pair; and
``enable_gqa`` with a key head count that does not divide the query's raises PyTorch's (truncated) message.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_grads, raised

RNG = np.random.default_rng(3)


def _array(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


Q, K, V = _array(2, 4, 5, 8), _array(2, 4, 7, 8), _array(2, 4, 7, 8)
BOOL_MASK = RNG.random((5, 7)) > 0.3
BOOL_MASK[0, 0] = False  # query 0 sees key 0 only under the causal mask: that row attends to nothing (zeros)

CASES = {  # name: (query, key, value, mask, extra keyword arguments)
    "bool_mask_2d": (Q, K, V, BOOL_MASK, {}),
    "bool_mask_4d": (Q, K, V, RNG.random((2, 1, 5, 7)) > 0.3, {}),
    "float_mask": (Q, K, V, _array(5, 7), {}),
    "more_queries_than_keys": (_array(2, 4, 9, 8), K, V, RNG.random((9, 7)) > 0.3, {}),
    "grouped_query_heads": (Q, K[:, :2], V[:, :2], BOOL_MASK, {"enable_gqa": True}),
    "float64": (Q.astype(np.float64), K.astype(np.float64), V.astype(np.float64), BOOL_MASK, {}),
    "scaled": (Q, K, V, BOOL_MASK, {"scale": 0.3}),
}


def _sdpa(lib, q, k, v, mask, **kw):
    return lib.nn.functional.scaled_dot_product_attention(lib.tensor(q), lib.tensor(k), lib.tensor(v),
                                                          attn_mask=lib.tensor(mask), is_causal=True, **kw)


@pytest.mark.parametrize("name", sorted(CASES))
def test_flash_kernel_applies_the_mask_within_the_causal_triangle(name, torch):
    q, k, v, mask, kw = CASES[name]
    assert_same(_sdpa(core, q, k, v, mask, **kw), _sdpa(torch, q, k, v, mask, **kw), rtol=1e-5, atol=1e-6)


def test_gradients_through_mask_and_causal_match_torch(torch):
    mask = {"core": core.tensor(BOOL_MASK), "torch": torch.tensor(BOOL_MASK)}
    check_grads(lambda lib, q, k, v: lib.nn.functional.scaled_dot_product_attention(
        q, k, v, attn_mask=mask[lib.__name__], is_causal=True), [Q, K, V], torch, atol=1e-5)


MATH_CASES = {  # inputs the flash kernel does not take: the math kernel refuses a mask beside is_causal
    "three_dims": lambda lib: _sdpa(lib, Q[0], K[0], V[0], BOOL_MASK),
    "dropout": lambda lib: _sdpa(lib, Q, K, V, BOOL_MASK, dropout_p=0.1),
    "value_head_size_differs": lambda lib: _sdpa(lib, Q, K, _array(2, 4, 7, 6), BOOL_MASK),
    "query_not_unit_stride": lambda lib: lib.nn.functional.scaled_dot_product_attention(
        lib.tensor(Q).transpose(-1, -2).contiguous().transpose(-1, -2), lib.tensor(K), lib.tensor(V),
        attn_mask=lib.tensor(BOOL_MASK), is_causal=True),
}


@pytest.mark.parametrize("name", sorted(MATH_CASES))
def test_math_kernel_refuses_a_mask_beside_is_causal(name, torch):
    ours, theirs = raised(lambda: MATH_CASES[name](core)), raised(lambda: MATH_CASES[name](torch))
    assert ours == theirs and theirs is not None


def test_math_backend_chosen_with_sdpa_kernel_refuses_it_too(torch):
    errors = []
    for lib in (core, torch):
        attention = importlib.import_module(lib.__name__ + ".nn.attention")
        with attention.sdpa_kernel([attention.SDPBackend.MATH]):
            errors.append(raised(lambda lib=lib: _sdpa(lib, Q, K, V, BOOL_MASK)))
    assert errors[0] == errors[1] and errors[1] is not None


@pytest.mark.parametrize("dims", [4, 3])
def test_gqa_with_heads_that_do_not_divide_raises_torchs_message(dims, torch):
    k = K[:, :3] if dims == 4 else K[0, :3]
    q = Q if dims == 4 else Q[0]
    errors = [raised(lambda lib=lib: lib.nn.functional.scaled_dot_product_attention(
        lib.tensor(q), lib.tensor(k), lib.tensor(k), enable_gqa=True)) for lib in (core, torch)]
    assert errors[0] == errors[1] and errors[1] is not None
