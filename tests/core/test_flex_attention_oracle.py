"""``torch.nn.attention.flex_attention`` against PyTorch's eager implementation: block masks built from mask_mods
(their block lists, dense form, sparsity and repr), dense masks from mask and score mods, and attention with a
score_mod, a padded causal block mask and grouped-query heads, its log-sum-exp, and PyTorch's CPU refusals."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

import core


def _fa(lib):
    return importlib.import_module(f"{lib.__name__}.nn.attention.flex_attention")


def causal(b, h, q, kv):
    return q >= kv


def _padded_causal(lib):
    pad = lib.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]).bool()

    def padding(b, h, q, kv):
        return pad[b, kv]

    return _fa(lib).and_masks(causal, padding)


def _block_mask_facts(lib, make):
    bm = make(lib)
    parts = [bm.kv_num_blocks, bm.kv_indices, bm.full_kv_num_blocks, bm.full_kv_indices, bm.q_num_blocks,
             bm.q_indices, bm.full_q_num_blocks, bm.full_q_indices, bm.to_dense()]
    return [repr(bm), bm.shape, round(bm.sparsity(), 6), bm.BLOCK_SIZE, [(str(p.dtype), p.tolist()) for p in parts]]


@pytest.mark.parametrize("make", [
    lambda lib: _fa(lib).create_block_mask(causal, None, None, 130, 3, device="cpu"),  # blocks of 128
    lambda lib: _fa(lib).create_block_mask(_padded_causal(lib), 2, 1, 5, 5, device="cpu", BLOCK_SIZE=2),
    lambda lib: _fa(lib).create_block_mask(causal, 1, 2, 6, 4, device="cpu", BLOCK_SIZE=(2, 3)),
    lambda lib: _fa(lib).create_block_mask(lambda b, h, q, kv: kv > 10, 1, 1, 5, 5, device="cpu", BLOCK_SIZE=2),
], ids=["causal_default_blocks", "padded_causal_blocks_of_2", "rectangular_blocks", "all_masked"])
def test_block_mask_as_torchs(torch, make):
    assert _block_mask_facts(core, make) == _block_mask_facts(torch, make)


def _masks(lib):
    fa = _fa(lib)
    return [fa.create_mask(fa.or_masks(causal, lambda b, h, q, kv: kv == 4), 1, 1, 5, 5, "cpu").tolist(),
            fa.create_mask(lambda s, b, h, q, kv: lib.where(q >= kv, s, -float("inf")), 2, 1, 3, 4, "cpu").tolist(),
            fa.create_mask(fa.noop_mask, None, None, 2, 3, "cpu").tolist()]


def test_create_mask_as_torchs(torch):
    assert _masks(core) == _masks(torch)


def _attention(lib):
    warnings.simplefilter("ignore")  # PyTorch's advice to compile flex_attention
    fa = _fa(lib)
    lib.manual_seed(0)
    q, k, v = lib.randn(2, 4, 5, 8), lib.randn(2, 2, 5, 8), lib.randn(2, 2, 5, 6)
    mask = fa.create_block_mask(_padded_causal(lib), 2, 1, 5, 5, device="cpu", BLOCK_SIZE=2)

    def relative(score, b, h, qi, kvi):
        return score + (qi - kvi) * 0.1 + h

    out, lse = fa.flex_attention(q, k, v, score_mod=relative, block_mask=mask, enable_gqa=True, return_lse=True)
    plain, aux = fa.flex_attention(q, k.repeat_interleave(2, 1), v.repeat_interleave(2, 1), scale=0.3,
                                   return_aux=fa.AuxRequest(lse=True))
    none = fa.create_block_mask(lambda b, h, q, kv: kv > 10, 1, 1, 5, 5, device="cpu", BLOCK_SIZE=2)
    empty = fa.flex_attention(q[:1], k[:1].repeat_interleave(2, 1), v[:1].repeat_interleave(2, 1), block_mask=none)
    return [t.numpy() for t in (out, lse, plain, aux.lse, empty)] + [aux.max_scores]


def test_flex_attention_values_as_torchs(torch):
    want, got = _attention(torch), _attention(core)
    for w, g in zip(want[:-1], got[:-1]):
        assert w.dtype == g.dtype and w.shape == g.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    assert got[-1] is None and want[-1] is None


@pytest.mark.parametrize("call, error", [
    (lambda L, fa, q: fa.flex_attention(q, q[:, :2], q[:, :2]), ValueError),
    (lambda L, fa, q: fa.flex_attention(q.requires_grad_(), q, q), NotImplementedError),
    (lambda L, fa, q: fa.flex_attention(q, q, q, return_aux=fa.AuxRequest(max_scores=True)), NotImplementedError),
    (lambda L, fa, q: fa.flex_attention(q, q, q, block_mask=fa.create_block_mask(causal, 1, 1, 8, 8, "cpu")),
     ValueError),
    (lambda L, fa, q: fa.flex_attention(q, q, q, return_lse=True, return_aux=fa.AuxRequest(lse=True)), ValueError),
])
def test_flex_attention_refusals_as_torchs(torch, call, error):
    warnings.simplefilter("ignore")
    for lib in (torch, core):
        with pytest.raises(error):
            call(lib, _fa(lib), lib.randn(1, 4, 5, 8))
