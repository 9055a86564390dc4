"""nn.MultiheadAttention's fast path against PyTorch: batch-first self-attention in eval mode with no graph to record
(``no_grad``, ``inference_mode``, or nothing requiring grad) runs ``_native_multi_head_attention``, whose float32
bits differ from the composite path's (q scaled after its bias and before the product, a masked softmax summed in
double); core prints torch's numbers on either path, and takes the fast one under exactly torch's conditions
(grad mode, training, odd head counts, float masks, no batch_first keep the composite path).
"""

import numpy as np
import pytest

import core
from core import _cpu, _small_gemm
from tests.core.oracle import assert_float32_bits

pytestmark = pytest.mark.usefixtures("one_thread")


def _module(lib, embed, heads, batch_first=True):
    rng = np.random.default_rng(embed * 10 + heads)
    m = lib.nn.MultiheadAttention(embed, heads, batch_first=batch_first)
    with lib.no_grad():
        for p in m.parameters():
            p.copy_(lib.tensor((rng.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
    return m.eval()


def _padding(batch, seq):
    pad = np.zeros((batch, seq), bool)
    pad[0, -1] = True
    pad[-1, -2:] = True
    return pad


def _causal(seq):
    return np.triu(np.ones((seq, seq), bool), 1)


def _run(lib, shape, heads, grad, masks=(None, None), **kwargs):
    batch, seq, embed = shape
    m = _module(lib, embed, heads, kwargs.pop("batch_first", True))
    m.train(kwargs.pop("training", False))
    x = lib.tensor(np.random.default_rng(9).standard_normal(shape).astype(np.float32))
    attn_mask, padding = (None if a is None else lib.tensor(a) for a in masks)
    context = lib.enable_grad() if grad else lib.no_grad()
    with context:
        out, weights = m(x, x, x, attn_mask=attn_mask, key_padding_mask=padding, **kwargs)
    return out.detach(), None if weights is None else weights.detach()


def _same(ours, theirs, bits=True):
    if theirs is None:
        assert ours is None
        return
    ours, theirs = ours.numpy(), theirs.numpy()
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6 if bits else 1e-5)
    if bits and _small_gemm.FMA_BLOCKS:  # (the projections' GEMMs in MKL's order: core._small_gemm)
        assert_float32_bits(ours, theirs)


CASES = {
    "weights_averaged": ((2, 7, 32), 4, {}),
    "weights_per_head": ((2, 7, 32), 4, {"average_attn_weights": False}),
    "small_heads_no_weights": ((3, 5, 16), 4, {"need_weights": False}),
    "padding_mask": ((3, 5, 16), 4, {"masks": (None, _padding(3, 5))}),
    "padding_mask_no_weights": ((2, 9, 64), 4, {"masks": (None, _padding(2, 9)), "need_weights": False}),
    "causal_bool_mask": ((2, 6, 16), 2, {"masks": (_causal(6), None)}),
    "both_masks": ((2, 6, 16), 2, {"masks": (_causal(6), _padding(2, 6))}),
    "float_mask_keeps_the_composite_path": ((2, 6, 16), 2, {"masks": (np.where(_causal(6), -np.inf, 0.0)
                                                                      .astype(np.float32), None)}),
    "odd_heads_keep_the_composite_path": ((2, 5, 24), 3, {}),
    "training_keeps_the_composite_path": ((2, 5, 16), 2, {"training": True}),
    "sequence_first_keeps_the_composite_path": ((5, 2, 16), 2, {"batch_first": False}),
}


@pytest.mark.parametrize("grad", [False, True], ids=["no_grad", "grad_mode"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_multihead_attention_matches_torch_with_and_without_grad(name, grad, torch):
    shape, heads, kwargs = CASES[name]
    ours = _run(core, shape, heads, grad, **dict(kwargs))
    theirs = _run(torch, shape, heads, grad, **dict(kwargs))
    # NOTE: the composite path without weights is scaled_dot_product_attention's CPU flash kernel, whose small
    # GEMMs core does not reproduce on an AMD CPU (tests/core/test_sdpa_flash_oracle.py): close there; and under
    # no_grad (the fast path's flash kernel) core follows it on the AMD Zen 4 only (core._small_gemm.FMA_BLOCKS)
    flash = kwargs.get("need_weights") is False \
        and (grad and _cpu.VENDOR == "AuthenticAMD" or not _small_gemm.FMA_BLOCKS)
    _same(ours[0], theirs[0], bits=not flash)
    _same(ours[1], theirs[1])


def test_no_grad_output_differs_from_grad_mode_output_as_in_torch(torch):
    # NOTE: open_clip's reloaded-model check compares the two: both libraries must tell them apart the same way
    shape, heads, kwargs = CASES["padding_mask"]
    same = [_run(lib, shape, heads, False, **kwargs)[0].equal(_run(lib, shape, heads, True, **kwargs)[0])
            for lib in (core, torch)]
    assert same[0] == same[1]


def test_every_key_masked_gives_nan_rows_on_the_fast_path(torch):
    pad = np.zeros((2, 4), bool)
    pad[1] = True
    ours = _run(core, (2, 4, 16), 2, False, masks=(None, pad))
    theirs = _run(torch, (2, 4, 16), 2, False, masks=(None, pad))
    assert np.isnan(theirs[0].numpy()[1]).all()
    _same(ours[0], theirs[0])
    _same(ours[1], theirs[1])


def test_inference_mode_takes_the_fast_path(torch):
    results = []
    for lib in (core, torch):
        m = _module(lib, 32, 4)
        x = lib.tensor(np.random.default_rng(2).standard_normal((2, 7, 32)).astype(np.float32))
        with lib.inference_mode():
            results.append(m(x, x, x)[0])
    _same(*results)


def _layer(lib, embed, heads, **kwargs):
    layer = lib.nn.TransformerEncoderLayer(embed, heads, 32, dropout=0.0, batch_first=True, **kwargs)
    rng = np.random.default_rng(embed + heads)
    with lib.no_grad():
        for p in layer.parameters():
            p.copy_(lib.tensor((rng.standard_normal(tuple(p.shape)) * 0.3).astype(np.float32)))
    return layer.eval()


LAYERS = {  # head size 4: the fused attention's own order (a multiple of 8 without a mask is the flash kernel's)
    "relu": ({}, (None, None)),
    "gelu": ({"activation": "gelu"}, (None, None)),
    "norm_first": ({"norm_first": True}, (None, None)),
    "padding_mask": ({}, (None, _padding(3, 5))),
    "float_causal_mask": ({}, (np.where(_causal(5), -np.inf, 0.0).astype(np.float32), None)),
    "bool_causal_and_padding_masks": ({"norm_first": True}, (_causal(5), _padding(3, 5))),
    "forward_hook_keeps_the_composite_path": ({"hook": True}, (None, None)),
}


def _layer_output(lib, name):
    kwargs, masks = LAYERS[name]
    kwargs = dict(kwargs)
    hook = kwargs.pop("hook", False)
    layer = _layer(lib, 16, 4, **kwargs)
    if hook:
        layer.linear1.register_forward_hook(lambda module, args, out: None)
    x = lib.tensor(np.random.default_rng(4).standard_normal((3, 5, 16)).astype(np.float32))
    src_mask, padding = (None if m is None else lib.tensor(m) for m in masks)
    with lib.no_grad():
        return layer(x, src_mask=src_mask, src_key_padding_mask=padding)


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_encoder_layer_under_no_grad_matches_torchs_fused_layer(name, torch):
    _same(_layer_output(core, name), _layer_output(torch, name))
