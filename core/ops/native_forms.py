"""ATen's native forms at ``torch.*`` that older or low-level code calls directly.

``native_layer_norm``/``native_batch_norm``/``native_group_norm`` return PyTorch's triples (output, mean, inverse
standard deviation; only the output carries a gradient, as in PyTorch), ``native_dropout`` the output and its
Boolean keep-mask (the same draws as ``F.dropout``), ``conv_tbc`` a 1-D convolution over (time, batch, channel)
inputs. ``convolution``/``ctc_loss``/``grid_sampler`` are the ATen entry points with integer enums (reduction
0/1/2 = none/mean/sum; interpolation 0/1/2 = bilinear/nearest/bicubic; padding 0/1/2 = zeros/border/reflection).
``constant_pad_nd``, ``frobenius_norm`` and ``nuclear_norm`` are the old names of padding and matrix norms (the
norms warn that they are deprecated once per process, or every time under ``set_warn_always(True)``, as PyTorch).
``embedding_bag`` is ATen's form (weight first, an integer mode) with its four results.
"""

from __future__ import annotations

import core
from core._warn_once import warn_once
from core.autograd.function import Function


def _deprecated(name: str, instead: str) -> None:
    warn_once(f"at::{name}", f"at::{name} is deprecated and it is just left for JIT compatibility. It will be "
              f"removed in a future PyTorch release. Please use `{instead}` instead")  # (PyTorch's TORCH_WARN_ONCE)
__all__ = ["native_layer_norm", "native_batch_norm", "native_dropout", "conv_tbc", "constant_pad_nd",
           "frobenius_norm", "nuclear_norm", "native_group_norm", "native_channel_shuffle", "norm_except_dim",
           "convolution", "ctc_loss", "affine_grid_generator", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d",
           "fill", "detach_", "feature_dropout_", "feature_alpha_dropout_", "embedding_bag"]


def _functional():
    import core.nn.functional as F  # core.nn loads after core.ops

    return F


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """``(layer_norm(input), mean, rstd)``; mean and rstd keep the normalised dims as size 1."""
    out = _functional().layer_norm(input, list(normalized_shape), weight, bias, eps)
    dims = tuple(range(input.dim() - len(normalized_shape), input.dim()))
    x = input.detach()
    from core.nn.functional._layer_norm_kernel import layer_norm_stats  # PyTorch's kernel's statistics

    stats = layer_norm_stats(x._data, len(normalized_shape), eps)
    if stats is not None:
        return out, core.from_numpy(stats[0]), core.from_numpy(stats[1])
    mean = x.mean(dims, keepdim=True)
    rstd = (x.var(dims, unbiased=False, keepdim=True) + eps).rsqrt()
    return out, mean, rstd


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """``(batch_norm(input), save_mean, save_invstd)``; in evaluation the two saved statistics are empty."""
    out = _functional().batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training:
        empty = core.empty(0, dtype=input.dtype, device=input.device)
        return out, empty, empty.clone()
    dims = (0,) + tuple(range(2, input.dim()))
    x = input.detach()
    return out, x.mean(dims), (x.var(dims, unbiased=False) + eps).rsqrt()


def native_dropout(input, p, train):
    """``(output, mask)``: PyTorch's dropout draws; not training (``train`` False) keeps everything."""
    if train is not None and not train:
        return input.clone(), core.ones_like(input, dtype=core.bool)
    from core.nn.functional._dropout import _keep_mask  # the dropout noise, drawn as F.dropout draws it

    noise = _keep_mask(tuple(input.shape), p, input)
    return input * noise, (noise != 0).expand(tuple(input.shape)).clone()


def conv_tbc(input, weight, bias, pad=0):
    """Convolution of a (time, batch, in) input with a (kernel, in, out) weight, zero-padded by ``pad`` in time."""
    if input.dim() != 3:
        raise RuntimeError("Input must have 3 dims: time, batch, in_channel")
    if weight.dim() != 3:
        raise RuntimeError("Weight tensor must have 3 dims: kernel_width, in_channels, out_channels.")
    if bias.dim() != 1:
        raise RuntimeError("Bias must be 1-D")
    out = _functional().conv1d(input.permute(1, 2, 0), weight.permute(2, 1, 0), bias, padding=pad)
    return out.permute(2, 0, 1)


def constant_pad_nd(input, pad, value=0):
    return _functional().pad(input, tuple(pad), mode="constant", value=value)


def frobenius_norm(input, dim=(-2, -1), keepdim=False, *, out=None):
    _deprecated("frobenius_norm", "linalg.vector_norm(A, 2., dim, keepdim)")
    result = core.linalg.vector_norm(input, 2, dim=tuple(dim) if not isinstance(dim, int) else dim, keepdim=keepdim)
    return result if out is None else out.copy_(result.detach())


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """The sum of singular values over the matrix dims (``dim``: two dims, default the last two)."""
    _deprecated("nuclear_norm", "linalg.matrix_norm(A, 'nuc', dim, keepdim)")
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    result = core.linalg.matrix_norm(input, "nuc", dim=(-2, -1) if dim is None else tuple(dim), keepdim=keepdim)
    return result if out is None else out.copy_(result.detach())


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """``(group_norm(input), mean, rstd)`` with the statistics shaped (N, group), all three from PyTorch's CPU
    kernel arithmetic (float64 included: whoever asks for the statistics compares them) and one
    ``NativeGroupNormBackward0`` node. As ATen, the input is read as (N, C, HxW) whatever its shape."""
    from core.nn.functional.norm import native_group_norm_outputs  # (core.nn builds on the ops)

    flat = None if input.dim() >= 2 and tuple(input.shape[:2]) == (N, C) else (N, C, HxW)
    if flat is not None and input.numel() != N * C * HxW:  # (the view's error, as before)
        input.reshape(flat)
    # NOTE: another shape is read as (N, C, HxW) inside the node, as ATen does: no view node before it
    return native_group_norm_outputs(input, group, weight, bias, eps, exact64=True, flat=flat)


def native_channel_shuffle(input, groups):
    return _functional().channel_shuffle(input, groups)


def norm_except_dim(v, pow=2, dim=0):
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (kept as size 1); ``dim=-1``: over everything."""
    if dim == -1:
        return core.linalg.vector_norm(v, pow)
    others = tuple(d for d in range(v.dim()) if d != dim % v.dim())
    return core.linalg.vector_norm(v, pow, dim=others, keepdim=True)


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    """``conv{1,2,3}d`` or ``conv_transpose{1,2,3}d`` picked by the weight's dims and ``transposed``."""
    nd = weight.dim() - 2
    F = _functional()
    if transposed:
        conv = getattr(F, f"conv_transpose{nd}d")
        return conv(input, weight, bias, tuple(stride), tuple(padding), tuple(output_padding), groups,
                    tuple(dilation))
    return getattr(F, f"conv{nd}d")(input, weight, bias, tuple(stride), tuple(padding), tuple(dilation), groups)


_REDUCTIONS = {0: "none", 1: "mean", 2: "sum"}


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    return _functional().ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                                  _REDUCTIONS[reduction], zero_infinity)


def affine_grid_generator(theta, size, align_corners):
    return _functional().affine_grid(theta, list(size), align_corners)


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    mode = ("bilinear", "nearest", "bicubic")[interpolation_mode]
    padding = ("zeros", "border", "reflection")[padding_mode]
    return _functional().grid_sample(input, grid, mode, padding, align_corners)


grid_sampler_2d = grid_sampler_3d = grid_sampler


class _FillScalar(Function):
    """``torch.fill(x, 2.0)``: a tensor like ``x`` holding ``value``; ``x`` gets a zero gradient, as in PyTorch."""

    node_name = "FillBackward0"

    @staticmethod
    def forward(ctx, input, *, value):
        return core.full_like(input, value)

    @staticmethod
    def backward(ctx, g):
        return core.zeros_like(g)


class _FillTensor(Function):
    """``torch.fill(x, v)`` with a 0-d tensor ``v``, which gets the gradient's sum."""

    node_name = "FillBackward1"

    @staticmethod
    def forward(ctx, input, value):
        return core.full_like(input, value.item())

    @staticmethod
    def backward(ctx, g):
        return core.zeros_like(g), g.sum()


def fill(input, value):
    """A new tensor shaped like ``input`` filled with ``value`` (a number or a 0-d tensor), differentiable as
    PyTorch's ``fill`` is."""
    if isinstance(value, core.Tensor):
        if value.dim():
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value.dim()} "
                               "dimensions.")
        return _FillTensor.apply(input, value)
    return _FillScalar.apply(input, value=value)


def detach_(input):
    return input.detach_()


def feature_dropout_(input, p, train):
    return input.copy_(core.feature_dropout(input, p, train))


def feature_alpha_dropout_(input, p, train):
    return input.copy_(core.feature_alpha_dropout(input, p, train))


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """``torch.embedding_bag``: ``(output, offset2bag, bag_size, max_indices)`` for mode 0/1/2 = sum/mean/max.

    The output is ``F.embedding_bag``'s (with its gradient); the index results are PyTorch's CPU kernel's: the bag of
    each index (left empty by the float32/16 sum's fast path, which a ``padding_idx`` turns off), each bag's count
    of indices that are not ``padding_idx`` (zeros for a sum), and for a max the row that won each bag's feature
    (a mean repeats the counts there, a sum gives zeros)."""
    import numpy as np

    from core.nn.functional import embedding_bag as functional_bag

    output = functional_bag(indices, weight, offsets, None, 2, scale_grad_by_freq, ("sum", "mean", "max")[mode],
                            sparse, per_sample_weights, include_last_offset, padding_idx)
    pad = None if padding_idx is None else padding_idx % weight.shape[0]
    idx = indices.cpu().numpy().astype(np.int64).reshape(-1)
    offs = offsets.cpu().numpy().astype(np.int64)
    n_bags = len(offs) - 1 if include_last_offset else len(offs)
    bag = np.searchsorted(offs[:n_bags], np.arange(len(idx)), side="right") - 1
    keep = idx != pad if pad is not None else np.ones(len(idx), dtype=bool)
    counts = np.bincount(bag[keep], minlength=n_bags)[:n_bags] if n_bags else np.zeros(0, np.int64)
    differentiable = core.is_grad_enabled() and (weight.requires_grad or getattr(per_sample_weights, "requires_grad",
                                                                                 False))
    fast_sum = mode == 0 and pad is None and weight.dtype in (core.float32, core.float16, core.bfloat16)
    offset2bag = np.zeros(0, np.int64) if fast_sum else bag
    sum_sizes = n_bags if differentiable else len(offs)  # (the forward-only kernel gives one zero per offset)
    bag_size = np.zeros(sum_sizes, np.int64) if mode == 0 else counts
    if mode == 2:
        rows = weight.detach().cpu().numpy()
        max_indices = np.zeros((n_bags, weight.shape[1]), np.int64)
        for b in range(n_bags):
            members = idx[(bag == b) & keep]
            if len(members):
                max_indices[b] = members[np.argmax(rows[members], axis=0)]
    else:
        max_indices = bag_size if mode == 1 else np.zeros(sum_sizes, np.int64)
    device = weight.device
    return (output, *(core.tensor(a.astype(np.int64), device=device) for a in (offset2bag, bag_size, max_indices)))
