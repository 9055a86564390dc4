"""scaled_dot_product_attention's math kernel bit for bit, as PyTorch's CPU runs it for what its flash kernel does
not take (dropout, 3-D inputs, flash switched off): q and k each scaled by sqrt(scale) before the product (for
stability; a negative scale on q alone), the mask added, the safe softmax, dropout, the product with v. Core took
``(q @ k^T) * scale``: outputs and gradients an ulp or two off.
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from core import _small_gemm

RNG = np.random.default_rng(11)
Q, K, V = (RNG.standard_normal(s).astype(np.float32) for s in [(2, 2, 5, 8), (2, 2, 7, 8), (2, 2, 7, 8)])
MASK = np.tril(np.ones((5, 7), bool))
G = RNG.standard_normal((2, 2, 5, 8)).astype(np.float32)

CASES = {
    "default_scale": {},
    "causal": {"is_causal": True},
    "explicit_scale": {"scale": 0.3},
    "negative_scale": {"scale": -0.2},
    "bool_mask": {"attn_mask": MASK},
    "float_mask": {"attn_mask": np.where(MASK, 0.0, -1.5).astype(np.float32)},
}


def _run(lib, kwargs, math_only=True, dims=4, dropout_p=0.0):
    leaves = [lib.tensor(a if dims == 4 else a[0], requires_grad=True) for a in (Q, K, V)]
    kwargs = {k: lib.tensor(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    lib.manual_seed(0)
    if math_only:
        with lib.nn.attention.sdpa_kernel(lib.nn.attention.SDPBackend.MATH):
            out = lib.nn.functional.scaled_dot_product_attention(*leaves, dropout_p=dropout_p, **kwargs)
    else:
        out = lib.nn.functional.scaled_dot_product_attention(*leaves, dropout_p=dropout_p, **kwargs)
    out.backward(lib.tensor(G if dims == 4 else G[0]))
    return [t.detach().numpy() for t in (out, *(leaf.grad for leaf in leaves))]


def _same(ours, theirs):
    """Bit for bit where core follows MKL's GEMM order (the CPU core._small_gemm measured), else close."""
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        if _small_gemm.FMA_BLOCKS:
            np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))


@pytest.mark.usefixtures("one_thread")
@pytest.mark.parametrize("name", sorted(CASES))
def test_math_kernel_output_and_gradients_match_torch_bit_for_bit(torch, name):
    _same(_run(core, CASES[name]), _run(torch, CASES[name]))


@pytest.mark.usefixtures("one_thread")
def test_three_dimensional_inputs_with_dropout_take_the_math_kernel_as_in_torch(torch):
    _same(_run(core, {"scale": 0.4}, math_only=False, dims=3, dropout_p=0.2),
          _run(torch, {"scale": 0.4}, math_only=False, dims=3, dropout_p=0.2))
