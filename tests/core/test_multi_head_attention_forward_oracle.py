"""``F.multi_head_attention_forward`` as research models call it directly (CLIP's ``AttentionPool2d``): separate
q/k/v projection weights, an output projection whose width differs from the embedding's, one query over many
keys, and ``need_weights=False``, where PyTorch hands the heads to ``scaled_dot_product_attention``; and float16
attention, which PyTorch's CPU kernel computes in float32 with the exponentials rounded to float16."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_grads, to_numpy

RNG = np.random.default_rng(0)
E, OUT, HEADS = 16, 6, 4
X = RNG.standard_normal((5, 2, E)).astype(np.float32)  # (L, N, E)
W = {name: (RNG.standard_normal(shape) / 4).astype(np.float32)
     for name, shape in [("q", (E, E)), ("k", (E, E)), ("v", (E, E)), ("b", (3 * E,)), ("o", (OUT, E)), ("ob", (OUT,))]}


def _pool(lib, x, q, k, v, b, o, ob, need_weights=False, mask=None):
    """CLIP's attention pool: the first position attends over all, projected to ``OUT`` features."""
    out, weights = lib.nn.functional.multi_head_attention_forward(
        query=x[:1], key=x, value=x, embed_dim_to_check=E, num_heads=HEADS, q_proj_weight=q, k_proj_weight=k,
        v_proj_weight=v, in_proj_weight=None, in_proj_bias=b, bias_k=None, bias_v=None, add_zero_attn=False,
        dropout_p=0, out_proj_weight=o, out_proj_bias=ob, use_separate_proj_weight=True, training=True,
        need_weights=need_weights, attn_mask=mask)
    return out if weights is None else out * weights.sum()


@pytest.mark.parametrize("need_weights", [False, True])
def test_an_output_projection_narrower_than_the_embedding_gives_its_width(torch, need_weights):
    arrays = [X, *W.values()]
    out, _ = check_grads(lambda lib, *t: _pool(lib, *t, need_weights=need_weights), arrays, torch)
    assert tuple(out.shape) == (1, 2, OUT)


def test_without_weights_a_float_mask_goes_to_the_attention_per_head(torch):
    mask = RNG.standard_normal((2 * HEADS, 1, 5)).astype(np.float32)
    check_grads(lambda lib, *t: _pool(lib, *t[:-1], mask=t[-1].detach()), [X, *W.values(), mask], torch)


def test_without_weights_the_output_node_is_torchs(torch):
    names = []
    for lib in (core, torch):
        leaves = [lib.tensor(a, requires_grad=True) for a in (X, *W.values())]
        names.append(_pool(lib, *leaves).grad_fn.name())
    assert names[0] == names[1]


def _half(lib, module=False):
    rng = np.random.default_rng(1)
    shapes = [(2, 4, 20, 16), (2, 4, 30, 16), (2, 4, 30, 16)]
    q, k, v = (lib.tensor(rng.standard_normal(s).astype(np.float16)) for s in shapes)
    if not module:
        return lib.nn.functional.scaled_dot_product_attention(q, k, v)
    lib.manual_seed(0)
    mha = lib.nn.MultiheadAttention(32, 4).half()
    x = lib.tensor(rng.standard_normal((7, 3, 32)).astype(np.float16))
    return mha(x, x, x, need_weights=False)[0]


def test_float16_attention_rounds_as_torchs_cpu_kernel(torch):
    ours, theirs = to_numpy(_half(core).float()), to_numpy(_half(torch).float())
    assert np.abs(ours - theirs).max() <= 2 ** -10 * np.abs(theirs).max()  # one float16 step at most
    assert (ours != theirs).mean() < 0.25  # the kernel's blocked softmax and its vector exp: 16% (was all of a row's)


def test_float16_multihead_attention_without_weights_matches_torch(torch):
    with core.no_grad():
        ours = _half(core, module=True)
    with torch.no_grad():
        theirs = _half(torch, module=True)
    assert_same(ours, theirs, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("need_weights", [False, True])
@pytest.mark.parametrize("padding", [False, True])
def test_the_causal_hint_with_its_mask_and_a_key_padding_mask(torch, need_weights, padding):
    mask = np.triu(np.ones((5, 5), dtype=bool), 1)
    pad = np.array([[False] * 4 + [True], [False] * 5])

    def attend(lib, x, w, b):
        out, _ = lib.nn.functional.multi_head_attention_forward(
            x, x, x, E, HEADS, w, b, None, None, False, 0.0, w[:E], b[:E], key_padding_mask=lib.tensor(pad)
            if padding else None, need_weights=need_weights, attn_mask=lib.tensor(mask), is_causal=True)
        return out
    check_grads(attend, [X, np.concatenate([W["q"], W["k"], W["v"]]), W["b"]], torch)
