"""``F.linear_cross_entropy`` (PyTorch 2.13) and its ``LinearCrossEntropyOptions``: cross entropy of a linear
projection's logits, as PyTorch's reference implementation defines it (``cross_entropy(linear(input, W), target)``).

PyTorch computes it in batch chunks to save the logits' memory; core computes the logits whole, so the options
(chunking and precision settings) are accepted and change nothing; like PyTorch, passing them for a call its
chunked path cannot take (label smoothing, probability targets, K-dim heads) warns that they are ignored.
The weight is (classes, *out_features, in_features): extra output dims become the K dims of a K-dimensional
cross entropy. ``ignore_index=None`` ignores no target.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Literal

import core

__all__ = ["linear_cross_entropy"]

_NO_TARGET = -(2 ** 63)  # an ignore_index no class index equals


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    """PyTorch's chunking and precision settings (core computes in one chunk, at the input's precision)."""

    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: Literal["accurate", "balanced", "compact", "auto"] = "auto"
    acc_dtype: object = None


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):
    """``cross_entropy(linear(input, linear_weight, linear_bias), target, ...)`` with K-dim weights reshaped."""
    _check_shapes(input, linear_weight, linear_bias)
    classes, extra, in_features = linear_weight.shape[0], tuple(linear_weight.shape[1:-1]), linear_weight.shape[-1]
    if options is not None:
        _warn_if_unchunkable(reduction, label_smoothing, target, extra, linear_bias)
    flat_weight = linear_weight.reshape(-1, in_features)
    flat_bias = None if linear_bias is None else linear_bias.reshape(-1)
    logits = core.nn.functional.linear(input, flat_weight, flat_bias)
    logits = logits.reshape(*input.shape[:-1], classes, *extra)
    return core.nn.functional.cross_entropy(logits, target, weight, reduction=reduction,
                                            ignore_index=_NO_TARGET if ignore_index is None else ignore_index,
                                            label_smoothing=label_smoothing)


def _check_shapes(input, linear_weight, linear_bias) -> None:
    """PyTorch's checks, in its order: a 1-d or 2-d input, a weight of >= 2 dims with the input's in_features, a
    bias of shape (classes, *out_features), and a batch for K-dimensional out_features."""
    if input.dim() not in (1, 2):
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    if input.shape[-1] != linear_weight.shape[-1]:
        raise RuntimeError("expected equal input and linear_weight last dimensions (in_features), "
                           f"got {input.shape[-1]} and {linear_weight.shape[-1]}, respectively")
    bias_shape = (linear_weight.shape[0], *linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != bias_shape:
        raise RuntimeError(f"expected linear_bias shape {bias_shape}, got {tuple(linear_bias.shape)}")
    if linear_weight.dim() > 2 and input.dim() == 1:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires "
                           f"batched input, (N, {input.shape[-1]}), got unbatched input with shape "
                           f"{tuple(input.shape)}")


def _warn_if_unchunkable(reduction, label_smoothing, target, extra, bias) -> None:
    if (reduction in ("mean", "sum", "none") and label_smoothing == 0 and target.dtype is core.int64 and not extra
            and (bias is None or bias.dim() == 1)):
        return
    warnings.warn("linear_cross_entropy: ``options`` ignored; chunked path needs reduction in {'mean','sum','none'}, "
                  f"label_smoothing == 0, target.dtype == int64, out_features == (). Got reduction={reduction!r}, "
                  f"label_smoothing={label_smoothing}, target.dtype={target.dtype}, out_features={extra}, "
                  f"tracing=False, linear_bias.shape={None if bias is None else tuple(bias.shape)}.", UserWarning,
                  stacklevel=3)
