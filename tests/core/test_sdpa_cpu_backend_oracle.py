"""scaled_dot_product_attention on the CPU as PyTorch picks its kernel: under ``sdpa_kernel`` a backend the CPU
lacks (memory-efficient, cuDNN) leaves no viable one, flash alone refuses inputs its kernel cannot take, and the
flash kernel's result is laid out like the query (a query transposed from (B, L, H, D) gives a result whose
``transpose(1, 2)`` views as (B, L, H * D), as the SDPA tutorial's CausalSelfAttention does)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised

RNG = np.random.default_rng(0)
QKV = RNG.standard_normal((2, 5, 3 * 3 * 4)).astype(np.float32)


def _sdpa(lib, backends, *args, **kwargs):
    attention = importlib.import_module(lib.__name__ + ".nn.attention")
    chosen = [getattr(attention.SDPBackend, b) for b in backends]
    with attention.sdpa_kernel(chosen):
        return lib.nn.functional.scaled_dot_product_attention(*args, **kwargs)


def _heads(lib, dtype="float32"):
    """query, key, value cut from one projection and viewed as (B, H, L, D), as nanoGPT-style attention does."""
    q, k, v = lib.tensor(QKV).to(getattr(lib, dtype)).chunk(3, -1)
    return [t.view(2, 5, 3, 4).transpose(1, 2) for t in (q, k, v)]


@pytest.mark.parametrize("backends", [["EFFICIENT_ATTENTION"], ["CUDNN_ATTENTION"], ["OVERRIDEABLE"],
                                      ["EFFICIENT_ATTENTION", "CUDNN_ATTENTION"]])
def test_backends_the_cpu_lacks_leave_no_viable_kernel(torch, backends):
    errors = [raised(lambda lib=lib: _sdpa(lib, backends, *_heads(lib))) for lib in (core, torch)]
    assert errors[0] == errors[1]
    assert errors[0][0] == "RuntimeError"


@pytest.mark.parametrize("case", ["head_dims_differ", "dropout", "three_dims", "integer", "strided_head_dim"])
def test_flash_alone_refuses_inputs_its_kernel_cannot_take(torch, case):
    def run(lib):
        q, k, v = _heads(lib)
        kwargs = {}
        if case == "head_dims_differ":
            v = v[..., :2]
        elif case == "dropout":
            kwargs["dropout_p"] = 0.5
        elif case == "three_dims":
            q, k, v = q[0], k[0], v[0]
        elif case == "integer":
            q, k, v = q.int(), k.int(), v.int()
        else:
            q = q.transpose(-1, -2).contiguous().transpose(-1, -2)
        return _sdpa(lib, ["FLASH_ATTENTION"], q, k, v, **kwargs)

    errors = [raised(lambda lib=lib: run(lib)) for lib in (core, torch)]
    assert errors[0] == errors[1]
    assert errors[0] is not None


@pytest.mark.parametrize("backends", [["FLASH_ATTENTION"], ["MATH"], ["EFFICIENT_ATTENTION", "FLASH_ATTENTION"]])
def test_enabled_backends_that_can_run_give_torchs_result(torch, backends):
    ours, theirs = (_sdpa(lib, backends, *_heads(lib), is_causal=True) for lib in (core, torch))
    assert_same(ours, theirs, check_stride=True)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
@pytest.mark.parametrize("contiguous_query", [False, True])
def test_flash_result_is_laid_out_like_the_query(torch, dtype, contiguous_query):
    def run(lib):
        q, k, v = _heads(lib, dtype)
        if contiguous_query:
            q = q.contiguous()
        return lib.nn.functional.scaled_dot_product_attention(q, k, v)

    ours, theirs = run(core), run(torch)
    assert ours.stride() == theirs.stride()
    assert_same(ours.float(), theirs.float(), rtol=1e-2 if dtype != "float32" else 1e-5, atol=1e-2)


def test_result_of_a_transposed_query_views_back_to_batch_by_sequence(torch):
    def run(lib):
        q, k, v = _heads(lib)
        q.requires_grad_()
        y = lib.nn.functional.scaled_dot_product_attention(q, k, v)
        y = y.transpose(1, 2).view(2, -1, 12)
        y.pow(2).sum().backward()
        return y, q.grad

    (y, g), (ty, tg) = run(core), run(torch)
    assert_same(y, ty)
    assert_same(g, tg, rtol=1e-4, atol=1e-5)


def test_math_kernel_keeps_a_contiguous_result_under_dropout(torch):
    def run(lib):
        lib.manual_seed(0)
        return lib.nn.functional.scaled_dot_product_attention(*_heads(lib), dropout_p=0.5)

    assert run(core).stride() == run(torch).stride()
