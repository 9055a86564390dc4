"""Attention: ``scaled_dot_product_attention`` and ``multi_head_attention_forward``, as PyTorch computes them.

Both are composed from ``core`` ops (``matmul``/``baddbmm``, ``softmax``, ``dropout``, views), so
autograd differentiates them, but for what PyTorch's CPU flash kernel computes in float32/float64: one node
(``FlashAttentionCPU``, ``_flash_cpu``) with that kernel's bits and, as its, no forward-mode or double
derivative. Masks follow PyTorch's conventions: a boolean ``attn_mask`` is True where attention is *allowed* for
SDPA but True where it is *forbidden* for multi-head attention (where it becomes ``-inf``), a float mask is added
to the scores, and a key padding mask is True at padded keys.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core._tensor import new_tensor
from core._user_warning import warn_in_core
from core.amp import _casting as _autocast
from core.autograd import grad_mode
from core.autograd.function import Function
from core.backends import cuda as _sdp_flags
from core.nn._fused_names import fused_name
from core.nn.functional import _flash_cpu
from core.nn.functional._dropout import dropout
from core.nn.functional._pad import pad
from core.nn.functional.activation import softmax

__all__ = ["scaled_dot_product_attention", "multi_head_attention_forward"]


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(Q K^T * scale + mask) V over the last two dimensions; ``is_causal`` masks the upper triangle."""
    if _autocast.regions and core.is_autocast_enabled("cpu"):  # PyTorch's per-op cast (core.amp._casting), then
        query, key, value = _autocast.lower(query, key, value)  # its kernel runs with autocast off: the float32
        with core.autocast("cpu", enabled=False):  # products inside a bfloat16 attention stay float32
            return scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    _check_cpu_backend(query, key, value, dropout_p)
    if attn_mask is not None and type(attn_mask) is not core.Tensor and type(attn_mask).__name__ == "CausalBias":
        from core.nn.attention.bias import causal_mask_arguments  # attention.bias builds on core's ops

        attn_mask, is_causal = causal_mask_arguments(attn_mask, is_causal)
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    if is_causal and attn_mask is not None:
        if not _flash_shapes(query, key, value, dropout_p):  # the math kernel refuses both
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when "
                               "is_causal=True")
        # NOTE: PyTorch's CPU flash kernel applies both: the mask within the causal (top-left) triangle
        allowed = core.ones(L, S, dtype=core.bool, device=query.device).tril()
        attn_mask = attn_mask & allowed if attn_mask.dtype is core.bool \
            else attn_mask.masked_fill(allowed.logical_not(), -math.inf)
        is_causal = False
    if enable_gqa:
        if query.size(-3) % key.size(-3) or query.size(-3) % value.size(-3):
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")  # (sic)
    if _flash_exact(query, key, value, attn_mask, dropout_p) and key.size(1) == value.size(1) \
            and (enable_gqa or key.size(1) == query.size(1)):
        mask = None if attn_mask is None else attn_mask._data
        if mask is not None and mask.dtype == np.bool_:
            dtype = query._data.dtype.type
            mask = np.where(mask, dtype(0), dtype(-np.inf))
        return FlashAttentionCPU.apply(query, key, value, mask=mask, causal=is_causal, scale=scale)
    if enable_gqa:  # (the flash kernel reads the shared heads itself)
        repeat = query.size(-3) // key.size(-3)
        key, value = key.repeat_interleave(repeat, -3), value.repeat_interleave(repeat, -3)
    if query.dtype in (core.bfloat16, core.float16) and dropout_p == 0.0:
        out = _flash_reduced(query, key, value, attn_mask, is_causal, scale_factor)
        return _in_query_layout(out, query) if _flash_shapes(query, key, value, dropout_p) else out
    # NOTE: PyTorch's math kernel scales q and k each by sqrt(scale) before the product (for stability), and adds
    # the mask (a bool or causal one as 0 / -inf)
    root = math.sqrt(abs(scale_factor))
    scores = core.matmul(query * (-root if scale_factor < 0 else root), key.transpose(-2, -1) * root)
    if is_causal:
        allowed = core.ones(L, S, dtype=core.bool, device=query.device).tril()
        scores = scores.masked_fill(allowed.logical_not(), -math.inf)
    elif attn_mask is not None:
        if attn_mask.dtype is core.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), -math.inf)
        else:
            scores = scores + attn_mask
    if attn_mask is None:
        weights = softmax(scores, dim=-1)
    else:  # NOTE: PyTorch's safe softmax: a row whose every key is masked attends to nothing (0, not NaN)
        dead = (scores.detach() == -math.inf).all(-1, keepdim=True)
        weights = softmax(scores.masked_fill(dead, 0.0), dim=-1).masked_fill(dead, 0.0)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=True)
    out = core.matmul(weights, value)
    if _flash_shapes(query, key, value, dropout_p):  # PyTorch's CPU kernel for these: its node's name on the result
        return fused_name(_in_query_layout(out, query), "ScaledDotProductFlashAttentionForCpuBackward0")
    return out


def _in_query_layout(out, query):
    """PyTorch's CPU flash kernel writes its result into ``empty_like(query)``: the result's dims lie in memory in
    the order of the query's strides. A query viewed from (B, L, H, D) and transposed gives a result whose
    ``transpose(1, 2)`` is contiguous, so ``.view(B, L, H * D)`` works on it as the tutorials do."""
    order = sorted(range(out.dim()), key=lambda d: -query.stride(d))  # stable: equal strides keep their order
    if order == list(range(out.dim())):
        return out
    return out.permute(order).contiguous().permute([order.index(d) for d in range(out.dim())])


_FLASH_DTYPES = (core.float32, core.float64, core.bfloat16, core.float16)


def _check_cpu_backend(query, key, value, dropout_p) -> None:
    """PyTorch's CPU backend choice (``sdp_utils_cpp``): its flash kernel where that is enabled and its checks pass,
    else the math one. With both switched off (``sdpa_kernel(SDPBackend.EFFICIENT_ATTENTION)``: CPUs have no
    memory-efficient or cuDNN kernel) no backend is viable; with math off and flash unusable there is no kernel.
    core computes one way whatever the choice, so only these errors depend on the flags."""
    if _sdp_flags.math_sdp_enabled():
        return
    if not _sdp_flags.flash_sdp_enabled():
        raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This is likely due to "
                           "turning off both the math kernel and the fused kernels.")
    usable = (query.dim() == key.dim() == value.dim() == 4 and dropout_p == 0.0
              and query.size(-1) == key.size(-1) == value.size(-1)
              and query.stride(-1) == key.stride(-1) == value.stride(-1) == 1
              and all(t.dtype in _FLASH_DTYPES for t in (query, key, value)))
    if not usable:
        raise RuntimeError("No available kernel.  Aborting execution.")


def _flash_shapes(query, key, value, dropout_p) -> bool:
    """Whether PyTorch's CPU dispatch picks its flash kernel (sdp_utils_cpp's checks): flash enabled, 4-D inputs with
    one head size, no dropout, no empty sequence, unit stride along the head dim."""
    return (_sdp_flags.flash_sdp_enabled() and query.dim() == key.dim() == value.dim() == 4 and dropout_p == 0.0
            and query.size(-1) == key.size(-1) == value.size(-1) and query.size(-2) > 0 and key.size(-2) > 0
            and query.stride(-1) == key.stride(-1) == value.stride(-1) == 1)


def _flash_exact(query, key, value, attn_mask, dropout_p) -> bool:
    """Whether ``_flash_cpu`` computes this attention: PyTorch's flash kernel's float32 and float64 cases (NumPy
    arrays of one dtype), with no mask or a bool one or one of their dtype that needs no gradient."""
    if not _flash_shapes(query, key, value, dropout_p):
        return False
    if query.dtype not in (core.float32, core.float64) or not all(
            t.dtype is query.dtype and type(t._data) is np.ndarray for t in (query, key, value)):
        return False
    if attn_mask is None:
        return True
    return attn_mask.dtype in (core.bool, query.dtype) and not attn_mask.requires_grad \
        and type(attn_mask._data) is np.ndarray and attn_mask.dim() <= 4


class FlashAttentionCPU(Function):
    """float32/float64 attention as PyTorch's CPU flash kernel computes it (``_flash_cpu``): one node, its name
    PyTorch's, the result laid out in the query's dim order (it writes into ``empty_like(query)``)."""

    node_name = "ScaledDotProductFlashAttentionForCpuBackward0"

    @staticmethod
    def forward(ctx, query, key, value, *, mask, causal, scale):
        q, k, v = query._data, key._data, value._data
        out, lse = _flash_cpu.forward(q, k, v, mask, causal, scale)
        ctx.save_for_backward(query, key, value)
        ctx.flash = (out, lse, mask, causal, scale)
        order = sorted(range(4), key=lambda d: -query.stride(d))  # stable: equal strides keep their order
        if order != [0, 1, 2, 3]:
            out = np.ascontiguousarray(out.transpose(order)).transpose([order.index(d) for d in range(4)])
        return out

    @staticmethod
    def backward(ctx, g):
        query, key, value = ctx._unpacked
        out, lse, mask, causal, scale = ctx.flash
        grads = _flash_cpu.backward(np.ascontiguousarray(g._data), query._data, key._data, value._data, out, lse,
                                    mask, causal, scale)
        if grad_mode._state.enabled:  # create_graph: gradients whose own backward refuses, as PyTorch's
            return tuple(_FlashGradient.apply(g, query, key, value, value=x) for x in grads)
        return tuple(new_tensor(x) for x in grads)

    @staticmethod
    def jvp(ctx, *tangents):
        raise NotImplementedError("Trying to use forward AD with _scaled_dot_product_flash_attention_for_cpu that "
                                  "does not support it because it has not been implemented yet.")


class _FlashGradient(Function):
    """A gradient of the flash node under ``create_graph``: PyTorch defines no derivative for its backward kernel,
    so the gradient requires grad and differentiating it again raises."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, *tensors, value):
        return value

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_scaled_dot_product_flash_attention_for_cpu_backward is not "
                           "implemented")


def _flash_reduced(query, key, value, attn_mask, is_causal: bool, scale: float):
    """bfloat16 and float16 attention as PyTorch's CPU flash kernel computes it: scores, exponentials and row sums
    in float32, the exponentials rounded to the input's dtype for their product with V, the division by the row
    sums after it, and the result rounded (its blocked online softmax can still differ in the last bit of ~2% of
    the elements)."""
    q, k, v = query.float(), key.float(), value.float()
    scores = core.matmul(q, k.transpose(-2, -1)) * scale
    if is_causal:
        allowed = core.ones(q.size(-2), k.size(-2), dtype=core.bool, device=q.device).tril()
        scores = scores.masked_fill(allowed.logical_not(), -math.inf)
    elif attn_mask is not None:
        scores = scores.masked_fill(attn_mask.logical_not(), -math.inf) if attn_mask.dtype is core.bool \
            else scores + attn_mask.float()
    dead = (scores.detach() == -math.inf).all(-1, keepdim=True)  # a row with no key attends to nothing (0)
    scores = scores.masked_fill(dead, 0.0)
    e = (scores - scores.detach().amax(-1, keepdim=True)).exp()
    out = core.matmul(e.to(query.dtype).float(), v) / e.sum(-1, keepdim=True)
    return out.masked_fill(dead, 0.0).to(query.dtype)


def _canonical_mask(mask, name: str, other_type, other_name: str, target_type):
    """A boolean mask becomes a float mask with ``-inf`` where True; a float mask passes through."""
    if mask is None:
        return None
    if mask.dtype is not core.bool and not mask.is_floating_point():
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if other_type is not None and mask.dtype is not other_type:
        warn_in_core(f"Support for mismatched {name} and {other_name} is deprecated. Use same type for both "
                     "instead.")  # (torch's names its functional.py, or activation.py from the module)
    if mask.dtype is core.bool:
        return core.zeros_like(mask, dtype=target_type).masked_fill(mask, -math.inf)
    return mask


def linear(input, weight, bias=None):
    """``F.linear`` looked up in ``core.nn.functional`` at each call, as torch's multi-head attention calls it: a
    ``__torch_function__`` handler or mode (``FlopCounterMode``) sees the projections."""
    return core.nn.functional.linear(input, weight, bias)


def _in_projection(query, key, value, in_proj_weight, in_proj_bias, separate):
    """q, k, v = the three input projections (one packed weight, or three when ``separate`` is given)."""
    if separate is None:
        w_q, w_k, w_v = in_proj_weight.chunk(3)
    else:
        w_q, w_k, w_v = separate
    b_q, b_k, b_v = in_proj_bias.chunk(3) if in_proj_bias is not None else (None, None, None)
    return linear(query, w_q, b_q), linear(key, w_k, b_k), linear(value, w_v, b_v)


def _merge_masks(attn_mask, key_padding_mask, bsz, num_heads, tgt_len, src_len):
    if attn_mask is not None and attn_mask.dim() == 2:
        if tuple(attn_mask.shape) != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {tuple(attn_mask.shape)}, but should be "
                               f"{(tgt_len, src_len)}.")
        attn_mask = attn_mask.unsqueeze(0)
    elif attn_mask is not None and tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
        raise RuntimeError(f"The shape of the 3D attn_mask is {tuple(attn_mask.shape)}, but should be "
                           f"{(bsz * num_heads, tgt_len, src_len)}.")
    if key_padding_mask is not None:
        kpm = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    return attn_mask


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Inputs are (L, N, E) or unbatched (L, E); returns (output, weights or None) as PyTorch's."""
    unbatched = query.dim() == 2
    if unbatched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       None if attn_mask is None else attn_mask.dtype, "attn_mask", query.dtype)
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the hint alone goes to scaled_dot_product_attention
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype)
        is_causal = is_causal and key_padding_mask is None  # a merged mask is no longer causal
    separate = (q_proj_weight, k_proj_weight, v_proj_weight) if use_separate_proj_weight else None
    q, k, v = _in_projection(query, key, value, in_proj_weight, in_proj_bias, separate)
    if bias_k is not None and bias_v is not None:
        k = core.cat([k, bias_k.repeat(1, bsz, 1)])
        v = core.cat([v, bias_v.repeat(1, bsz, 1)])
        attn_mask = pad(attn_mask, (0, 1)) if attn_mask is not None else None
        key_padding_mask = pad(key_padding_mask, (0, 1)) if key_padding_mask is not None else None
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = (k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_k is None else static_k)
    v = (v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1) if static_v is None else static_v)
    if add_zero_attn:
        k = core.cat([k, core.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)], dim=1)
        v = core.cat([v, core.zeros((bsz * num_heads, 1, head_dim), dtype=v.dtype, device=v.device)], dim=1)
        attn_mask = pad(attn_mask, (0, 1)) if attn_mask is not None else None
        key_padding_mask = pad(key_padding_mask, (0, 1)) if key_padding_mask is not None else None
    src_len = k.size(1)
    attn_mask = _merge_masks(attn_mask, key_padding_mask, bsz, num_heads, tgt_len, src_len)
    if not training:
        dropout_p = 0.0
    if not need_weights:  # PyTorch hands this case to scaled_dot_product_attention
        return _sdpa_heads(q, k, v, attn_mask, dropout_p, is_causal, (tgt_len, bsz, num_heads, embed_dim),
                           out_proj_weight, out_proj_bias, unbatched)
    q_scaled = q * math.sqrt(1.0 / head_dim)
    if attn_mask is not None:
        scores = core.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        scores = core.bmm(q_scaled, k.transpose(-2, -1))
    weights = softmax(scores, dim=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, p=dropout_p)
    out = core.bmm(weights, v).transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
    out = linear(out, out_proj_weight, out_proj_bias)  # its width may differ from embed_dim (CLIP's attention pool)
    out = out.view(tgt_len, bsz, out.size(1))
    if unbatched:
        out = out.squeeze(1)
    if not need_weights:
        return out, None
    weights = weights.view(bsz, num_heads, tgt_len, src_len)
    if average_attn_weights:
        weights = weights.mean(dim=1)
    return out, weights.squeeze(0) if unbatched else weights


def _sdpa_heads(q, k, v, attn_mask, dropout_p, is_causal, sizes, out_proj_weight, out_proj_bias, unbatched):
    """multi_head_attention_forward's ``need_weights=False`` route, as PyTorch's: the (N*H, L, D) heads go through
    ``scaled_dot_product_attention`` as (N, H, L, D), then the output projection."""
    tgt_len, bsz, num_heads, embed_dim = sizes
    src_len = k.size(1)
    if attn_mask is not None:
        attn_mask = attn_mask.unsqueeze(0) if attn_mask.size(0) == 1 and attn_mask.dim() == 3 \
            else attn_mask.view(bsz, num_heads, -1, src_len)
    q, k, v = (t.view(bsz, num_heads, t.size(1), t.size(2)) for t in (q, k, v))
    out = core.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)  # (as linear)
    out = linear(out.permute(2, 0, 1, 3).reshape(bsz * tgt_len, embed_dim), out_proj_weight, out_proj_bias)
    out = out.view(tgt_len, bsz, out.size(1))
    return (out.squeeze(1) if unbatched else out), None
