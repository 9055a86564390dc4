"""``embedding_bag``, ``pdist``, ``channel_shuffle`` and ``feature_alpha_dropout``, composed from core ops.

Each follows PyTorch's argument checks and messages; gradients come from the ops they are built of
(``embedding``, ``index_add``, ``scatter_reduce``, ``vector_norm``...), and ``embedding_bag`` and ``pdist`` end in
a node named as PyTorch's fused kernels' (``EmbeddingBagBackward0``, ``PdistBackward0``; see ``core.nn._fused_names``).
"""

from __future__ import annotations

import numpy as np

import core
from core._alias import alias
from core._memory_format import in_suggested_format
from core._tensor import Tensor, new_tensor
from core.nn._fused_names import fused_name
from core.nn.functional.misc import embedding
from core.ops._strided import relaid

__all__ = ["embedding_bag", "pdist", "channel_shuffle", "native_channel_shuffle", "feature_alpha_dropout"]

_ALPHA = 1.7580993408473766  # SELU's negative saturation, as in alpha_dropout


def _bag_offsets(input: Tensor, offsets, per_sample_weights):
    """Flatten a 2-D input to 1-D with one bag per row; check a 1-D input's offsets as PyTorch does."""
    if input.ndim == 2:
        if offsets is not None:
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = core.arange(0, input.numel(), input.shape[1], dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.ndim == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.ndim != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.ndim}")
    return input, offsets, per_sample_weights


def _check_bag_args(input, offsets, mode, per_sample_weights, include_last_offset):
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    for name, t in (("indices", input), ("offsets", offsets)):
        if t.dtype not in (core.int64, core.int32):
            raise RuntimeError(f"Expected tensor for argument #{1 if name == 'indices' else 2} '{name}' to have one "
                               f"of the following scalar types: Long, Int; but got {t.type()} instead (while "
                               f"checking arguments for embedding_bag)")
    offs = offsets.cpu().numpy().astype(np.int64)
    if offs.size and offs[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {offs[0]}")
    if offs.size and offs[-1] > input.numel():
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {input.numel()} but got "
                           f"offsets[-1] of {offs[-1]}")
    return offs


def _padding(padding_idx, rows: int):
    if padding_idx is None:
        return None
    if not -rows <= padding_idx < rows:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx % rows


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embedding rows, without materialising each bag's rows separately.

    Bag ``b`` holds ``input[offsets[b]:offsets[b + 1]]`` (or one row of a 2-D input); an empty bag gives
    zeros; indices equal to ``padding_idx`` are left out (and not counted by the mean)."""
    input, offsets, per_sample_weights = _bag_offsets(input, offsets, per_sample_weights)
    offs = _check_bag_args(input, offsets, mode, per_sample_weights, include_last_offset)
    padding_idx = _padding(padding_idx, weight.shape[0])
    idx = input.cpu().numpy().astype(np.int64)
    n_bags = len(offs) - 1 if include_last_offset else len(offs)
    # NOTE: with include_last_offset the last offset should be len(input); PyTorch's kernels disagree when it is
    # not (float32 sums stop there, the others run to the end); core stops there, as documented
    end = offs[-1] if include_last_offset else len(idx)
    position = np.arange(len(idx))
    bag = np.searchsorted(offs[:n_bags], position, side="right") - 1
    keep = position < end
    if padding_idx is not None:
        keep &= idx != padding_idx
    kept = new_tensor(idx[keep]).to(weight.device)
    rows = embedding(kept, weight, None, max_norm, norm_type, scale_grad_by_freq, sparse)
    if per_sample_weights is not None:
        rows = rows * per_sample_weights[new_tensor(np.flatnonzero(keep)).to(weight.device)].unsqueeze(1)
    bag_of_row = new_tensor(bag[keep]).to(weight.device)
    out = core.zeros(n_bags, weight.shape[1], dtype=rows.dtype, device=weight.device)
    if mode == "max":
        target = bag_of_row.unsqueeze(1).expand(-1, weight.shape[1])
        return fused_name(out.scatter_reduce(0, target, rows, "amax", include_self=False), "EmbeddingBagBackward0")
    out = out.index_add(0, bag_of_row, rows)
    if mode == "mean":
        counts = np.maximum(np.bincount(bag[keep], minlength=n_bags), 1)
        out = out / core.tensor(counts, dtype=out.dtype, device=out.device).unsqueeze(1)
    return fused_name(out, "EmbeddingBagBackward0")


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The ``p``-norm distances between all pairs of rows i < j, in row-major order of (i, j)."""
    if input.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.ndim}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if not input.is_floating_point():
        raise RuntimeError(f"pdist only supports floating-point dtypes, got: {input.type()}")
    first, second = np.triu_indices(input.shape[0], 1)
    diff = input[new_tensor(first)] - input[new_tensor(second)]
    return fused_name(core.linalg.vector_norm(diff, p, -1), "PdistBackward0")


def channel_shuffle(input: Tensor, groups: int) -> Tensor:
    """Interleave the channels of ``groups`` groups: (N, g * k, ...) -> channels ordered k-major."""
    if input.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes "
                           f"{list(input.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    channels = input.shape[1]
    if channels % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {channels} channels and {groups} "
                           f"groups.")
    n, rest = input.shape[0], tuple(input.shape[2:])
    grouped = input.reshape((n, groups, channels // groups) + rest)
    out = fused_name(grouped.transpose(1, 2).contiguous().reshape(input.shape), "ChannelShuffleBackward0")
    return relaid(out, in_suggested_format(out._data, input._data))  # (torch's: a channels-last image's stays so)


native_channel_shuffle = alias(channel_shuffle, "native_channel_shuffle")


def feature_alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """Alpha dropout of whole channels: each (sample, channel) is kept or set to SELU's saturation together."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = core.zeros((), dtype=input.dtype, device=input.device)
        return input.mul_(zero) if inplace else input * zero
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    a = 1.0 / (((_ALPHA * _ALPHA * p + 1) * (1 - p)) ** 0.5)
    shape = tuple(input.shape[:2]) + (1,) * (input.ndim - 2)
    noise = core.empty(shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p)
    b = noise.add(-1).mul_(_ALPHA * a).add_(_ALPHA * a * p)
    noise.mul_(a)
    return input.mul_(noise).add_(b) if inplace else input * noise + b
