"""What GPT training scripts ask before they start: the scaled-dot-product-attention backend flags
(``torch.backends.cuda.*_sdp*``, the deprecated ``sdp_kernel``, ``torch.nn.attention.sdpa_kernel``) and
``torch.cuda``'s bfloat16 and memory queries, answered as PyTorch answers them on a machine without a GPU."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

FLAGS = ["flash_sdp_enabled", "mem_efficient_sdp_enabled", "math_sdp_enabled", "cudnn_sdp_enabled"]


def _flags(lib):
    return [getattr(lib.backends.cuda, name)() for name in FLAGS]


def _attention(lib):
    return importlib.import_module(lib.__name__ + ".nn.attention")


def test_sdp_flags_start_enabled_and_toggle_as_torchs(torch):
    assert _flags(core) == _flags(torch) == [True] * 4
    for lib in (torch, core):
        lib.backends.cuda.enable_flash_sdp(False)
        lib.backends.cuda.enable_math_sdp(False)
    try:
        assert _flags(core) == _flags(torch) == [False, True, False, True]
    finally:
        for lib in (torch, core):
            lib.backends.cuda.enable_flash_sdp(True)
            lib.backends.cuda.enable_math_sdp(True)


def test_deprecated_sdp_kernel_warns_sets_and_restores_the_flags_as_torchs(torch):
    inside = []
    for lib in (torch, core):
        with pytest.warns(FutureWarning, match=r"sdp_kernel\(\)` is deprecated"):
            with lib.backends.cuda.sdp_kernel(enable_flash=False, enable_mem_efficient=False) as ctx:
                inside.append((ctx, _flags(lib)))
    assert inside[0] == inside[1] == ({}, [False, False, True, True])
    assert _flags(core) == _flags(torch) == [True] * 4


@pytest.mark.parametrize("chosen", [["MATH"], ["FLASH_ATTENTION", "EFFICIENT_ATTENTION"], "CUDNN_ATTENTION"])
def test_sdpa_kernel_enables_only_the_chosen_backends_inside_as_torchs(chosen, torch):
    inside = []
    for lib in (torch, core):
        backend = _attention(lib).SDPBackend
        pick = getattr(backend, chosen) if isinstance(chosen, str) else [getattr(backend, c) for c in chosen]
        with _attention(lib).sdpa_kernel(pick):
            inside.append(_flags(lib))
    assert inside[0] == inside[1]
    assert _flags(core) == _flags(torch) == [True] * 4


def test_sdp_backend_members_print_as_torchs(torch):
    ours, theirs = _attention(core).SDPBackend, _attention(torch).SDPBackend
    assert list(ours.__members__) == list(theirs.__members__)
    assert [repr(getattr(ours, m)) for m in ours.__members__] == [repr(getattr(theirs, m)) for m in theirs.__members__]
    assert (ours.MATH.name, ours.MATH.value) == (theirs.MATH.name, theirs.MATH.value)


def test_sdpa_kernel_refuses_a_tuple_as_torch(torch):
    for lib in (torch, core):
        with pytest.raises(AssertionError, match="or a list of SDPBackend instances, got tuple"):
            with _attention(lib).sdpa_kernel((_attention(lib).SDPBackend.MATH,)):
                pass


def test_attention_under_a_chosen_backend_gives_torchs_numbers(torch):
    q, k, v = (np.random.default_rng(i).standard_normal((1, 2, 4, 8)).astype(np.float32) for i in range(3))
    outs = []
    for lib in (core, torch):
        with _attention(lib).sdpa_kernel(_attention(lib).SDPBackend.MATH):
            outs.append(lib.nn.functional.scaled_dot_product_attention(lib.tensor(q), lib.tensor(k), lib.tensor(v),
                                                                      is_causal=True))
    assert_same(outs[0], outs[1])


@pytest.mark.parametrize("query", ["memory_allocated", "max_memory_allocated", "memory_reserved",
                                   "max_memory_reserved", "empty_cache", "is_bf16_supported"])
def test_cuda_queries_without_a_gpu_answer_as_torchs(query, torch):
    if core.cuda.is_available() or torch.cuda.is_available():
        pytest.skip("the answers are PyTorch's CPU-build answers")
    assert getattr(core.cuda, query)() == getattr(torch.cuda, query)()
