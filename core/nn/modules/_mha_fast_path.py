"""The attention modules' fast paths: ``torch._native_multi_head_attention`` as PyTorch's CPU kernel computes it, for
``nn.MultiheadAttention`` and inside ``nn.TransformerEncoderLayer``'s ``_transformer_encoder_layer_fwd``.

PyTorch's module hands self-attention to a fused kernel when no graph is recorded (``no_grad``, inference mode, or
nothing requires grad) and the module is in its plain inference form (``takes_fast_path``: torch's
``why_not_fast_path`` conditions). Its arithmetic order differs from the composite ``F.multi_head_attention_forward``
in the last bits (aten/src/ATen/native/transformers/attention.cpp, ``native_multi_head_attention_cpu``):

- without weights or a mask and with a head size that is a multiple of 8, ``linear`` (bias included) and
  ``scaled_dot_product_attention`` (the CPU flash kernel) then the output ``linear``;
- otherwise: ``query @ in_proj_weight.T`` without the bias; ``_transform_bias_rescale_qkv`` adds the bias and
  multiplies q by ``float(1 / sqrt(float(head_dim)))`` (so q is scaled before the product, after its bias); the
  scores ``bmm(q, k^T)``; softmax, or with a mask (any nonzero entry of the merged float mask masks) the masked
  softmax of ``host_softmax``: glibc's ``expf`` of ``x - max`` over the unmasked keys, summed in order in double,
  each exp times the double ``1 / sum`` (a row with every key masked is NaN); ``bmm`` with v, and the output
  ``linear`` of the heads put back in order. The weights, when asked for, are those probabilities, summed over
  the heads and divided by their number when averaged.

The result is a fresh (batch, seq, embed) tensor with no graph, as PyTorch's.
"""

from __future__ import annotations

import numpy as np

import core
from core import _glibc
from core.nn import functional as F
from core.nn.functional.attention import _canonical_mask


def takes_fast_path(module, query, key, value, attn_mask, key_padding_mask) -> bool:
    """Whether PyTorch's ``MultiheadAttention.forward`` calls ``_native_multi_head_attention`` (its
    ``why_not_fast_path`` stays empty): self-attention of a batch-first, even-headed, packed module in eval mode,
    bool masks only, no autocast, no ``__torch_function__`` argument and no graph to record."""
    if any(m is not None and m.is_floating_point() for m in (attn_mask, key_padding_mask)):
        return False
    if not core.backends.mha.get_fastpath_enabled() or query.dim() != 3 or query is not key or key is not value \
            or query.is_nested:
        return False
    weight, bias = module.in_proj_weight, module.in_proj_bias
    if weight is None or bias is None or query.dtype != weight.dtype or query.dtype != bias.dtype:
        return False  # (no in_proj_bias: torch's conditions hold, but it calls the composite path)
    if module.training or module.num_heads % 2 or not module.batch_first or module.bias_k is not None \
            or module.bias_v is not None or module.add_zero_attn or not module._qkv_same_embed_dim:
        return False
    if core.is_autocast_enabled():
        return False
    tensors = (query, weight, bias, module.out_proj.weight, module.out_proj.bias)
    if core.overrides.has_torch_function(tensors) or any(t.device.type != "cpu" for t in tensors if t is not None):
        return False  # (torch's CUDA kernel is another order: core keeps the composite path there)
    return not (core.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors))


def layer_takes_fast_path(layer, src, src_mask, src_key_padding_mask) -> bool:
    """Whether PyTorch's ``TransformerEncoderLayer.forward`` calls ``_transformer_encoder_layer_fwd``: its
    conditions are the attention's, but float masks pass (they come canonical), relu or gelu only, equal norm eps
    and no forward hooks anywhere in the layer."""
    attn = layer.self_attn
    if not core.backends.mha.get_fastpath_enabled() or src.dim() != 3 or layer.training or not attn.batch_first \
            or attn.in_proj_bias is None or not attn._qkv_same_embed_dim or not layer.activation_relu_or_gelu \
            or layer.norm1.eps != layer.norm2.eps or src.is_nested or attn.num_heads % 2 \
            or core.is_autocast_enabled():
        return False
    if any(len(getattr(m, "_forward_hooks", {})) + len(getattr(m, "_forward_pre_hooks", {})) for m in layer.modules()):
        return False
    tensors = (src, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight, attn.out_proj.bias,
               layer.norm1.weight, layer.norm1.bias, layer.norm2.weight, layer.norm2.bias, layer.linear1.weight,
               layer.linear1.bias, layer.linear2.weight, layer.linear2.bias)
    if core.overrides.has_torch_function(tensors) or any(t.device.type != "cpu" for t in tensors if t is not None):
        return False
    return not (core.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors))


def layer_forward(layer, src, src_mask, src_key_padding_mask):
    """``_transformer_encoder_layer_fwd``: the fused attention without weights, then the layer's residuals, norms
    and feed-forward block in the composite order (``x.add_(src)``, ``linear``, ``relu_``/``gelu_``, ``linear``).
    The masks come canonical (float)."""
    attn = layer.self_attn
    mask, mask_type = attn.merge_masks(src_mask, src_key_padding_mask, src)
    act = F.gelu if layer.activation_relu_or_gelu == 2 else F.relu
    with core.no_grad():
        x = layer.norm1(src) if layer.norm_first else src
        x = _native(x, attn.num_heads, attn.in_proj_weight, attn.in_proj_bias, attn.out_proj.weight,
                    attn.out_proj.bias, mask, mask_type, False, True)[0] + src
        x = x if layer.norm_first else layer.norm1(x)
        ffn = layer.linear2(act(layer.linear1(layer.norm2(x) if layer.norm_first else x))) + x
        return ffn if layer.norm_first else layer.norm2(ffn)


def forward(module, query, attn_mask, key_padding_mask, need_weights, average_attn_weights):
    """``(output, weights or None)`` of the module's fast path on a (batch, seq, embed) ``query``."""
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype)
    attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
    mask, mask_type = module.merge_masks(attn_mask, key_padding_mask, query)
    with core.no_grad():
        return _native(query, module.num_heads, module.in_proj_weight, module.in_proj_bias, module.out_proj.weight,
                       module.out_proj.bias, mask, mask_type, need_weights, average_attn_weights)


def _native(query, heads, qkv_weight, qkv_bias, proj_weight, proj_bias, mask, mask_type, need_weights, average):
    batch, seq, embed = query.shape
    head = embed // heads
    if not need_weights and mask is None and head % 8 == 0 and core.backends.cuda.flash_sdp_enabled():
        q, k, v = (t.view(batch, -1, heads, head).transpose(1, 2) for t in F.linear(query, qkv_weight,
                                                                                   qkv_bias).chunk(3, -1))
        out = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(batch, -1, embed)
        return F.linear(out, proj_weight, proj_bias), None
    qkv = core.matmul(query, qkv_weight.t())
    qkv = (qkv + qkv_bias).view(batch, seq, 3, heads, head).permute(2, 0, 3, 1, 4)
    scale = core.tensor(np.float32(1.0 / np.sqrt(np.float32(head))), dtype=query.dtype, device=query.device)
    q, k, v = (t.reshape(batch * heads, seq, head) for t in (qkv[0] * scale, qkv[1], qkv[2]))
    scores = core.bmm(q, k.transpose(1, 2)).view(batch, heads, seq, seq)
    probs = F.softmax(scores, -1) if mask is None else _masked_softmax(scores, mask, mask_type)
    context = core.bmm(probs.view(batch * heads, seq, seq), v).view(batch, heads, seq, head)
    out = F.linear(context.transpose(1, 2).reshape(batch * seq, embed), proj_weight, proj_bias)
    out = out.view(batch, seq, out.size(-1))
    if not need_weights:
        return out, None
    if average:
        probs = probs.sum(1)
        probs /= heads
    return out, probs


def _masked_softmax(scores, mask, mask_type):
    """``_masked_softmax`` on the CPU (``host_softmax`` with a mask): a padding mask (type 1) is (batch, keys); a
    merged one (type 2) the scores' shape. Any nonzero entry of the float mask masks its key."""
    x = scores.numpy()
    masked = mask.numpy() != 0
    masked = masked[:, None, None, :] if mask_type == 1 else np.broadcast_to(masked, x.shape)
    kept = np.where(masked, -np.inf, x).max(-1, keepdims=True)
    top = np.where(np.isneginf(kept), x[..., :1], kept)  # (every key masked: the first score, as the kernel)
    shifted = x - top
    z = _glibc.expf(shifted) if x.dtype == np.float32 else np.exp(shifted)  # (std::exp; double: glibc's exp)
    z = np.where(masked, 0.0, z.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = z * (1 / np.cumsum(z, -1)[..., -1:])  # (summed in order, in double)
    return core.tensor(out.astype(x.dtype), device=scores.device)
