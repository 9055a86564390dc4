"""Oracle tests for the memory layout PyTorch's einsum gives its result, and for the ops that carry a channels-last
layout on (group_norm, conv2d, cat, a broadcast add): a diffusion UNet's ``einsum('bchw,co->bohw', x, W)`` is a
channels-last view of a bmm in PyTorch, the layers after it stay channels-last, and dropout draws its mask in
that memory order, so a contiguous result in core dropped other elements (Papers in 100 Lines' DDPM).
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check, check_grads, raised

RNG = np.random.default_rng(5)


def _data(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


EQUATIONS = {  # no size-1 dims (their strides follow more of PyTorch's internals) and no pure views ('ii->i': a
    # view in PyTorch, a copy in core)
    "nin_is_channels_last": ("bchw,co->bohw", [(2, 3, 4, 5), (3, 6)]),
    "attention_weights": ("bchw,bcHW->bhwHW", [(2, 3, 4, 5), (2, 3, 4, 5)]),
    "attention_output_is_contiguous": ("bhwHW,bcHW->bchw", [(2, 4, 5, 4, 5), (2, 3, 4, 5)]),
    "transposed_matmul": ("ij,jk->ki", [(3, 4), (4, 5)]),
    "batched_transposed_scores": ("bik,bjk->bji", [(2, 3, 5), (2, 7, 5)]),
    "batched_scores": ("bik,bjk->bij", [(2, 3, 5), (2, 7, 5)]),
    "outer_product": ("i,j->ji", [(3,), (4,)]),
    "three_operands": ("abc,cd,de->eab", [(2, 3, 4), (4, 5), (5, 6)]),
    "ellipsis_batch": ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    "label_summed_in_one_operand": ("ijk,jl->li", [(2, 3, 4), (3, 5)]),
    "permutation": ("ijk->kij", [(2, 3, 4)]),
    "sum_and_permute": ("ijk->ki", [(2, 3, 4)]),
}


@pytest.mark.parametrize("name", sorted(EQUATIONS))
def test_einsum_result_has_torchs_strides_and_values(name, torch):
    equation, shapes = EQUATIONS[name]
    check(lambda lib, *ts: lib.einsum(equation, *ts), [_data(*s) for s in shapes], torch, check_stride=True,
          rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["nin_is_channels_last", "three_operands", "transposed_matmul"])
def test_einsum_gradients_match_torch(name, torch):
    equation, shapes = EQUATIONS[name]
    check_grads(lambda lib, *ts: lib.einsum(equation, *ts), [_data(*s) for s in shapes], torch, atol=1e-5)


def test_view_of_a_channels_last_einsum_result_raises_as_in_torch(torch):
    a, b = _data(2, 3, 4, 5), _data(3, 6)
    ours = raised(lambda: core.einsum("bchw,co->bohw", core.tensor(a), core.tensor(b)).view(-1))
    theirs = raised(lambda: torch.einsum("bchw,co->bohw", torch.tensor(a), torch.tensor(b)).view(-1))
    assert ours == theirs and theirs is not None


def test_einsum_of_size_one_spatial_dims_then_bias_add_keeps_torchs_strides(torch):
    x, w, b = _data(2, 8, 1, 1), _data(8, 6), _data(1, 6, 1, 1)
    check(lambda lib, x, w, b: lib.einsum("bchw,co->bohw", x, w) + b, [x, w, b], torch, check_stride=True)


def test_group_norm_of_a_channels_last_input_is_channels_last(torch):
    x = _data(2, 8, 3, 3)
    check(lambda lib, x: lib.nn.functional.group_norm(x.to(memory_format=lib.channels_last), 4), [x], torch,
          check_stride=True, atol=1e-5)


@pytest.mark.parametrize("weight_channels_last", [False, True])
def test_conv2d_of_a_channels_last_operand_is_channels_last(weight_channels_last, torch):
    x, w = _data(2, 3, 5, 5), _data(4, 3, 3, 3)

    def conv(lib, x, w):
        if weight_channels_last:
            w = w.to(memory_format=lib.channels_last)
        else:
            x = x.to(memory_format=lib.channels_last)
        return lib.nn.functional.conv2d(x, w, padding=1)

    check(conv, [x, w], torch, check_stride=True, atol=1e-5)


@pytest.mark.parametrize("both", [True, False])
def test_cat_of_channels_last_tensors_is_channels_last_and_of_mixed_ones_contiguous(both, torch):
    a, b = _data(2, 3, 4, 4), _data(2, 5, 4, 4)

    def cat(lib, a, b):
        a = a.to(memory_format=lib.channels_last)
        b = b.to(memory_format=lib.channels_last) if both else b
        return lib.cat([a, b], dim=1)

    check(cat, [a, b], torch, check_stride=True)


def test_dropout_after_an_einsum_drops_the_elements_torch_drops(torch):
    x, w = _data(2, 8, 4, 4), _data(8, 16)
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        h = lib.einsum("bchw,co->bohw", lib.tensor(x), lib.tensor(w))
        results.append(lib.nn.functional.dropout(h, p=0.5))
    assert_same(*results, check_stride=True)


@pytest.mark.parametrize("dtype", ["float64", "float16", "bfloat16", "int64"])
def test_einsum_of_other_dtypes_has_torchs_strides(dtype, torch):
    a, b = (RNG.integers(-3, 4, size=s).astype(np.float32) for s in ((2, 3, 4), (4, 5)))
    def product(lib, a, b):
        result = lib.einsum("bij,jk->bki", a.to(getattr(lib, dtype)), b.to(getattr(lib, dtype)))
        return str(result.dtype).split(".")[-1], result.stride(), result.double()  # (NumPy has no bfloat16)

    check(product, [a, b], torch, check_stride=True)
