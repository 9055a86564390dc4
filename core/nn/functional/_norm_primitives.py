"""The normalisation primitives behind ``batch_norm``, ``layer_norm`` and ``group_norm``.

Each is one graph node with PyTorch's name (``NativeBatchNormBackward0``, ``NativeLayerNormBackward0``,
``NativeGroupNormBackward0``) and PyTorch's edges (input, weight, bias; a missing weight or bias is a
``None`` edge). The forward works on arrays, with the statistics accumulated in double precision as
PyTorch's CPU kernels do; the backward is written with core ops, so ``create_graph=True`` works.

All three normalise ``x`` over some dims of a view ``v`` of it (``v = x`` for batch and layer norm,
``x`` grouped as ``(n, groups, -1)`` for group norm) and then scale and shift per channel.
"""

from __future__ import annotations

import math

import numpy as np

from core._memory_format import contiguous_format, format_of, in_suggested_format
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled, no_grad
from core.autograd.node_api import SavedFromNode
from core.nn._fused_names import ignored_output
from core.nn.functional import _layer_norm_kernel as ln_kernel
from core.nn.functional._batch_norm_double import recorded_gradients
from core.nn.functional._batch_norm_kernel import batch_norm_backward, batch_norm_eval_backward, batch_norm_forward
from core.nn.functional._group_norm_grad import group_norm_gradients
from core.nn.functional._group_norm_kernel import group_norm_backward, group_norm_forward
from core.nn.functional._layer_norm_double import recorded_gradients as recorded_layer_norm
from core.nn.functional._norm_saved import BATCH_NORM_SAVED, GROUP_NORM_SAVED, layer_norm_stat
from core.ops._float32_compute import BF16, computes_in_float32
from core.ops._saved_attrs import operand_shape
from core.ops._strided import relaid, relaid_row_major, row_major
from core.ops._util import xp_of


def _stats(arr, dims, eps):
    """Mean and 1/sqrt(var + eps) over ``dims`` (biased variance), in double, keepdims."""
    xp = xp_of(arr)
    a = arr.astype(xp.float64)
    mean = a.mean(axis=dims, keepdims=True)
    var = ((a - mean) ** 2).mean(axis=dims, keepdims=True)
    return mean, var, 1.0 / xp.sqrt(var + eps)


def update_running(running: Tensor, value, momentum: float, bump: bool = True) -> None:
    """``running = (1 - momentum) * running + momentum * value`` in place (``value``: an array); bumps its version
    unless ``bump`` is False (batch norm's kernel writes the running statistics without a version bump)."""
    new = running._data * (1 - momentum) + value.reshape(running.shape).astype(running._data.dtype) * momentum
    running._data[...] = new
    if bump:
        running._vc[0] += 1


def _affine(out, weight, bias, shape):
    if weight is not None:
        out = out * weight._data.reshape(shape)
    if bias is not None:
        out = out + bias._data.reshape(shape)
    return out


def _normalized_grad(xhat, gxhat, invstd, dims):
    """d/dx of ``xhat = (x - mean(x)) * invstd(x)`` applied to ``gxhat`` (batch statistics)."""
    mg = gxhat.mean(dims, keepdim=True)
    mgx = (gxhat * xhat).mean(dims, keepdim=True)
    return invstd * (gxhat - mg - xhat * mgx)


def _round_to(a, low):
    """A float32 array's values rounded to the half type ``low``, held as float32."""
    return np.asarray(a).astype(low).astype(np.float32)


def _recompute(v, dims, eps):
    """``xhat`` and ``invstd`` of ``v`` with core ops (differentiable, for double backward)."""
    mean = v.mean(dims, keepdim=True)
    centred = v - mean
    invstd = ((centred * centred).mean(dims, keepdim=True) + eps).rsqrt()
    return centred * invstd, invstd


def _affine_grads(ctx, g, xhat, channel_shape, reduce_dims):
    """Weight and bias gradients: ``g * xhat`` and ``g`` summed over ``reduce_dims`` (none when the normalized
    shape is the whole input's: ``sum(())`` would sum everything)."""
    need = ctx.needs_input_grad
    total = (lambda t: t.sum(reduce_dims)) if reduce_dims else (lambda t: t)
    gw = total(g * xhat).reshape(channel_shape) if need[1] else None
    gb = total(g).reshape(channel_shape) if need[2] else None
    return gw, gb


@computes_in_float32
class NativeBatchNorm(Function):
    """Per-channel normalisation over the batch and spatial dims (batch statistics when training)."""

    node_name = "NativeBatchNormBackward0"
    saved_names = ("input", "weight")
    _saved_result1, _saved_result2, _saved_running_mean, _saved_running_var, _saved_eps, _saved_training = \
        BATCH_NORM_SAVED

    @staticmethod
    def forward(ctx, x, weight, bias, *, running_mean, running_var, training, momentum, eps):
        """Normalise with the batch's statistics (training: the running ones move toward them, in place, as
        PyTorch's kernel does) or with the running statistics."""
        arr = x._data
        ctx.buffers = (running_mean, running_var)
        if not training:  # (a backward under create_graph=True records torch's node with them)
            ctx.running = (running_mean, running_var)
        exact = _float32_kernel(arr, weight, bias, running_mean, running_var, training, momentum, eps)
        if exact is not None:  # PyTorch's float32 arithmetic step for step (core/nn/functional/_batch_norm_kernel.py)
            out, mean, invstd, new_mean, new_var = exact
            shape = [1] * arr.ndim
            shape[1] = arr.shape[1]
            ctx.dims = tuple(d for d in range(arr.ndim) if d != 1)
            ctx.shape, ctx.training, ctx.eps = tuple(shape), training, eps
            ctx.mean, ctx.invstd = mean.reshape(shape), invstd.reshape(shape)
            ctx.kernel = training  # backward may take the kernel's arithmetic too (batch_norm_backward)
            ctx.save_for_backward(x, weight)
            for running, new in ((running_mean, new_mean), (running_var, new_var)):  # NOTE: no version bump,
                if running is not None and new is not None:  # as PyTorch's kernel writes them
                    running._data[...] = new
            return in_suggested_format(out, arr)  # (torch's: in the input's suggested format, a transposed one's
        mean, var, invstd = batch_norm_stats(x, running_mean, running_var, training, eps)
        ctx.dims = tuple(d for d in range(arr.ndim) if d != 1)
        ctx.shape, ctx.training, ctx.eps = mean.shape, training, eps
        ctx.mean, ctx.invstd = mean.astype(arr.dtype), invstd.astype(arr.dtype)
        ctx.save_for_backward(x, weight)
        out = ((arr - ctx.mean) * ctx.invstd).astype(arr.dtype, copy=False)
        if training:
            count = arr.size // arr.shape[1]
            if running_mean is not None:
                update_running(running_mean, mean, momentum, bump=False)
            if running_var is not None:
                update_running(running_var, var * (count / (count - 1)), momentum, bump=False)
        return in_suggested_format(_affine(out, weight, bias, ctx.shape), arr)  # contiguous)

    @staticmethod
    def reduced_result(ctx, args, kwargs, out):
        """bfloat16 or float16 when training: PyTorch's kernel keeps the batch's mean and invstd (bfloat16's: its
        sum of squared deviations too) in that dtype and normalises with those (in float32, rounded once); the
        running statistics moved as in float32 (written back)."""
        x, weight, bias = args
        low = x._data.dtype
        if not kwargs["training"]:
            return out.astype(low)
        if low == BF16:  # bfloat16's kernel keeps the sum of squared deviations in bfloat16, and divides it by
            xs = x._data.astype(np.float64)  # the count in bfloat16: invstd = 1/sqrt(that + eps)
            mean = xs.mean(axis=ctx.dims, keepdims=True).astype(np.float32)
            squares = ((xs - mean) ** 2).sum(axis=ctx.dims, keepdims=True).astype(np.float32)
            var = _round_to(_round_to(squares, low) / np.float32(xs.size // xs.shape[1]), low)
            ctx.invstd = 1 / np.sqrt(var + np.float32(ctx.eps))
        ctx.mean, ctx.invstd = _round_to(ctx.mean, low), _round_to(np.asarray(ctx.invstd, np.float32), low)
        ctx.saved_stats = True  # backward normalises with them too, as PyTorch's
        # NOTE: a non-contiguous input takes PyTorch's TensorIterator form, each step rounded to ``low``
        step = (lambda v: v) if x._data.flags.c_contiguous else (lambda v: _round_to(v, low))
        y = step(step(x._data.astype(np.float32) - ctx.mean) * ctx.invstd)
        if weight is not None:
            y = step(y * weight._data.astype(np.float32).reshape(ctx.shape))
        if bias is not None:
            y = y + bias._data.astype(np.float32).reshape(ctx.shape)
        return in_suggested_format(y.astype(low), x._data)

    @staticmethod
    def backward(ctx, g):
        x, weight = ctx._unpacked
        grads = _batch_norm_grads(ctx, g, x, weight)
        if not is_grad_enabled():  # (torch's grad_input: in the input's suggested format, a transposed one's: C)
            return grads if grads[0] is None else (relaid(grads[0], in_suggested_format(grads[0]._data, x._data)),
                                                   *grads[1:])
        # NOTE: recorded, PyTorch's native_batch_norm_backward is one node of grad_out, input and weight: each
        # gradient it gives requires grad, the bias's (g's sum) too where g does not (no gradient flows back there);
        # its edges as torch's: (grad_out, input, weight, save_mean, save_invstd), the value in grad_out's place
        return tuple(r if r is None or r.requires_grad else
                     ignored_output(r, (x, weight, None, None), "NativeBatchNormBackwardBackward0") for r in grads)


def _batch_norm_grads(ctx, g, x, weight):
    """``NativeBatchNorm``'s ``(grad_input, grad_weight, grad_bias)``."""
    dims, shape = ctx.dims, ctx.shape
    if ctx.__dict__.get("kernel") and not is_grad_enabled():  # float32 training, a plain backward
        gsum = None if g._data.flags.c_contiguous else g.sum(dims)._data  # (ATen's generic path sums g so)
        exact = batch_norm_backward(x._data, g._data, None if weight is None else weight._data, ctx.mean,
                                    ctx.invstd, gsum)
        if exact is not None:
            need = ctx.needs_input_grad
            return tuple(Tensor._wrap(a) if n else None for a, n in zip(exact, need))
    if "running" in ctx.__dict__ and not is_grad_enabled():  # evaluation mode: PyTorch's kernel, float32
        exact = batch_norm_eval_backward(x._data, g._data, None if weight is None else weight._data,
                                         *(t._data for t in ctx.running), ctx.eps)
        if exact is not None:
            return tuple(Tensor._wrap(a) if n else None for a, n in zip(exact, ctx.needs_input_grad))
    gxhat = g if weight is None else g * weight.reshape(shape)
    if ctx.training and "saved_stats" in ctx.__dict__:  # bfloat16: the batch statistics it normalised with
        invstd = Tensor._wrap(ctx.invstd)
        xhat = (x - Tensor._wrap(ctx.mean)) * invstd
        gx = _normalized_grad(xhat, gxhat, invstd, dims) if ctx.needs_input_grad[0] else None
    elif ctx.training:
        if ctx.__dict__.get("kernel"):  # float32 under create_graph: PyTorch's node (with affine or without)
            found = _recorded_kernel(ctx, x, weight, g)
            if found is not None:
                return found
        elif is_grad_enabled() and type(x._data) is np.ndarray and x._data.dtype == np.float64:
            found = _recorded_composite(ctx, x, weight, g)  # (the same node: torch's graph, the composite's values)
            if found is not None:
                return found
        xhat, invstd = _recompute(x, dims, ctx.eps)
        gx = _normalized_grad(xhat, gxhat, invstd, dims) if ctx.needs_input_grad[0] else None
        if ctx.__dict__.get("kernel"):  # float32 under create_graph: the kernel's values, the formula's graph
            return _kernel_values(ctx, x, weight, g, (gx, *_affine_grads(ctx, g, xhat, (-1,), dims)))
    else:
        if is_grad_enabled() and "running" in ctx.__dict__:  # evaluation mode under create_graph: torch's node
            found = _recorded_composite(ctx, x, weight, g, eval_mode=True)
            if found is not None:
                return found
        invstd = Tensor._wrap(ctx.invstd)
        xhat = (x - Tensor._wrap(ctx.mean)) * invstd
        gx = gxhat * invstd if ctx.needs_input_grad[0] else None
    return (gx, *_affine_grads(ctx, g, xhat, (-1,), dims))


def _recorded_kernel(ctx, x, weight, g):
    """The kernel's three gradients through one ``NativeBatchNormBackwardBackward0`` node whose backward is
    PyTorch's ``batchnorm_double_backward`` (core/nn/functional/_batch_norm_double.py); None where the kernel does
    not cover the arrays."""
    gsum = None if g._data.flags.c_contiguous else g.sum(ctx.dims)._data
    exact = batch_norm_backward(x._data, g._data, None if weight is None else weight._data, ctx.mean, ctx.invstd,
                                gsum)
    if exact is None:
        return None
    return recorded_gradients(g, x, weight, ctx.mean, ctx.invstd, exact)


def _recorded_composite(ctx, x, weight, g, eval_mode: bool = False):
    """A float64 training batch norm's gradients under ``create_graph=True`` (or any evaluation-mode one's) through
    the same one ``NativeBatchNormBackwardBackward0`` node as float32's (torch's graph; its second order
    batchnorm_double_backward, evaluation mode's with the running statistics), the first-order values the
    composite formula's, computed without recording."""
    with no_grad():
        values = _batch_norm_grads(ctx, g.detach(), x, weight)
    n = ctx.mean.size
    values = [np.zeros(n) if v is None else v._data for v in values[:1]] + \
        [np.zeros(n) if v is None else v._data.reshape(-1) for v in values[1:]]
    if eval_mode:
        running_mean, running_var = (t._data for t in ctx.running)
        found = recorded_gradients(g, x, weight, running_mean, running_var, values, eps=ctx.eps)
    else:
        found = recorded_gradients(g, x, weight, ctx.mean, ctx.invstd, values)
    if found is None:
        return None
    return tuple(r if n else None for r, n in zip(found, ctx.needs_input_grad))


def _kernel_values(ctx, x, weight, g, formula):
    """Batch norm's gradients under ``create_graph=True`` as PyTorch's: ``NativeBatchNormBackward0`` computes the
    first-order values with ``native_batch_norm_backward``'s kernel even while recording (its double backward comes
    from its own formula), so each is ``(f - f.detach()) + kernel``: exactly the kernel's value (``f - f`` is 0),
    with the formula ``f``'s graph (higher's and learn2learn's MAML meta-gradients read both)."""
    gsum = None if g._data.flags.c_contiguous else g.sum(ctx.dims)._data
    exact = batch_norm_backward(x._data, g._data, None if weight is None else weight._data, ctx.mean, ctx.invstd, gsum)
    if exact is None:
        return formula
    return tuple(None if f is None else (f - f.detach()) + Tensor._wrap(value.reshape(f.shape))
                 for f, value in zip(formula, exact))


@computes_in_float32
class NativeLayerNorm(Function):
    """Normalisation over the last ``k`` dims of each sample.

    Float32 NumPy arrays (float64 too with its ``EXACT_FLOAT64``) take PyTorch's kernel arithmetic
    (core/nn/functional/_layer_norm_kernel.py), forward and backward, so values and gradients match PyTorch's
    bit for bit; a backward that builds a graph (``create_graph=True``), other dtypes and CuPy arrays compute
    with double statistics and core ops."""

    node_name = "NativeLayerNormBackward0"
    saved_names = ("input", "weight", "bias")
    _saved_normalized_shape = SavedFromNode(lambda node: operand_shape(node, 0, 0)[-len(node.dims):])
    _saved_result1 = SavedFromNode(lambda node: layer_norm_stat(node, 1), True)  # the mean and rstd, kept by
    _saved_result2 = SavedFromNode(lambda node: layer_norm_stat(node, 2), True)  # the float32 kernel (torch's shape)

    @staticmethod
    def forward(ctx, x, weight, bias, *, k, eps):
        arr = x._data
        dims = tuple(range(arr.ndim - k, arr.ndim))
        ctx.dims, ctx.eps, ctx.lead, ctx.kernel = dims, eps, tuple(range(arr.ndim - k)), None
        ctx.save_for_backward(x, weight, bias)
        params = [None if t is None else t._data.reshape(-1) for t in (weight, bias)]
        if arr.size and ln_kernel.supported(arr, *params):
            rows = np.ascontiguousarray(arr).reshape(-1, math.prod(arr.shape[arr.ndim - k:]))
            out, mean, rstd = ln_kernel.layer_norm_forward(rows, *params, eps)
            ctx.kernel = (rows, mean, rstd)
            return out.reshape(arr.shape)
        return _layer_norm_in_double(arr, weight, bias, dims, eps)

    @staticmethod
    def reduced_result(ctx, args, kwargs, out):
        """bfloat16 or float16: the float32 result of double statistics, rounded once; backward takes the float32
        kernel's arithmetic with the mean and rstd rounded to the input's dtype, as PyTorch saves them."""
        low = args[0]._data.dtype
        if ctx.kernel is not None:  # backward: the float32 kernel with the mean and rstd PyTorch saved in ``low``
            rows, mean, rstd = ctx.kernel
            ctx.kernel = (rows, _round_to(mean, low), _round_to(rstd, low))
        x, weight, bias = (None if t is None else t._data.astype(np.float32) for t in args)
        wide = [None if t is None else Tensor._wrap(t) for t in (weight, bias)]
        return _layer_norm_in_double(x, *wide, ctx.dims, ctx.eps).astype(low)

    @staticmethod
    def backward(ctx, g):
        x, weight, bias = ctx._unpacked
        wshape = tuple(x.shape[x.ndim - len(ctx.dims):])
        if ctx.kernel is not None and type(g._data) is np.ndarray and g._data.dtype == x._data.dtype:
            rows, mean, rstd = ctx.kernel
            dy = np.ascontiguousarray(g._data).reshape(rows.shape)
            w = None if weight is None else weight._data.reshape(-1)
            grads = ln_kernel.layer_norm_backward(dy, rows, mean, rstd, w, ctx.needs_input_grad)
            shapes = (x.shape, wshape, wshape)
            grads = tuple(None if a is None else a.reshape(s) for a, s in zip(grads, shapes))
            if not is_grad_enabled():
                return tuple(None if a is None else Tensor._wrap(a) for a in grads)
            # NOTE: recorded, PyTorch's native_layer_norm_backward is one node: the kernel's values, its double
            # backward layer_norm_double_backward (core/nn/functional/_layer_norm_double.py)
            found = recorded_layer_norm(g, x, weight, bias, mean, rstd, len(ctx.dims), grads)
            if found is not None:
                return found
        elif is_grad_enabled() and type(x._data) is np.ndarray and x._data.dtype == np.float64:
            # NOTE: recorded float64 (no kernel here): torch's one NativeLayerNormBackwardBackward0 node too, its
            # values this composite's, its double backward layer_norm_double_backward with the double statistics
            with no_grad():
                grads = NativeLayerNorm.backward(ctx, g.detach())
            mean, _, rstd = _stats(x._data, ctx.dims, ctx.eps)
            found = recorded_layer_norm(g, x, weight, bias, mean, rstd, len(ctx.dims),
                                        [None if t is None else t._data for t in grads])
            if found is not None:
                return found
        xhat, invstd = _recompute(x, ctx.dims, ctx.eps)
        gxhat = g if weight is None else g * weight
        gx = _normalized_grad(xhat, gxhat, invstd, ctx.dims) if ctx.needs_input_grad[0] else None
        gx = None if gx is None else relaid_row_major(gx)  # (torch's layer_norm_backward: a contiguous dX)
        return (gx, *_affine_grads(ctx, g, xhat, wshape, ctx.lead))


def _layer_norm_in_double(arr, weight, bias, dims, eps):
    mean, _, invstd = _stats(arr, dims, eps)
    out = ((arr - mean.astype(arr.dtype)) * invstd.astype(arr.dtype)).astype(arr.dtype, copy=False)
    # NOTE: torch's layer_norm writes into a contiguous output whatever the input's layout (as its float32 kernel)
    return row_major(_affine(out, weight, bias, arr.shape[arr.ndim - len(dims):]))


@computes_in_float32
class NativeGroupNorm(Function):
    """Normalisation over each group of channels (and the spatial dims) of each sample."""

    node_name = "NativeGroupNormBackward0"
    saved_names = ("input", "weight")
    _saved_result1, _saved_result2, _saved_N, _saved_C, _saved_HxW, _saved_group, _saved_eps = GROUP_NORM_SAVED

    @staticmethod
    def forward(ctx, x, weight, bias, *, groups, eps, exact64=False, flat=None):
        """``(y, mean, rstd)`` as ``native_group_norm``'s: the statistics ``(N, G)`` in the input's dtype are
        differentiable outputs of this node (its formula's gradient flows through them at second order);
        ``exact64``: float64 takes PyTorch's kernel arithmetic too (``group_norm_forward``); ``flat``: the
        (N, C, HxW) shape ATen reads an input of another shape as, inside the node (torch records no view)."""
        ctx.flat = flat
        ctx.save_for_backward(x, weight)
        if flat is not None:
            y, *stats = _group_norm_forward(ctx, x._data.reshape(flat), weight, bias, groups, eps, exact64)
            return y.reshape(x._data.shape), *stats
        return _group_norm_forward(ctx, x._data, weight, bias, groups, eps, exact64)

    @staticmethod
    def backward(ctx, g, dmean, drstd):
        x, weight = ctx._unpacked
        if ctx.flat is None:
            return _group_norm_backward(ctx, g, dmean, drstd, x, weight)
        if dmean is not None or drstd is not None or is_grad_enabled():  # (torch's formula reads X as (N, C, HxW))
            mean, rstd = (_saved_output(ctx, a, nr) for nr, a in ((1, ctx.stats[0]), (2, ctx.stats[1])))
            return group_norm_gradients(g, dmean, drstd, x, mean, rstd, weight, ctx.groups, ctx.eps,
                                        ctx.needs_input_grad, ctx.flat[1])
        grads = _group_norm_backward(ctx, None if g is None else g.reshape(ctx.flat), dmean, drstd,
                                     x.reshape(ctx.flat), weight)
        return (None if grads[0] is None else grads[0].reshape(x.shape), *grads[1:])


def _group_norm_forward(ctx, arr, weight, bias, groups, eps, exact64):
    """``NativeGroupNorm``'s forward of an (N, C, *) array."""
    shape = [1] * arr.ndim
    shape[1] = arr.shape[1]
    ctx.groups, ctx.eps, ctx.shape, ctx.kernel = groups, eps, shape, False
    ctx.set_materialize_grads(False)  # (the statistics' gradients arrive only when something used them)
    kernel = group_norm_forward(arr, *(None if t is None else t._data for t in (weight, bias)), groups, eps,
                                exact64)
    if kernel is not None:  # PyTorch's kernel's roundings (core.nn.functional._group_norm_kernel)
        ctx.stats, ctx.kernel = kernel[1:], True
        # NOTE: a channels-last input gives a channels-last output
        return in_suggested_format(kernel[0], arr), *ctx.stats
    grouped = arr.reshape(arr.shape[0], groups, _group_size(arr.shape, groups))
    mean, _, invstd = _stats(grouped, (2,), eps)
    ctx.stats = tuple(a.reshape(arr.shape[0], groups).astype(arr.dtype) for a in (mean, invstd))
    out = ((grouped - mean.astype(arr.dtype)) * invstd.astype(arr.dtype)).astype(arr.dtype, copy=False)
    return in_suggested_format(_affine(out.reshape(arr.shape), weight, bias, shape), arr), *ctx.stats


def _group_norm_backward(ctx, g, dmean, drstd, x, weight):
    """``NativeGroupNorm``'s backward for an (N, C, *) input."""
    if dmean is not None or drstd is not None or is_grad_enabled():
        # NOTE: PyTorch's infinitely_differentiable_native_group_norm_backward, op for op (its graph, its roundings)
        mean, rstd = (_saved_output(ctx, a, nr) for nr, a in ((1, ctx.stats[0]), (2, ctx.stats[1])))
        return group_norm_gradients(g, dmean, drstd, x, mean, rstd, weight, ctx.groups, ctx.eps,
                                    ctx.needs_input_grad)
    if g is None:
        return None, None, None
    low = ctx.__dict__.get("half_dtype")
    if low is not None and type(x._data) is np.ndarray:
        grads = _group_norm_backward_half(g._data, x._data, weight, ctx.groups, ctx.eps, low.np)
        return tuple(None if a is None or not need else Tensor._wrap(a)
                     for a, need in zip(grads, ctx.needs_input_grad))
    if low is None and ctx.kernel and format_of(x._data) is contiguous_format:
        grads = group_norm_backward(g._data, x._data, *ctx.stats, None if weight is None else weight._data,
                                    ctx.groups, ctx.needs_input_grad)  # float32, a plain backward: the kernel
        if grads is not None:
            return tuple(None if a is None else Tensor._wrap(a) for a in grads)
    n, size = x.shape[0], _group_size(tuple(x.shape), ctx.groups)
    xhat, invstd = _recompute(x.reshape(n, ctx.groups, size), (2,), ctx.eps)
    gxhat = (g if weight is None else g * weight.reshape(ctx.shape)).reshape(n, ctx.groups, size)
    gx = _normalized_grad(xhat, gxhat, invstd, (2,)).reshape(x.shape) if ctx.needs_input_grad[0] else None
    gx = None if gx is None else relaid(gx, in_suggested_format(gx._data, x._data))  # (torch's: a channels-last dX)
    dims = tuple(d for d in range(x.ndim) if d != 1)
    return (gx, *_affine_grads(ctx, g, xhat.reshape(x.shape), (-1,), dims))


def _saved_output(node, arr, nr: int) -> Tensor:
    """The forward's output ``nr`` (a statistic PyTorch saves as ``result1``/``result2``) as its backward formula
    reads it: those values with ``node`` as grad_fn, so a graph built from it leads back here, as torch's saved
    outputs do."""
    out = Tensor._wrap(arr)
    if is_grad_enabled():
        out.grad_fn, out._requires_grad, out._output_nr = node, True, nr
    return out


def _group_size(shape, groups: int) -> int:
    """Elements per group of an (N, C, *) shape (not reshape's -1: a batch of 0 has no size to infer it from)."""
    return math.prod(shape[1:]) // groups


def _group_norm_backward_half(dy, x, weight, groups: int, eps: float, low):
    """``(dx, dweight, dbias)`` of a bfloat16/float16 group norm (float32 arrays holding its values) as PyTorch's
    kernel computes them: the group's mean and rstd as it saved them (rounded to ``low``), per-channel sums
    ``ds = sum(dy x)`` and ``db = sum(dy)``, then ``dx = rstd gamma dy + c2 x + c3`` (in double here, rounded
    once to float32; the caller's engine rounds to ``low``)."""
    n, c = x.shape[:2]
    d = c // groups
    xs, dys = x.reshape(n, c, -1).astype(np.float64), dy.reshape(n, c, -1).astype(np.float64)
    mean, _, rstd = _stats(x.reshape(n, groups, -1), (2,), eps)  # (_stats widens x to double itself)
    mean, rstd = (_round_to(a.reshape(n, groups), low).astype(np.float64) for a in (mean, rstd))
    gamma = np.ones(c) if weight is None else weight._data.astype(np.float64).reshape(c)
    ds, db = (dys * xs).sum(-1), dys.sum(-1)  # (n, c)
    ds_g, db_g = ((ds * gamma).reshape(n, groups, d).sum(-1), (db * gamma).reshape(n, groups, d).sum(-1))
    scale = 1.0 / (d * xs.shape[-1])
    c2 = (db_g * mean - ds_g) * rstd ** 3 * scale
    c3 = -c2 * mean - db_g * rstd * scale
    c1 = rstd[:, :, None] * gamma.reshape(groups, d)  # (n, groups, d)
    dx = (c1.reshape(n, c, 1) * dys + np.repeat(c2, d, 1)[..., None] * xs + np.repeat(c3, d, 1)[..., None])
    dgamma = ((ds - db * np.repeat(mean, d, 1)) * np.repeat(rstd, d, 1)).sum(0)
    return (dx.reshape(x.shape).astype(np.float32), dgamma.astype(np.float32), db.sum(0).astype(np.float32))


def _float32_kernel(arr, weight, bias, running_mean, running_var, training: bool, momentum, eps: float):
    """``batch_norm_forward``'s results when every array is a float32 NumPy array, else None."""
    parts = [t._data for t in (weight, bias, running_mean, running_var) if t is not None]
    if momentum is None or any(type(p) is not np.ndarray or p.dtype != np.float32 for p in parts):
        return None
    data = [None if t is None else t._data.reshape(-1) for t in (weight, bias, running_mean, running_var)]
    return batch_norm_forward(arr, *data, training, momentum, eps)


def batch_norm_stats(x: Tensor, running_mean, running_var, training: bool, eps: float):
    """``(mean, var, invstd)`` as double arrays shaped ``[1, C, 1, ...]``: the batch's (biased variance)
    when training, else the running statistics (``var`` is then None)."""
    arr = x._data
    if training:
        return _stats(arr, tuple(d for d in range(arr.ndim) if d != 1), eps)
    shape = [1] * arr.ndim
    shape[1] = arr.shape[1]
    mean = running_mean._data.astype(np.float64).reshape(shape)
    return mean, None, 1.0 / xp_of(arr).sqrt(running_var._data.astype(np.float64).reshape(shape) + eps)
