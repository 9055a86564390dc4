"""PyTorch's private operators that real graphs reach: ``torch._native_batch_norm_legit`` and
``aten._batch_norm_with_update`` (what ``torch.export`` and batch-norm decompositions record),
``torch._softmax_backward_data``/``aten.native_dropout_backward``/``aten.max_pool{2,3}d_with_indices_backward``
(backward graphs), ``torch._safe_softmax`` (attention with fully masked rows gives zeros, not NaN),
``torch._unsafe_masked_index``/``_unsafe_masked_index_put_accumulate`` (inductor's padding and upsampling
decompositions), ``torch._chunk_cat`` (FSDP's gradient packing), ``aten._upsample_{bilinear,bicubic}2d_aa``
(``interpolate(antialias=True)``), ``torch._segment_reduce`` (``segment_reduce``'s other name) and
``torch._convert_indices_from_coo_to_csr``/``_csr_to_coo`` (sorted row indices to a CSR row pointer and back:
PyTorch Geometric's ``index2ptr``/``ptr2index``).

Each is written over core's public ops as PyTorch's decompositions define it, so its gradients are those ops'.
"""

from __future__ import annotations

import math

import core
from core.autograd.function import Function
from core.ops.activation_backward import softmax_backward_data
from core.ops.elementwise import _TYPE_NAMES
from core.ops.native_forms import native_batch_norm
from core.ops.segment_reduce import segment_reduce

__all__ = ["_native_batch_norm_legit", "_softmax_backward_data", "_safe_softmax", "_unsafe_masked_index",
           "_unsafe_masked_index_put_accumulate", "_chunk_cat", "_segment_reduce", "_convert_indices_from_coo_to_csr",
           "_convert_indices_from_csr_to_coo"]

_segment_reduce = segment_reduce


def _index_dtype(input, out_int32: bool, kernel: str):
    if input.dtype not in (core.int32, core.int64):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_TYPE_NAMES[str(input.dtype).split(".")[-1]]}\'')
    return core.int32 if out_int32 else core.int64


def _convert_indices_from_coo_to_csr(input, size, *, out_int32=False):
    """The row pointer (``size + 1`` entries) of the sorted row indices ``input``: entry i counts those below i."""
    if input.dim() != 1:
        raise RuntimeError(f"Input is supposed to be a vector, but got {input.dim()} dimensional tensor.")
    dtype = _index_dtype(input, out_int32, "convert_indices_from_coo_to_csr_cpu")
    return core.searchsorted(input, core.arange(size + 1, dtype=input.dtype)).to(dtype)


def _convert_indices_from_csr_to_coo(crow_indices, col_indices, *, out_int32=False, transpose=False):
    """The 2 x nnz COO indices (rows, then columns; swapped when ``transpose``) of a CSR pattern."""
    dtype = _index_dtype(crow_indices, out_int32, "convert_indices_from_csr_to_coo_cpu")
    rows = core.repeat_interleave(core.arange(crow_indices.numel() - 1, dtype=dtype),
                                  (crow_indices[1:] - crow_indices[:-1]).long())
    pair = [col_indices.to(dtype), rows] if transpose else [rows, col_indices.to(dtype)]
    return core.stack(pair)


def _native_batch_norm_legit(input, weight, bias, *args):
    """``(output, save_mean, save_invstd)``; the ``no_stats`` overload leaves out the two running statistics."""
    if len(args) == 3:  # (training, momentum, eps): no running statistics
        return native_batch_norm(input, weight, bias, None, None, *args)
    running_mean, running_var, training, momentum, eps = args
    return native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


def _batch_norm_with_update(input, weight, bias, running_mean, running_var, momentum, eps):
    """Training batch norm that updates the running statistics, with an empty (cuDNN's) reserve buffer."""
    out, mean, invstd = native_batch_norm(input, weight, bias, running_mean, running_var, True, momentum, eps)
    return out, mean, invstd, core.empty(0, dtype=core.uint8, device=input.device)


def _softmax_backward_data(grad_output, output, dim, input_dtype):
    if grad_output.dtype != output.dtype:
        raise RuntimeError(f"expected scalar type {_TYPE_NAMES[grad_output.dtype.name]} but found "
                           f"{_TYPE_NAMES[output.dtype.name]}")
    return softmax_backward_data(grad_output, output, dim).to(input_dtype)


class _SafeSoftmax(Function):
    node_name = "SafeSoftmaxBackward0"

    @staticmethod
    def forward(ctx, input, *, dim, dtype):
        out = core.softmax(input, dim, dtype=dtype)
        masked_rows = (input == -math.inf).all(dim=dim, keepdim=True)
        ctx.dim = dim
        ctx.result = core.where(masked_rows, core.zeros_like(out), out)
        return ctx.result

    @staticmethod
    def backward(ctx, g):  # (softmax's own rule on the result: a fully masked slice, all zeros, gets none)
        return softmax_backward_data(g, ctx.result, ctx.dim)


def _safe_softmax(input, dim, dtype=None):
    """softmax, with zeros for a slice whose every element is -inf (plain softmax gives NaN there)."""
    return _SafeSoftmax.apply(input, dim=dim, dtype=dtype)


def _native_dropout_backward(grad_output, mask, scale):
    return grad_output * (mask.type_as(grad_output) * scale)


def _check_masked_index(mask, indices):
    """torch's index-type check; the mask as booleans (torch's kernel takes any dtype, nonzero meaning kept)."""
    for index in indices:
        if index is not None and index.dtype not in (core.int64, core.int32):
            raise RuntimeError(f"_unsafe_masked_index found unexpected index type {_TYPE_NAMES[index.dtype.name]}")
    return mask if mask.dtype == core.bool else mask != 0


def _unsafe_masked_index(input, mask, indices, fill):
    """``input[indices]`` where ``mask``, ``fill`` elsewhere (the indices clamped into range: masked-off ones may
    point anywhere)."""
    mask = _check_masked_index(mask, indices)
    if input.numel() == 0:
        shape = core.empty(input.shape, device="meta")[tuple(indices)].shape
        return input.new_full(shape, fill)
    clamped = tuple(None if i is None else i.clamp(0, input.size(d) - 1) for d, i in enumerate(indices))
    return input[tuple(slice(None) if i is None else i for i in clamped)].masked_fill(~mask, fill)


def _unsafe_masked_index_put_accumulate(input, mask, indices, values):
    """``input`` with ``values`` added at ``indices`` where ``mask`` (clamped into range, as above)."""
    mask = _check_masked_index(mask, indices)
    if input.numel() == 0:
        return input.clone()
    clamped = tuple(None if i is None else i.clamp(-input.size(d), input.size(d) - 1) for d, i in enumerate(indices))
    return input.index_put(clamped, values.masked_fill(~mask, 0), accumulate=True)


class _ChunkCat(Function):
    """PyTorch defines no derivative for ``_chunk_cat``: its result requires grad and its backward refuses."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, *tensors, dim, num_chunks):
        return _chunk_cat_values(list(tensors), dim, num_chunks)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::_chunk_cat is not implemented")


def _chunk_cat(tensors, dim, num_chunks, *, out=None):
    """Each tensor padded along ``dim`` to a multiple of ``num_chunks``, cut into that many chunks flattened from
    ``dim`` on, and the chunks of every tensor laid side by side: shape (*leading, num_chunks, total)."""
    if not tensors:
        raise RuntimeError("_chunk_cat expects a non-empty input tensor list")
    result = _ChunkCat.apply(*tensors, dim=dim, num_chunks=num_chunks)
    return result if out is None else out.copy_(result.detach())


def _chunk_cat_values(tensors, dim, num_chunks):
    if num_chunks < 1:
        raise RuntimeError("_chunk_cat expects positive num_chunks")
    for t in tensors:
        if t.numel() == 0:
            raise RuntimeError("_chunk_cat expects non-empty tensor")
        if t.dtype != tensors[0].dtype:
            raise RuntimeError("_chunk_cat expects all input tensors with the same dtype")
    if all(t.dim() == tensors[0].dim() for t in tensors):
        ndim = tensors[0].dim()
        if not -ndim <= dim < ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got "
                             f"{dim})")
        dim %= ndim
    elif dim < 0:
        raise RuntimeError("_chunk_cat expects non-negative dim when input tensors have different ndims")
    elif any(dim >= t.dim() for t in tensors):
        raise RuntimeError("_chunk_cat expects dim < ndim for all input tensors")
    if any(t.shape[:dim] != tensors[0].shape[:dim] for t in tensors):
        raise RuntimeError("_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all tensors")
    padded = []
    for t in tensors:
        size = t.size(dim)
        target = (size + num_chunks - 1) // num_chunks * num_chunks
        if target != size:
            t = core.nn.functional.pad(t, [0, 0] * (t.dim() - dim - 1) + [0, target - size])
        padded.append(t.reshape(*t.shape[:dim], num_chunks, -1))
    return core.cat(padded, dim + 1)


class _MaxPoolWithIndicesBackward(Function):
    """Each output's gradient added to the input element its index names (flat over the pooled dims); its own
    gradient gathers back at the indices, and ``input`` (only its shape is read) gets zeros, as torch's formula."""

    @staticmethod
    def forward(ctx, grad_output, input, indices, *, pooled):
        lead = tuple(input.shape[:input.dim() - pooled])
        ctx.flat_index, ctx.shapes = indices.reshape(lead + (-1,)), (tuple(grad_output.shape), tuple(input.shape))
        flat = core.zeros(lead + (math.prod(input.shape[input.dim() - pooled:]),), dtype=grad_output.dtype,
                          device=grad_output.device)
        return flat.scatter_add(-1, ctx.flat_index, grad_output.reshape(lead + (-1,))).reshape(input.shape)

    @staticmethod
    def backward(ctx, g):
        out_shape, in_shape = ctx.shapes
        lead = ctx.flat_index.shape[:-1]
        grad_grad = g.reshape(lead + (-1,)).gather(-1, ctx.flat_index).reshape(out_shape)
        return grad_grad, core.zeros(in_shape, dtype=g.dtype, device=g.device), None


def _max_pool_backward(pooled: int):
    """``max_pool{2,3}d_with_indices_backward`` (torch's node: MaxPool{2,3}DWithIndicesBackwardBackward0)."""
    node = type(f"MaxPool{pooled}DWithIndicesBackward", (_MaxPoolWithIndicesBackward,),
                {"node_name": f"MaxPool{pooled}DWithIndicesBackwardBackward0"})

    def backward(grad_output, input, kernel_size, stride, padding, dilation, ceil_mode, indices):
        return node.apply(grad_output, input, indices, pooled=pooled)

    return backward


def _resize_aa(input, out, scales, mode, align_corners):
    """Antialiased resampling to ``out`` whose source coordinates step by 1/scale (ATen's default overload)."""
    import numpy as np

    from core.nn.functional import _antialias, upsampling

    _antialias.check_aa_dtype(input)
    dtype = input._data.dtype if input.is_floating_point() else np.dtype(np.float64)
    return _antialias.interpolate_aa(input, out, [upsampling._scale(n, o, s, align_corners, dtype)
                                                  for n, o, s in zip(input.shape[2:], out, scales)], mode)


def _upsample_aa(mode: str):
    """``_upsample_<mode>_aa`` (output size, align_corners, per-dim scales) and its ``.vec`` overload (output size
    or scale factors): ``interpolate(..., antialias=True)``."""
    def form(input, output_size, align_corners, *scales, scale_factors=None, scales_h=None, scales_w=None):
        if scales and isinstance(scales[0], (list, tuple)):  # .vec given positionally
            scale_factors, scales = scales[0], ()
        scales = tuple(scales) + (None,) * (2 - len(scales))
        scales = (scales[0] if scales_h is None else scales_h, scales[1] if scales_w is None else scales_w)
        if output_size is not None and any(s is not None for s in scales):  # the sizes, sampled at those scales
            return _resize_aa(input, list(output_size), scales, mode, align_corners)
        if output_size is not None:
            return core.nn.functional.interpolate(input, size=list(output_size), mode=mode,
                                                  align_corners=align_corners, antialias=True)
        return core.nn.functional.interpolate(input, scale_factor=list(scale_factors), mode=mode,
                                              align_corners=align_corners, antialias=True)

    return form


ATEN_ONLY = {  # operators only torch.ops.aten has (core._aten_forms merges them)
    "_batch_norm_with_update": _batch_norm_with_update,
    "native_dropout_backward": _native_dropout_backward,
    "max_pool2d_with_indices_backward": _max_pool_backward(2),
    "max_pool3d_with_indices_backward": _max_pool_backward(3),
    "_upsample_bilinear2d_aa": _upsample_aa("bilinear"),
    "_upsample_bilinear2d_aa.vec": _upsample_aa("bilinear"),
    "_upsample_bicubic2d_aa": _upsample_aa("bicubic"),
    "_upsample_bicubic2d_aa.vec": _upsample_aa("bicubic"),
}
