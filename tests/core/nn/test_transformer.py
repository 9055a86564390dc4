"""MultiheadAttention, scaled_dot_product_attention and the Transformer family against torch."""

import warnings

import numpy as np
import pytest

import core
from core import nn
from core.nn import functional as F
from tests.core.oracle import assert_same, check_grads


def _rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _pair(torch, build):
    """The same module in both libraries, core's loaded with torch's weights."""
    theirs = build(torch)
    ours = build(core)
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


def _quiet(build):
    def run(lib):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return build(lib)
    return run


def test_multihead_attention_has_torchs_parameters_and_repr(torch):
    for kwargs in ({}, {"kdim": 3, "vdim": 5}, {"bias": False, "add_bias_kv": True}):
        ours, theirs = nn.MultiheadAttention(8, 2, **kwargs), torch.nn.MultiheadAttention(8, 2, **kwargs)
        assert repr(ours) == repr(theirs)
        assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == \
               [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]


@pytest.mark.parametrize("kwargs", [{}, {"batch_first": True}, {"kdim": 3, "vdim": 5}, {"add_bias_kv": True},
                                    {"add_zero_attn": True}, {"bias": False}])
def test_multihead_attention_output_weights_and_gradients_match_torch(torch, kwargs):
    ours, theirs = _pair(torch, lambda lib: lib.nn.MultiheadAttention(8, 2, **kwargs))
    kd, vd = kwargs.get("kdim", 8), kwargs.get("vdim", 8)
    order = (1, 0, 2) if kwargs.get("batch_first") else (0, 1, 2)
    q, k, v = _rand(5, 3, 8, seed=1), _rand(4, 3, kd, seed=2), _rand(4, 3, vd, seed=3)
    q, k, v = (np.ascontiguousarray(a.transpose(*order)) for a in (q, k, v))
    results = []
    for lib, module in ((core, ours), (torch, theirs)):
        tq = lib.tensor(q, requires_grad=True)
        out, w = module(tq, lib.tensor(k), lib.tensor(v))
        (out * lib.tensor(_rand(*out.shape, seed=4))).sum().backward()
        results.append((out, w, tq.grad, module.out_proj.weight.grad))
    assert_same(results[0], results[1], rtol=1e-4, atol=1e-5)


def test_multihead_attention_masks_padding_and_causal_positions_as_torch(torch):
    ours, theirs = _pair(torch, lambda lib: lib.nn.MultiheadAttention(8, 4, batch_first=True))
    x = _rand(2, 4, 8)
    padded = np.array([[False, False, True, True], [False, False, False, True]])
    causal = np.triu(np.ones((4, 4), dtype=bool), 1)
    as_float = lambda m: np.where(m, -np.inf, 0.0).astype(np.float32)  # noqa: E731
    for attn_mask, pad in ((causal, padded), (as_float(causal), as_float(padded))):
        got = [m(lib.tensor(x), lib.tensor(x), lib.tensor(x), key_padding_mask=lib.tensor(pad),
                 attn_mask=lib.tensor(attn_mask), average_attn_weights=False)
               for lib, m in ((core, ours), (torch, theirs))]
        assert_same(got[0], got[1], rtol=1e-4, atol=1e-5)


def test_mismatched_mask_types_warn_as_in_torch(torch):
    x = core.zeros(3, 1, 4)
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and attn_mask is deprecated"):
        nn.MultiheadAttention(4, 2)(x, x, x, key_padding_mask=core.tensor([[True, False, False]]),
                                    attn_mask=core.zeros(3, 3))


def test_multihead_attention_takes_unbatched_input_and_need_weights_false(torch):
    ours, theirs = _pair(torch, lambda lib: lib.nn.MultiheadAttention(6, 3))
    x = _rand(4, 6)
    got = [m(lib.tensor(x), lib.tensor(x), lib.tensor(x), need_weights=False) for lib, m in ((core, ours),
                                                                                             (torch, theirs))]
    assert got[0][1] is None and got[1][1] is None
    assert_same(got[0][0], got[1][0], rtol=1e-4, atol=1e-5)


def test_is_causal_without_a_mask_is_an_error_as_in_torch(torch):
    for lib in (torch, core):
        m = lib.nn.MultiheadAttention(4, 2)
        x = lib.zeros(3, 1, 4)
        with pytest.raises(RuntimeError, match="Need attn_mask"):
            m(x, x, x, is_causal=True)


@pytest.mark.parametrize("kwargs", [{}, {"is_causal": True}, {"scale": 0.3}])
def test_scaled_dot_product_attention_matches_torch_with_gradients(torch, kwargs):
    arrays = [_rand(2, 3, 5, 4, seed=s) for s in range(3)]
    check_grads(lambda lib, q, k, v: lib.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs), arrays,
                torch, rtol=1e-4, atol=1e-5)


def test_scaled_dot_product_attention_reads_bool_masks_as_allowed_positions(torch):
    q, k, v = (_rand(2, 4, 3, seed=s) for s in range(3))
    mask = np.array([[True, False, True, True]] * 4)
    for m in (mask, np.where(mask, 0.0, -1.5).astype(np.float32)):
        ours = F.scaled_dot_product_attention(core.tensor(q), core.tensor(k), core.tensor(v), attn_mask=core.tensor(m))
        theirs = torch.nn.functional.scaled_dot_product_attention(torch.tensor(q), torch.tensor(k), torch.tensor(v),
                                                                  attn_mask=torch.tensor(m))
        assert_same(ours, theirs, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("norm_first, activation", [(False, "relu"), (True, "gelu")])
def test_encoder_stack_matches_torch_with_masks_and_gradients(torch, norm_first, activation):
    def build(lib):
        layer = lib.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True,
                                               norm_first=norm_first, activation=activation)
        return lib.nn.TransformerEncoder(layer, 2, norm=lib.nn.LayerNorm(8))
    ours, theirs = _pair(torch, _quiet(build))
    assert repr(ours) == repr(theirs)
    x = _rand(2, 5, 8)
    pad = np.array([[0.0] * 5, [0.0, 0.0, 0.0, -np.inf, -np.inf]], dtype=np.float32)
    results = []
    for lib, model in ((core, ours), (torch, theirs)):
        mask = lib.nn.Transformer.generate_square_subsequent_mask(5)
        out = model(lib.tensor(x), mask=mask, src_key_padding_mask=lib.tensor(pad))
        out.sum().backward()
        results.append((out, model.layers[0].self_attn.in_proj_weight.grad, model.layers[1].linear1.bias.grad))
    assert_same(results[0], results[1], rtol=1e-4, atol=1e-5)


def test_transformer_encoder_warns_as_torch_when_nested_tensors_cannot_be_used(torch):
    with pytest.warns(UserWarning, match="batch_first was not True") as caught:
        torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2), 1)
    with pytest.warns(UserWarning) as ours:
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2), 1)
    assert str(ours[0].message) == str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, batch_first=True), 1)


def test_full_transformer_matches_torch(torch):
    def build(lib):
        return lib.nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2,
                                  dim_feedforward=16, dropout=0.0)
    ours, theirs = _pair(torch, _quiet(build))
    assert repr(ours) == repr(theirs)
    src, tgt = _rand(6, 2, 8, seed=1), _rand(5, 2, 8, seed=2)
    got = [m(lib.tensor(src), lib.tensor(tgt), tgt_mask=m.generate_square_subsequent_mask(5))
           for lib, m in ((core, ours), (torch, theirs))]
    assert_same(got[0], got[1], rtol=1e-4, atol=1e-5)
    assert_same(nn.Transformer.generate_square_subsequent_mask(4),
                torch.nn.Transformer.generate_square_subsequent_mask(4))


def test_transformer_rejects_mismatched_batches_and_widths(torch):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=8)
    with pytest.raises(RuntimeError, match="batch number of src and tgt must be equal"):
        model(core.zeros(3, 2, 4), core.zeros(3, 1, 4))
    with pytest.raises(RuntimeError, match="must be equal to d_model"):
        model(core.zeros(3, 2, 5), core.zeros(3, 2, 5))
