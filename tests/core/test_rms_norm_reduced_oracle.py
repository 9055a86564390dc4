"""rms_norm on bfloat16 and float16 as PyTorch's composite computes it: the input upcast to float32, float32's eps by
default, the weight applied in float32 and one rounding at the end (``ToCopyBackward0``). core rounded after every
step and took the half type's eps, so an LLM's RMSNorm in bfloat16 (litgpt, torchtune, Llama) differed in the last
bit of a quarter of its outputs."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

RNG = np.random.default_rng(2)
X = RNG.standard_normal((16, 40)).astype(np.float32)
W = (RNG.standard_normal(40) * 0.1 + 1).astype(np.float32)


def _same(ours, theirs, **tol):
    """Same dtype, then the values through float32 (the oracle's NumPy bridge has no bfloat16)."""
    assert str(ours.dtype) == str(theirs.dtype)
    assert_same(ours.detach().float(), theirs.detach().float(), **tol)


def _rms(lib, dtype, eps, weight, requires_grad=False):
    x = lib.tensor(X).to(getattr(lib, dtype)).requires_grad_(requires_grad)
    w = lib.tensor(W).to(getattr(lib, dtype)) if weight else None
    return x, lib.nn.functional.rms_norm(x, (40,), w, eps=eps)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "float64"])
@pytest.mark.parametrize("eps", [None, 1e-6])
@pytest.mark.parametrize("weight", [True, False])
def test_rms_norm_rounds_as_torch(dtype, eps, weight, torch):
    ours, theirs = _rms(core, dtype, eps, weight)[1], _rms(torch, dtype, eps, weight)[1]
    _same(ours, theirs, rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["bfloat16", "float32"])
def test_rms_norm_node_and_input_gradient_match_torch(dtype, torch):
    results = []
    for lib in (core, torch):
        x, out = _rms(lib, dtype, 1e-6, True, requires_grad=True)
        out.float().square().sum().backward()
        results.append((out.grad_fn.name(), x.grad))
    assert results[0][0] == results[1][0]
    _same(results[0][1], results[1][1], rtol=1e-2 if dtype == "bfloat16" else 1e-5, atol=1e-5)


def test_rms_norm_module_in_bfloat16_matches_torch(torch):
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        norm = lib.nn.RMSNorm(40).to(lib.bfloat16)
        outs.append(norm(lib.tensor(X).to(lib.bfloat16)))
    _same(outs[0], outs[1], rtol=0, atol=0)
