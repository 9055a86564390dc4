"""ATen's own signatures for ``core.ops.aten``, where the same-named ``torch.*`` function reads its arguments otherwise.

``FORMS`` maps an operator name (``"elu"``), or one overload (``"upsample_nearest2d.vec"``), to a function
with ATen's argument order written over core's public ops. It holds:

- operators with no ``torch.*`` function that traced graphs and decompositions call (``_softmax``,
  ``_to_copy``, ``slice``, ``index``, ``sym_size``, ``threshold_backward``...);
- losses, whose ``reduction`` is ATen's integer (0 none, 1 mean, 2 sum) in ATen's position;
- ``elu`` (``scale``, ``input_scale``), the ``*_with_indices`` pools (they return the indices too),
  ``max_unpool``, ``tensordot`` (two dim lists), ``stft`` (no centring), the ``upsample_*`` kernels;
- ``None`` for an operator whose ``torch.nn.functional`` namesake core would call with ATen's arguments
  misread and that has no form here (``embedding_bag``): ``aten.<name>`` says core lacks it.
"""

from __future__ import annotations

import math

import core
from core.ops.activation_backward import log_softmax_backward_data, tanh_backward
from core.ops.math_reflected import rsub_out
from core.ops.private_forms import ATEN_ONLY

__all__ = ["FORMS"]

_REDUCTIONS = ("none", "mean", "sum")


def _softmax(input, dim, half_to_float):
    return core.softmax(input, dim)


def _log_softmax(input, dim, half_to_float):
    return core.log_softmax(input, dim)


def _to_copy(input, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
             memory_format=None):
    return input.to(device=device, dtype=dtype, non_blocking=non_blocking, copy=True,
                    memory_format=memory_format or core.preserve_format)


def _slice(input, dim=0, start=None, end=None, step=1):
    return input[(slice(None),) * (dim % max(input.dim(), 1)) + (slice(start, end, step),)]


def _index(input, indices):
    return input[tuple(slice(None) if i is None else i for i in indices)]


def _copy(input, src, non_blocking=False):
    return core.empty_like(input).copy_(src, non_blocking)


def _sym_size(input, dim=None):
    return input.size() if dim is None else input.size(dim)


def _sym_stride(input, dim=None):
    return input.stride() if dim is None else input.stride(dim)


def _threshold_backward(grad_output, input, threshold):
    return core.where(input <= threshold, core.zeros_like(grad_output), grad_output)


def _sigmoid_backward(grad_output, output):
    return grad_output * output * (1 - output)


def _elu(input, alpha=1, scale=1, input_scale=1):
    if scale == 1 and input_scale == 1:
        return core.nn.functional.elu(input, alpha)
    return scale * core.where(input > 0, input, alpha * core.expm1(input * input_scale))


def _loss(name: str, *positional: str):
    """ATen's ``name(self, target, *positional)``: ``torch.nn.functional.name`` with ``reduction`` as text."""
    def loss(input, target, *args, **kwargs):
        named = dict(zip(positional, args), **kwargs)
        if "reduction" in named:
            named["reduction"] = _REDUCTIONS[named["reduction"]]
        return getattr(core.nn.functional, name)(input, target, **named)

    loss.__name__ = name
    return loss


def _pool_with_indices(name: str):
    def pool(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        return getattr(core.nn.functional, name)(input, kernel_size, stride or None, padding, dilation, ceil_mode,
                                                 return_indices=True)

    return pool


def _fractional_pool(name: str):
    def pool(input, kernel_size, output_size, random_samples):
        return getattr(core.nn.functional, name)(input, kernel_size, output_size=output_size, return_indices=True,
                                                 _random_samples=random_samples)

    return pool


def _max_unpool(input, indices, output_size, stride=None, padding=None):
    """Each value to its flat position ``indices`` in a zero (N, C, *output_size) tensor."""
    batched = input.dim() == len(output_size) + 2
    if not batched:
        input, indices = input.unsqueeze(0), indices.unsqueeze(0)
    n, c = input.shape[:2]
    flat = core.zeros((n, c, math.prod(output_size)), dtype=input.dtype, device=input.device)
    out = flat.scatter(2, indices.flatten(2), input.flatten(2)).reshape((n, c, *output_size))
    return out if batched else out.squeeze(0)


def _tensordot(input, other, dims_self, dims_other):
    return core.tensordot(input, other, dims=(list(dims_self), list(dims_other)))


def _stft(input, n_fft, hop_length=None, win_length=None, window=None, normalized=False, onesided=None,
          return_complex=None, align_to_window=None):
    return core.stft(input, n_fft, hop_length, win_length, window, center=False, normalized=normalized,
                     onesided=onesided, return_complex=return_complex)


def _upsample(mode: str, corners: bool):
    """``upsample_<mode>`` (sizes, then align_corners for the linear modes, then per-dim scales) and its
    ``.vec`` overload (size or scale factors)."""
    def default(input, output_size, *args):
        align_corners = args[0] if corners else None
        return core.nn.functional.interpolate(input, size=list(output_size), mode=mode, align_corners=align_corners)

    def vec(input, output_size, *args):
        align_corners, scale_factors = args if corners else (None, args[0])
        size = None if output_size is None else list(output_size)
        return core.nn.functional.interpolate(input, size=size, scale_factor=scale_factors, mode=mode,
                                              align_corners=align_corners)

    return default, vec


def _upsample_forms() -> dict:
    forms = {}
    for name, mode, corners in (("upsample_nearest1d", "nearest", False), ("upsample_nearest2d", "nearest", False),
                                ("upsample_nearest3d", "nearest", False),
                                ("_upsample_nearest_exact1d", "nearest-exact", False),
                                ("_upsample_nearest_exact2d", "nearest-exact", False),
                                ("_upsample_nearest_exact3d", "nearest-exact", False),
                                ("upsample_linear1d", "linear", True), ("upsample_bilinear2d", "bilinear", True),
                                ("upsample_bicubic2d", "bicubic", True), ("upsample_trilinear3d", "trilinear", True)):
        forms[name], forms[f"{name}.vec"] = _upsample(mode, corners)
    return forms


def _native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var, momentum, eps):
    """Eval-mode batch norm as torch's decomposition records it: the output and two empty saved statistics."""
    out = core.nn.functional.batch_norm(input, running_mean, running_var, weight, bias, False, momentum, eps)
    return out, input.new_empty((0,)), input.new_empty((0,))


def _assert_tensor_metadata(a, size=None, stride=None, dtype=None, *, device=None, layout=None):
    """The check ``torch.export`` puts before a dtype conversion: ``a`` still has the traced dtype and device."""
    for what, expected, got in (("dtype", dtype, a.dtype), ("device", device, a.device), ("layout", layout, a.layout)):
        if expected is not None and expected != got:
            raise RuntimeError(f"Tensor {what} mismatch! Expected: {expected}, Got: {got}")


def _arange(*args, dtype=None, layout=None, device=None, pin_memory=None):
    """ATen's ``arange`` overloads take ``layout`` and ``pin_memory``, which ``torch.arange`` does not."""
    return core.arange(*args, dtype=dtype, device=device)


def _nll_loss_forward(input, target, weight, reduction, ignore_index):
    """ATen's ``nll_loss_forward``: the loss and the total weight of the targets it counted."""
    output = core.nn.functional.nll_loss(input, target, weight, reduction=_REDUCTIONS[reduction],
                                         ignore_index=ignore_index)
    counted = (target != ignore_index).to(input.dtype)
    per_target = counted if weight is None else counted * weight[target.clamp(min=0)]
    return output, per_target.sum() if reduction else input.new_zeros(())


def _embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None,
                   include_last_offset=False, padding_idx=-1):
    """ATen's ``embedding_bag``/``_embedding_bag``: ``torch.embedding_bag``'s four results (``core.embedding_bag``), a
    negative ``padding_idx`` meaning none (ATen's -1), the index results in the indices' dtype."""
    padding = None if padding_idx is None or padding_idx < 0 else padding_idx
    output, *index_results = core.embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode,
                                                sparse, per_sample_weights, include_last_offset, padding)
    return (output, *(r.to(indices.dtype) for r in index_results))


def _nll_loss_backward(grad, input, target, weight, reduction, ignore_index, total_weight):
    """ATen's ``nll_loss_backward`` for (N, C) input: ``-weight[target] * grad`` (over the total weight for a
    mean) at each sample's target, zero elsewhere and where the target is ``ignore_index``."""
    keep = target != ignore_index
    safe = core.where(keep, target, 0)
    w = keep.to(input.dtype) if weight is None else weight[safe] * keep
    coef = -w * grad
    if reduction == 1:
        coef = coef / total_weight
    return core.zeros_like(input).scatter_(1, safe.unsqueeze(1), coef.unsqueeze(1))


def _select_backward(grad, input_sizes, dim, index):
    """ATen's ``select_backward``: zeros of the input's sizes with ``grad`` in the selected slice."""
    out = grad.new_zeros(list(input_sizes))
    out.select(dim, index).copy_(grad)
    return out


def _slice_backward(grad, input_sizes, dim, start, end, step):
    """ATen's ``slice_backward``: zeros of the input's sizes with ``grad`` in the sliced positions."""
    out = grad.new_zeros(list(input_sizes))
    _slice(out, dim, start, end, step).copy_(grad)
    return out


FORMS = {
    "_embedding_bag": _embedding_bag,
    "_embedding_bag_forward_only": _embedding_bag,
    "rsub": rsub_out,  # (torch.rsub has no out=; ATen's rsub.Tensor_out has)
    "_native_batch_norm_legit_no_training": _native_batch_norm_legit_no_training,
    "arange": _arange,
    "_assert_tensor_metadata": _assert_tensor_metadata,
    "_softmax": _softmax,
    "_log_softmax": _log_softmax,
    "_to_copy": _to_copy,
    "slice": _slice,
    "index": _index,
    "_unsafe_index": _index,
    "_unsafe_view": core.reshape,
    "_reshape_alias": lambda input, size, stride: input.view(size),
    "alias": lambda input: input.view_as(input),
    "lift_fresh": lambda input: input,
    "lift_fresh_copy": core.clone,
    "copy": _copy,
    "zero": core.zeros_like,
    "_local_scalar_dense": lambda input: input.item(),
    "sym_size": _sym_size,
    "sym_stride": _sym_stride,
    "sym_numel": core.numel,
    "sym_storage_offset": lambda input: input.storage_offset(),
    "threshold_backward": _threshold_backward,
    "sigmoid_backward": _sigmoid_backward,
    "tanh_backward": tanh_backward,
    "elu": _elu,
    "elu_": lambda input, *args: input.copy_(_elu(input, *args)),
    "binary_cross_entropy": _loss("binary_cross_entropy", "weight", "reduction"),
    "huber_loss": _loss("huber_loss", "reduction", "delta"),
    "l1_loss": _loss("l1_loss", "reduction"),
    "mse_loss": _loss("mse_loss", "reduction"),
    "multi_margin_loss": _loss("multi_margin_loss", "p", "margin", "weight", "reduction"),
    "multilabel_margin_loss": _loss("multilabel_margin_loss", "reduction"),
    "nll_loss": _loss("nll_loss", "weight", "reduction", "ignore_index"),
    "nll_loss_forward": _nll_loss_forward,
    "nll_loss_backward": _nll_loss_backward,
    "select_backward": _select_backward,
    "slice_backward": _slice_backward,
    "_log_softmax_backward_data": lambda grad, output, dim, input_dtype: log_softmax_backward_data(grad, output, dim),
    "mse_loss_backward": lambda grad, input, target, reduction: (
        grad * 2 * (input - target) / (input.numel() if reduction == 1 else 1)),
    "nll_loss2d": _loss("nll_loss", "weight", "reduction", "ignore_index"),
    "nll_loss_nd": _loss("nll_loss", "weight", "reduction", "ignore_index"),
    "smooth_l1_loss": _loss("smooth_l1_loss", "reduction", "beta"),
    "soft_margin_loss": _loss("soft_margin_loss", "reduction"),
    "max_pool2d_with_indices": _pool_with_indices("max_pool2d"),
    "max_pool3d_with_indices": _pool_with_indices("max_pool3d"),
    "fractional_max_pool2d": _fractional_pool("fractional_max_pool2d"),
    "fractional_max_pool3d": _fractional_pool("fractional_max_pool3d"),
    "max_unpool2d": _max_unpool,
    "max_unpool3d": _max_unpool,
    "tensordot": _tensordot,
    "stft": _stft,
    "stft.center": core.stft,
    "embedding_bag": _embedding_bag,
    "_pin_memory": lambda input, device=None: input.pin_memory(device),
    "_sparse_addmm": lambda input, mat1, mat2, *, beta=1, alpha=1: core.addmm(input, mat1, mat2, beta=beta,
                                                                              alpha=alpha),
    "_sparse_mm_reduce_impl": lambda input, other, reduce: core.sparse._mm_reduce(input, other, reduce),
    **_upsample_forms(),
    **ATEN_ONLY,
}
