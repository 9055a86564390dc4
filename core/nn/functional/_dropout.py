"""``dropout``, ``dropout1d``, ``dropout2d`` and ``alpha_dropout``: PyTorch's dropout family and its noise.

The mask is drawn as PyTorch draws it (``bernoulli_(1 - p)`` laid out like the input, divided by ``1 - p`` in the
input's dtype), by ``_DropoutNoise``, an op with no tensor inputs, so ``core.compile``'s capture replays the draw
in eager order; ``_keep_mask`` is shared with ``dropout3d`` (``volumetric``) and ``torch.native_dropout``
(``core.ops.native_forms``). Each function is a composite: the input times the mask.
"""

from __future__ import annotations

import numpy as np

import core
from core import _dtype, _sampling
from core._arg_types import require_tensors
from core._backend import xp_for
from core._memory_format import empty_strided_array, preserved_strides
from core._tensor import Tensor
from core._user_warning import warn_caller
from core.autograd.function import Function
from core.ops._float32_compute import is_reduced, with_number

__all__ = ["dropout", "dropout1d", "dropout2d", "alpha_dropout"]


def _keep_mask(shape, p: float, like: Tensor) -> Tensor:
    """PyTorch's dropout noise: ``bernoulli_(1 - p)`` ones (laid out like the input), divided by ``1 - p`` in the
    input's dtype; ``p == 1`` draws nothing and zeroes everything."""
    if p == 1:
        return core.zeros((), dtype=like.dtype, device=like.device)
    arr = like._data
    layout = tuple(abs(st) // arr.itemsize for st in arr.strides) if tuple(shape) == arr.shape else None
    return _DropoutNoise.apply(tuple(shape), p, like._data.dtype, like.device, layout)


class _DropoutNoise(Function):
    """The draw of dropout's mask as an op with no tensor inputs: no graph, and ``core.compile``'s capture
    records it, so a replayed step draws a new mask in the order eager code would. ``layout`` (the input's
    element strides, when the mask has its shape) gives the mask PyTorch's ``empty_like`` strides (the input's
    when dense, else dense in its dim order), so the draws land in the order PyTorch's do."""

    @staticmethod
    def forward(ctx, shape, p, dtype, device, layout):
        xp = xp_for(device)
        if layout is None:
            arr = xp.empty(shape, dtype=dtype)
        else:
            arr = empty_strided_array(xp, shape, preserved_strides(shape, layout), dtype)
        _sampling.bernoulli_(arr, 1 - p)
        dt = _dtype._BY_NP[arr.dtype]
        if not (dt.is_floating_point or dt.is_complex):  # PyTorch draws the mask, then its div_ refuses
            raise RuntimeError(f"result type Float can't be cast to the desired output type "
                               f"{_dtype.SCALAR_NAMES[dt.name]}")
        if is_reduced(arr.dtype):  # a half type over a number: PyTorch's div_ keeps the number in float32
            return with_number(np.true_divide, arr, 1 - p)
        arr /= arr.dtype.type(1 - p)
        return arr


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _apply_mask(input: Tensor, mask: Tensor, inplace: bool) -> Tensor:
    if inplace:
        return input.mul_(mask)
    return input * mask


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    require_tensors("dropout", input=(1, input))
    _check_p(p)
    if not training or p == 0:
        return input
    return _apply_mask(input, _keep_mask(tuple(input.shape), p, input), inplace)


def _channel_dropout(input: Tensor, p: float, training: bool, inplace: bool, spatial: int, name: str) -> Tensor:
    _check_p(p)
    if input.ndim not in (spatial + 1, spatial + 2):
        raise RuntimeError(f"{name}: Expected {spatial + 1}D or {spatial + 2}D input, but received a "
                           f"{input.ndim}D input. ")
    if not training or p == 0:
        return input
    lead = tuple(input.shape[:input.ndim - spatial])
    return _apply_mask(input, _keep_mask(lead + (1,) * spatial, p, input), inplace)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    return _channel_dropout(input, p, training, inplace, 1, "dropout1d")


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    """Whole channels zeroed; as in torch, a 3-D input is (N, C, L) and a 2-D one (N, C), with its warnings."""
    if input.ndim == 4:
        return _channel_dropout(input, p, training, inplace, 2, "dropout2d")
    _check_p(p)
    if input.ndim != 3:
        warn_caller(f"dropout2d: Received a {input.ndim}-D input to dropout2d, which is deprecated and will result "
                    "in an error in a future release. To retain the behavior and silence this warning, please use "
                    "dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 "
                    "spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D "
                    "inputs).")
    else:
        warn_caller("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                    "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                    "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                    "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                    "dropout1d instead.")
    if input.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if not training or p == 0:
        return input
    return _apply_mask(input, _keep_mask(tuple(input.shape[:2]) + (1,) * (input.ndim - 2), p, input), inplace)


def alpha_dropout(input: Tensor, p: float = 0.5, training: bool = False, inplace: bool = False) -> Tensor:
    """SELU-preserving dropout: dropped units take the negative saturation value, then an affine fix."""
    _check_p(p)
    if not training or p == 0:
        return input
    if p == 1:
        return _apply_mask(input, _keep_mask((), p, input), inplace)
    alpha = 1.7580993408473766
    a = 1.0 / (((alpha * alpha * p + 1) * (1 - p)) ** 0.5)
    noise = core.empty_like(input).bernoulli_(1 - p)
    b = noise.add(-1).mul_(alpha * a).add_(alpha * a * p)
    noise.mul_(a)
    out = _apply_mask(input, noise, inplace)
    return out.add_(b) if inplace else out + b
