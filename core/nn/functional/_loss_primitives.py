"""The common losses as single primitives, with PyTorch's grad_fn names and exact gradients.

``mse_loss``, ``binary_cross_entropy_with_logits`` and ``nll_loss`` (so ``cross_entropy``, which is
``log_softmax`` then ``nll_loss`` as in PyTorch) record one node each instead of a dozen, which is
most of the cost of a small training step. ``loss.py`` takes these paths for the common cases
(matching shapes and dtypes, constant weights) and keeps its composites for the rest.

Each backward formula is written once with arithmetic operators and ``ops.sigmoid``; it runs on
backend arrays in a plain backward (nothing records: the fast path) and on differentiable core
tensors under ``create_graph=True``, so double backward still works.
"""

from __future__ import annotations

import numpy as np

import core
from core._cascade_sum import ordered_sum
from core._memory_format import empty_strided_array, iterator_strides
from core._nll_sum import nll_total
from core._precise import precise
from core._sleef import exp_neg_abs_and_neg, expf_u10, log1pf_u10, loop_sigmoid
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx, SavedFromNode
from core.ops._float32_compute import computes_in_float32, is_reduced, with_number
from core.ops._saved_attrs import reduction_code
from core.ops._util import quiet, xp_of

__all__ = ["MseLoss", "BinaryCrossEntropyWithLogits", "NllLoss", "recording", "laid_out", "contiguous"]

_state = grad_mode._state


def recording() -> bool:
    """True when a backward must build a graph (``create_graph=True``): use differentiable ops."""
    return _state.enabled


def _reduced(xp, loss, reduction: str, count=None):
    """``loss`` reduced like PyTorch; a mean divides by ``count`` (numel by default; 0/0 is nan)."""
    if reduction == "none":
        return loss
    if reduction == "mean" and count is None and is_reduced(loss.dtype):  # PyTorch's half mean: the float32 sum
        wide = loss.astype(np.float32)  # over a float32 copy, divided in float32, rounded once
        total = ordered_sum(wide, tuple(range(loss.ndim)), False)
        return xp.asarray((total / np.float32(loss.size)).astype(loss.dtype))
    total = ordered_sum(loss, tuple(range(loss.ndim)), False)  # PyTorch's order for float32 (loss.mean())
    if reduction == "sum":
        return xp.asarray(total)
    den = loss.size if count is None else count
    return xp.asarray(total / xp.asarray(den, dtype=loss.dtype))  # NOTE: callers run it quietly: 0/0 is nan


def laid_out(arr, *operands):
    """The backend array ``arr`` in the strides PyTorch's TensorIterator gives an elementwise op on ``operands``
    (arrays or numbers, in the kernel's argument order: the first operand that orders two dims decides), as a
    loss kernel's ``reduction='none'`` output and gradients are laid out (``x.mT`` in, ``loss.mT``-like out)."""
    if getattr(arr, "ndim", 0) < 2 or not arr.size:
        return arr
    if arr.flags.c_contiguous:  # NOTE: the common case (a training step's loss), without the ~4 µs of
        for o in operands:  # iterator_strides: every operand a number, a 0-d array or C-contiguous of arr's shape
            if getattr(o, "ndim", 0) and not (o.flags.c_contiguous and o.shape == arr.shape):
                break
        else:
            return arr
    ops = [o for o in operands if getattr(o, "ndim", 0)]
    want = iterator_strides(arr.shape, [(o.shape, [st // o.itemsize for st in o.strides]) for o in ops],
                            same_shape_setup=len(ops) == len(operands))
    if want is None:
        return contiguous(arr)
    if tuple(st // arr.itemsize for st in arr.strides) == want:
        return arr
    out = empty_strided_array(xp_of(arr), arr.shape, want, arr.dtype)
    out[...] = arr
    return out


def contiguous(arr):
    """``arr`` C-contiguous: a gradient PyTorch's kernel writes into ``zeros_like(input, LEGACY_CONTIGUOUS)``."""
    return arr if getattr(arr, "ndim", 0) < 2 or arr.flags.c_contiguous else xp_of(arr).ascontiguousarray(arr)


def _scale(g, reduction: str, numel: int):
    """The incoming gradient with the mean's 1/numel folded in (an array or a tensor)."""
    return g / numel if reduction == "mean" and numel else g


def _result(v, like):
    """A backward result as a tensor: arrays (or 0-d NumPy scalars) are wrapped; tensors pass."""
    if isinstance(v, Tensor):
        return v
    return new_tensor(xp_of(like).asarray(v, dtype=like.dtype))


def _mse_norm(reduction: str, numel: int) -> float:
    """PyTorch's ``mse_loss_backward`` scale: 2 / numel for a mean (computed in float64), else 2.

    NOTE: its kernel computes ``norm * (input - target) * grad`` left to right in the input's dtype, with
    ``norm`` rounded to that dtype first (a Python float is weak in NumPy, so ``norm * array`` does that);
    folding the mean into the incoming gradient first rounds differently on about a quarter of the elements."""
    if reduction != "mean":
        return 2.0
    return 2.0 / numel if numel else float("inf")


class MseLoss(Function):
    """mean/sum/none of (input - target)^2; the gradient is 2 (input - target) g (/ numel)."""

    node_name = "MseLossBackward0"
    saved_names = ("self", "target")
    _saved_reduction = reduction_code()

    @staticmethod
    def forward(ctx, input, target, *, reduction):
        x, t = input._data, target._data
        with quiet():
            d = x - t
            out = _reduced(xp_of(x), laid_out(d * d, x, t), reduction)  # (mse's TensorIterator over input, target)
        ctx.reduction = reduction
        ctx.save_for_backward(input, target)
        return out

    @staticmethod
    def backward(ctx, g):
        input, target = ctx._unpacked
        need = ctx.needs_input_grad
        norm = _mse_norm(ctx.reduction, input.numel())
        if recording():
            gi = norm * (input - target) * g
            return (gi if need[0] else None), (-gi if need[1] else None)
        x = input._data
        if is_reduced(x.dtype):  # NOTE: ml_dtypes' bfloat16 does not take a Python float as weak: round it here
            norm = x.dtype.type(norm)
        with quiet():  # NOTE: PyTorch's kernel writes into a C-contiguous zeros_like(input), whatever the layouts
            gi = contiguous(norm * (x - target._data) * g._data)
            return (_result(gi, x) if need[0] else None), (_result(-gi, x) if need[1] else None)

    @staticmethod
    def jvp(ctx, tx, ty):
        x, y = ctx.inputs
        dt = tx if ty is None else (-ty if tx is None else tx - ty)
        e = 2 * (x - y) * dt
        return e.mean() if ctx.reduction == "mean" else (e.sum() if ctx.reduction == "sum" else e)


def _softplus_neg(xp, x):
    """log(1 + exp(-x)), stable for large |x|."""
    return precise(xp.log1p, precise(xp.exp, -xp.abs(x))) + xp.maximum(-x, 0)


def _log_sigmoid(xp, x):
    """``x.log_sigmoid()`` as PyTorch's kernel computes it, min(x, 0) - log1p(exp(-|x|)) (float32: SLEEF's exp and
    log1p in its vectorised loop, as ``F.logsigmoid``): ``binary_cross_entropy_with_logits`` subtracts it from
    ``(1 - target) * input``, so a confident logit's loss is 0 where it rounds to 0 in torch (x = -20,
    t = sigmoid(x))."""
    if is_reduced(x.dtype):  # a half type's kernel computes in float32, rounds once
        return _log_sigmoid(xp, x.astype(np.float32)).astype(x.dtype)
    if x.dtype == np.float32 and type(x) is np.ndarray:
        with np.errstate(over="ignore", invalid="ignore"):
            return np.minimum(x, np.float32(0)) - log1pf_u10(expf_u10(-np.abs(x)))
    if x.dtype == np.float64 and type(x) is np.ndarray:  # (SLEEF's double exp and log1p, as F.logsigmoid)
        from core._sleef_logd import log1pd_u10
        from core.nn.functional._flash_cpu import expd_u10
        with np.errstate(over="ignore", invalid="ignore"):
            return np.minimum(x, 0.0) - log1pd_u10(expd_u10(-np.abs(x).reshape(-1))).reshape(x.shape)
    return (xp.minimum(x, 0) - precise(xp.log1p, precise(xp.exp, -xp.abs(x)))).astype(x.dtype)


# NOTE: a small float32 logits loss that records a graph computes its backward's exp(-x) beside its own exp(-|x|)
# (one SLEEF call for both: ``exp_neg_abs_and_neg``); up to here the two rows fit one of SLEEF's blocks
_KEEP_EXP_MAX = 8192


def _log_sigmoid_keeping_exp(ctx, x):
    """``(_log_sigmoid(np, x), exp(-x) or None)``: SLEEF's ``exp(-x)`` kept for the backward's sigmoid where the
    op records a graph (``ctx.needs_input_grad`` is set) on a small C-contiguous float32 array of 32 elements or
    more (``loop_sigmoid``'s vectorised case); the loss's values are the same either way.

    NOTE: its one caller (the loss's forward) runs it under ``quiet()``, which silences every NumPy warning:
    no ``np.errstate`` of its own here (~1.5 µs a step)."""
    if ctx.needs_input_grad and type(x) is np.ndarray and x.dtype == np.float32 and x.flags.c_contiguous \
            and 32 <= x.size <= _KEEP_EXP_MAX:
        exp_neg_abs, exp_neg = exp_neg_abs_and_neg(x)
        return np.minimum(x, np.float32(0)) - log1pf_u10(exp_neg_abs), exp_neg
    return _log_sigmoid(np if type(x) is np.ndarray else xp_of(x), x), None


def _sigmoid(xp, x, exp_neg=None):
    """``x.sigmoid()`` as PyTorch's kernel computes it (float32: SLEEF's exp in its vectorised loop; ``exp_neg``:
    ``_log_sigmoid_keeping_exp``'s)."""
    if is_reduced(x.dtype):  # a half type's kernel computes in float32, rounds once
        return _sigmoid(xp, x.astype(np.float32)).astype(x.dtype)
    if x.dtype == np.float32 and type(x) is np.ndarray:
        return loop_sigmoid(x, exp_neg)
    return 1 / (1 + precise(xp.exp, -x))


class BinaryCrossEntropyWithLogits(Function):
    """w * ((1 - t) x + (1 + (pw - 1) t) log(1 + exp(-x))); ``weight``/``pos_weight`` are constants."""

    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    edgeless_inputs = (2, 3)  # weight and pos_weight (torch's node: input and target)
    saved_names = ("self", "target")
    _saved_reduction = reduction_code()
    _saved_weight = SavedFromCtx(lambda c: None if c["w"] is None else Tensor._wrap(c["w"]), tensor=True)
    _saved_pos_weight = SavedFromCtx(lambda c: None if c["pw"] is None else Tensor._wrap(c["pw"]), tensor=True)

    @staticmethod
    def forward(ctx, input, target, weight, pos_weight, *, reduction):
        x, t = input._data, target._data
        xp = xp_of(x)
        w = None if weight is None else weight._data
        pw = None if pos_weight is None else pos_weight._data
        ctx.exp_neg = None
        with quiet():
            if x.dtype != t.dtype:
                loss = _logits_loss_mixed(xp, x, t, w, pw)
            else:
                log_sig, ctx.exp_neg = _log_sigmoid_keeping_exp(ctx, x)
                if pw is None:  # PyTorch's (1 - target).mul_(input).sub_(log_sigmoid(input)), each step rounded
                    loss = (1 - t) * x - log_sig
                else:  # log_sigmoid(input).mul_((pos_weight - 1).mul(target).add_(1)) before it is subtracted
                    loss = (1 - t) * x - log_sig * ((pw - 1) * t + 1)
            if w is not None and x.dtype == t.dtype:
                loss = loss * w
            # NOTE: PyTorch composes it from (1 - target).mul_(input)...: the target's layout
            out = _reduced(xp, laid_out(xp.asarray(loss, dtype=t.dtype), t), reduction)
        ctx.reduction, ctx.w, ctx.pw = reduction, w, pw
        ctx.save_for_backward(input, target)
        return out

    @staticmethod
    def backward(ctx, g):
        input, target = ctx._unpacked
        need = ctx.needs_input_grad
        w, pw = ctx.w, ctx.pw
        if recording():
            x, t, sig = input, target, core.sigmoid(input)
            soft = core.log1p(core.exp(-core.abs(x))) + core.clamp(-x, min=0) if need[1] and pw is not None else None
            w, pw = _const(w), _const(pw)
            gx, gt, _, _ = _bce_grads(x, t, sig, soft, w, pw, g, _mean_count(ctx.reduction, input.numel()), need)
            gx, gt = (None if v is None else v.to(like.dtype) for v, like in ((gx, x), (gt, t)))
            return gx, gt, None, None
        x, t = input._data, target._data
        xp = xp_of(x)
        count = _mean_count(ctx.reduction, x.size)
        sleef_target = need[1] and pw is not None and x.dtype == np.float32 and type(x) is np.ndarray
        with quiet():
            soft = _softplus_neg(xp, x) if need[1] and pw is not None and not sleef_target else None
            sig = _sigmoid(xp, x, ctx.exp_neg)
            grads = _bce_grads(x, t, sig, soft, w, pw, g._data, count, (need[0], need[1] and not sleef_target))
            if sleef_target:
                grads = grads[0], _logits_target_grad(x, pw, w, g._data, count)
        # NOTE: PyTorch's layouts: input.sigmoid() - target, or pos_weight * target first; the target's from -input
        gx, gt = grads[0], grads[1]  # (_bce_grads gives weight and pos_weight no gradient)
        return (None if gx is None else _result(laid_out(gx, *((x, t) if pw is None else (pw, t))), x),
                None if gt is None else _result(laid_out(gt, x), t), None, None)


def _logits_target_grad(x, pw, w, g, count):
    """A float32 target's gradient with a ``pos_weight`` as PyTorch's ``binary_cross_entropy_with_logits_target_
    backward`` computes it: ``log_sigmoid(-x).sub_(log_sigmoid(x).mul_(pos_weight)).mul_(grad)``, times the weight,
    divided by numel for a mean, each step rounded in float32 (log_sigmoid SLEEF's: ``_log_sigmoid``). NOTE: the
    softplus form ``(pw - 1) softplus(-x) - x`` with softplus rounded from float64 differed in the last bit on about
    a third of the elements."""
    gt = (_log_sigmoid(np, -x) - _log_sigmoid(np, x) * pw) * g
    if w is not None:
        gt = gt * w
    return gt if count is None else with_number(np.true_divide, gt, count)


def _logits_loss_mixed(xp, x, t, w, pw):
    """The loss of an input and a target of two float dtypes as PyTorch's kernel computes it: in place,
    ``(1 - t).mul_(x).sub_(log_sigmoid(x) * (1 + (pw - 1) t))`` then ``.mul_(w)``, so each step is rounded to the
    target's dtype (a float64 input with a float32 target gives a float32 loss)."""
    wide = x.astype(np.float32) if is_reduced(x.dtype) else x  # a half type's kernel computes in float32
    log_sig = (-_softplus_neg(xp, wide)).astype(x.dtype)
    if pw is not None:  # log_sigmoid(x).mul_(log_weight) keeps the input's dtype
        log_sig = (log_sig * ((pw - 1) * t + 1)).astype(x.dtype)
    loss = ((1 - t) * x).astype(t.dtype)
    loss = (loss - log_sig).astype(t.dtype)
    return loss if w is None else (loss * w).astype(t.dtype)


def _const(arr):
    return None if arr is None else new_tensor(arr)


def _mean_count(reduction: str, numel: int):
    """What a mean-reduced gradient is divided by last (None for the other reductions)."""
    return numel if reduction == "mean" else None


def _bce_grads(x, t, sig, soft, w, pw, g, count, need):
    """d/dx = w g ((1 - t) - L (1 - sigmoid x)), d/dt = w g (-x + (pw - 1) softplus(-x)), L = 1 + (pw - 1) t.

    NOTE: the input's gradient in the order of PyTorch's ``binary_cross_entropy_with_logits_backward``:
    ``(sigmoid(x) - t)`` (or ``(pw t + 1 - t) sigmoid(x) - pw t``), times g, times w, divided by numel last."""
    gx = gt = None
    if need[0]:
        if pw is None:
            gx = sig - t
        else:
            pt = pw * t
            gx = (pt + 1 - t) * sig - pt
        gx = _mean_divided(gx * g if w is None else gx * g * w, count)
    if need[1]:
        gt = -x if pw is None else (pw - 1) * soft - x
        gt = _mean_divided(gt * g if w is None else gt * (w * g), count)
    return gx, gt, None, None


def _mean_divided(grad, count):
    """A mean-reduced gradient divided by ``count`` last: an array as PyTorch's kernel divides it (``with_number``),
    a tensor (the recording branch, ``create_graph=True``) by core's differentiable division. NOTE: the tensor
    went through ``with_number``'s NumPy ufunc, which asked it for an array and raised for one that requires grad
    (#19: higher's inner loops differentiate a BCEWithLogitsLoss with create_graph=True)."""
    if count is None:
        return grad
    return grad / count if isinstance(grad, Tensor) else with_number(np.true_divide, grad, count)


def _nll_ordered(x) -> bool:
    """Whether ``nll_loss``'s sums over a batch take the kernel's order (``core._nll_sum.nll_total``)."""
    return (x.dtype == np.float32 or is_reduced(x.dtype)) and type(x) is np.ndarray and x.ndim == 2


def _nll_reduced(x, index, weight, keep, reduction: str):
    """A float32 (bfloat16, float16) batch's summed or mean loss added in the order of PyTorch's ``nll_loss`` kernel
    (``core._nll_sum.nll_total``; ignored samples add nothing); None for other cases (no batch dim, other
    dtypes)."""
    if reduction == "none" or not _nll_ordered(x):
        return None
    zero = x.dtype.type(0)
    picked = np.where(keep, x[index], zero)
    w = None if weight is None else np.where(keep, weight._data[index[1]], zero)
    total = zero - nll_total(picked if w is None else picked * w, keep)  # NOTE: 0 - sum, as the kernel subtracts
    if reduction == "sum":
        return total
    count = x.dtype.type(np.count_nonzero(keep)) if w is None else nll_total(w, keep)
    return np.asarray(total / count)


def _total_weight(x, w, keep, weight):
    """The kept samples' total weight as PyTorch's ``nll_loss`` adds it (``nll_total``'s order). NOTE: without
    class weights every term is 1 or 0, a float32 sum of them is exact in any order below 2^24, so it is the
    count (the MLP step's loss: one cascade fewer)."""
    if not _nll_ordered(x):
        return w.sum()
    if weight is None and x.dtype == np.float32 and keep.shape[0] < 1 << 24:
        return np.float32(np.count_nonzero(keep))
    return nll_total(w, keep)


def _nll_picked_grads(ctx, ga):
    """The gradient at each sample's target as PyTorch's ``nll_loss_backward`` rounds it: ``-w * g`` per sample
    (reduction none), else ``w * -(g / total_weight)`` (mean) or ``w * -g`` (sum); 0 where ignored. After
    ``_every_sample_kept`` every ``w`` is 1 and every sample kept: the one value ``-(g / total)`` (or ``-g``),
    which ``1 * v`` and the ``where`` would give for each sample (a 0-d array the caller's store broadcasts)."""
    if ctx.every_kept:
        return -(ga / ctx.total) if ctx.reduction == "mean" else -ga
    if ctx.reduction == "none":
        vals = -ctx.w * ga
    else:
        grad = -(ga / ctx.total) if ctx.reduction == "mean" else -ga
        vals = ctx.w * grad
    return xp_of(vals).where(ctx.keep, vals, ctx.w.dtype.type(0))


_F32 = np.dtype(np.float32)
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce
_KEPT_ARRAYS: dict = {}  # batch size -> the read-only arrays ``_every_sample_kept`` leaves on every ctx
_MAX_KEPT = 64  # batch sizes kept (cleared when full)


def _kept_arrays(n: int) -> tuple:
    """``(arange(n), ones(n, bool), ones(n, float32), full(n, -1 / n), full(n, -1))`` for a batch of ``n``, made once
    per size and read-only (the nodes of every step share them; nothing writes them)."""
    found = _KEPT_ARRAYS.get(n)
    if found is None:
        if len(_KEPT_ARRAYS) >= _MAX_KEPT:
            _KEPT_ARRAYS.clear()
        found = (np.arange(n), np.ones(n, bool), np.ones(n, _F32), np.full(n, _F32.type(-1) / _F32.type(n), _F32),
                 np.full(n, _F32.type(-1), _F32))
        for a in found:
            a.flags.writeable = False
        _KEPT_ARRAYS[n] = found
    return found


def _every_sample_kept(ctx, x, tgt, ignore_index: int, reduction: str):
    """``NllLoss.forward`` of a float32 batch without class weights whose targets are all in range and none is
    ``ignore_index`` (what ``min`` and ``max`` of the targets tell); None (nothing done) otherwise.

    NOTE: a training step's loss (cross_entropy of a small batch is ~30 NumPy calls, each a few µs in a step):
    every sample kept, the general forward's masks are all True and its weights all 1, so its ``where`` calls
    return their inputs, the total weight is the batch size and the coefficients ``-w / total`` (mean) or ``-w``
    (sum) are one number repeated; the same values in fewer calls (the ctx as the general forward leaves it, its
    arrays shared read-only between steps: ``_kept_arrays``)."""
    n, c = x.shape
    if not 0 < n < 1 << 24:
        return None
    low, high = _MIN(tgt), _MAX(tgt)
    if low < 0 or high >= c or low <= ignore_index <= high:
        return None
    rows, keep, w, mean_coef, sum_coef = _kept_arrays(n)
    ctx.index = index = (rows, tgt)
    ctx.reduction, ctx.shape = reduction, x.shape
    ctx.keep, ctx.w, ctx.every_kept = keep, w, True
    ctx.total = total = _F32.type(n)  # (the float32 count, exact below 2^24 samples, as _total_weight's)
    with quiet():
        out = _F32.type(0) - nll_total(x[index])  # NOTE: the kernel subtracts from 0: a zero loss is +0
        if reduction == "mean":
            out = np.asarray(out / total)
            ctx.coef = mean_coef
        else:
            ctx.coef = sum_coef
    return out


@computes_in_float32
class NllLoss(Function):
    """-w[t] input[t] per sample (0 where t == ignore_index); the mean divides by the kept weights."""

    node_name = "NllLossBackward0"
    edgeless_inputs = (1, 2)  # target and weight: torch's node has the input's edge only
    # (what PyTorch's node saves, read from the arguments kept for a TorchDispatchMode and the total weight)
    _saved_self, _saved_target, _saved_weight, _saved_ignore_index = (
        SavedFromNode(lambda node, i=i: node.aten_args[i], tensor=i < 3) for i in range(4))
    _saved_reduction = reduction_code()
    _saved_total_weight = SavedFromNode(lambda node: Tensor._wrap(np.asarray(node.total, dtype=node.coef.dtype)),
                                        tensor=True)

    @staticmethod
    def forward(ctx, input, target, weight, *, ignore_index, reduction):
        ctx.aten_args = (input, target, weight, ignore_index)  # (nll_loss_backward's, for a TorchDispatchMode)
        x = input._data
        xp = xp_of(x)
        tgt = target._data.astype(np.int64, copy=False)
        if weight is None and reduction != "none" and type(x) is np.ndarray and x.dtype == _F32 and x.ndim == 2:
            out = _every_sample_kept(ctx, x, tgt, ignore_index, reduction)
            if out is not None:
                return out
        keep = tgt != ignore_index
        safe = xp.where(keep, tgt, 0)
        bad = (safe < 0) | (safe >= x.shape[-1])
        if bool(bad.any()):
            raise IndexError(f"Target {int(tgt[bad].reshape(-1)[0])} is out of bounds.")
        w = keep.astype(x.dtype) if weight is None else weight._data[safe] * keep
        index = (xp.arange(x.shape[0]), safe) if x.ndim == 2 else (safe,)
        with quiet():
            total = _total_weight(x, w, keep, weight)
            out = _nll_reduced(x, index, weight, keep, reduction)
            if out is None:  # (the per-sample losses: only where the kernel's ordered sum does not apply)
                out = _reduced(xp, xp.where(keep, -x[index] * w, xp.zeros((), dtype=x.dtype)), reduction, total)
                if x.ndim == 1 or x.ndim == 2 and reduction != "none":  # NOTE: the kernel's sums (one 1-D sample's
                    out = xp.asarray(out + x.dtype.type(0))  # too) start at +0 and subtract: a zero loss is +0
            coef = -w / total if reduction == "mean" else -w
        ctx.index, ctx.reduction, ctx.every_kept = index, reduction, False
        ctx.coef = xp.where(keep, coef, xp.zeros((), dtype=x.dtype)).astype(x.dtype, copy=False)
        ctx.shape, ctx.keep, ctx.w, ctx.total = x.shape, keep, w.astype(x.dtype, copy=False), total
        return out

    @staticmethod
    def reduced_result(ctx, args, kwargs, out):
        """bfloat16 or float16: PyTorch's kernel adds the batch's losses (and divides) in that dtype, each step
        rounded."""
        x, target, weight = args
        keep = target._data != kwargs["ignore_index"]
        exact = _nll_reduced(x._data, ctx.index, weight, keep, ctx.reduction)
        return out.astype(x._data.dtype) if exact is None else exact

    @staticmethod
    def backward(ctx, g):
        xp = xp_of(ctx.coef)
        m = xp.zeros(ctx.shape, dtype=ctx.coef.dtype)
        if recording():
            m[ctx.index] = ctx.coef
            lead = len(ctx.shape) == 2 and ctx.reduction == "none"  # g has one value per row
            return (new_tensor(m) * (g.unsqueeze(1) if lead else g)), None, None
        with quiet():
            m[ctx.index] = _nll_picked_grads(ctx, g._data)
        return _result(m, m), None, None


class NllLoss2d(Function):
    """``nll_loss`` of an (N, C, H, W) input (PyTorch's ``nll_loss2d``): the same kernel over the N·H·W positions
    in their memory order, batch-major as torch's loop takes them, so the sums add in its cascade order."""

    node_name = "NllLoss2DBackward0"
    edgeless_inputs = (1, 2)  # target and weight

    @staticmethod
    def forward(ctx, input, target, weight, *, ignore_index, reduction):
        x = input._data
        rows = xp_of(x).moveaxis(x, 1, -1).reshape(-1, x.shape[1])
        out = NllLoss.forward(ctx, new_tensor(rows), new_tensor(target._data.reshape(-1)), weight,
                              ignore_index=ignore_index, reduction=reduction)
        ctx.nchw = x.shape
        return out.reshape(target._data.shape) if reduction == "none" else out

    @staticmethod
    def backward(ctx, g):
        n, c, h, w = ctx.nchw
        rows, _, _ = NllLoss.backward(ctx, g.reshape(-1) if ctx.reduction == "none" else g)
        return rows.reshape(n, h, w, c).movedim(-1, 1), None, None
