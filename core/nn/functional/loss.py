"""Losses with PyTorch's reductions, weights, ignore_index, label smoothing and shape checks.

They are composites of core ops (their gradients come from the ops), except the checks that PyTorch
makes before computing, which are reproduced here with its exception types and messages.
"""

from __future__ import annotations

import core
from core._arg_types import require_tensors
from core._dtype import SCALAR_NAMES
from core._tensor import Tensor
from core._user_warning import warn_caller, warn_in_core
from core.amp import _casting as _autocast
from core.nn.functional._loss_primitives import BinaryCrossEntropyWithLogits, MseLoss, NllLoss, NllLoss2d
from core.nn.functional._loss_primitives_more import BinaryCrossEntropy, HuberLoss, SmoothL1Loss, SoftMarginLoss
from core.nn.functional.activation import log_softmax
from core.ops._float32_compute import BF16
from core.ops._util import broadcast_shapes
from core.ops.elementwise import DivByNumber as _DivByNumber
from core.ops.elementwise import MulByNumber as _MulByNumber

__all__ = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "nll_loss", "cross_entropy",
           "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "soft_margin_loss",
           "poisson_nll_loss", "cosine_similarity"]

_REDUCTIONS = ("none", "mean", "sum")


def legacy_reduction(size_average, reduce, reduction: str, emit: bool = True) -> str:
    """The ``reduction`` string, honouring the deprecated ``size_average``/``reduce`` flags like PyTorch."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    out = "none" if not reduce else ("mean" if size_average else "sum")
    if emit:
        warn_in_core(f"size_average and reduce args will be deprecated, please use reduction='{out}' instead.")
    return out


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _check_reduction(reduction: str) -> str:
    """PyTorch's ``_Reduction.get_enum``, as the reduction's name: ``'elementwise_mean'`` (its name before 1.0) is
    ``'mean'`` with a deprecation warning, any other unknown name a ValueError."""
    if reduction == "elementwise_mean":
        warn_in_core("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        return "mean"
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _same_kind(input, other, same_shape: bool = False) -> bool:
    """True when ``other`` is a tensor like ``input`` (a float of one dtype, on one device) that can
    join a fused loss: of its shape, or (``same_shape=False``) broadcasting to it without growing it."""
    if not (isinstance(input, Tensor) and isinstance(other, Tensor)):
        return False
    x, y = input._data, other._data
    if x.dtype != y.dtype or (x.dtype.kind != "f" and x.dtype != BF16) or type(x) is not type(y) or \
            input.is_cuda and input.device != other.device:
        return False
    if x.shape == y.shape:
        return True
    return not same_shape and len(y.shape) <= len(x.shape) and broadcast_shapes(x.shape, y.shape) == x.shape


def _constant(t) -> bool:
    """``weight``/``pos_weight`` enter a fused loss as constants (PyTorch does not differentiate them)."""
    return t is None or not t.requires_grad


def _fusable_constant(input, c) -> bool:
    return c is None or _constant(c) and _same_kind(input, c)


def _pointwise(input: Tensor, target: Tensor):
    if target.shape != input.shape:
        warn_caller(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}). "
                    "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                    "same size.")
    return core.broadcast_tensors(input, target) if hasattr(core, "broadcast_tensors") else (input, target)


def mse_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None) -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target = _autocast.to_float32(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if weight is None and _same_kind(input, target, same_shape=True):
        return MseLoss.apply(input, target, reduction=reduction)
    input, target = _pointwise(input, target)
    diff = input - target
    loss = diff * diff
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", weight=None) -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target = _autocast.to_float32(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    input, target = _pointwise(input, target)
    loss = core.abs(input - target)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0) -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target = _autocast.to_float32(input, target)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta > 0 and _same_kind(input, target, same_shape=True):
        return SmoothL1Loss.apply(input, target, reduction=reduction, c=float(beta))
    input, target = _pointwise(input, target)
    z = core.abs(input - target)
    if beta == 0:
        return _reduce(z, reduction)
    return _reduce(core.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta), reduction)


def huber_loss(input, target, reduction: str = "mean", delta: float = 1.0, weight=None) -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target = _autocast.to_float32(input, target)
    reduction = _check_reduction(reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    if weight is None and _same_kind(input, target, same_shape=True):
        return HuberLoss.apply(input, target, reduction=reduction, c=float(delta))
    input, target = _pointwise(input, target)
    z = core.abs(input - target)
    loss = core.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _check_target(input: Tensor, target: Tensor) -> None:
    """nll_loss's checks in torch's order: the shapes (nll_loss_nd, the kernel's meta), then the target's dtype."""
    _check_target_shape(input, target)
    if target.dtype not in (core.int64, core.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_NAMES.get(target.dtype.name)}")


def _check_target_shape(input: Tensor, target: Tensor) -> None:
    if input.ndim < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {input.ndim})")
    if input.ndim == 1:
        if target.ndim > 1:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
        return
    if target.ndim == 0 or input.shape[0] != target.shape[0]:
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.ndim else 0}).")  # a 0-d target: torch reports 0
    if input.ndim == 2 and target.ndim != 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.ndim > 2 and tuple(target.shape) != (input.shape[0],) + tuple(input.shape[2:]):
        raise RuntimeError(f"Expected target size {[input.shape[0]] + list(input.shape[2:])}, got "
                           f"{list(target.shape)}")


_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int32": "Int", "int16": "Short",
          "int8": "Char", "bool": "Bool", "int64": "Long", "uint8": "Byte"}


def _picked(input: Tensor, target: Tensor, weight, ignore_index: int):
    """Per-element (-input[target] * w[target]) and the weights, both zero where target == ignore_index."""
    n_classes = input.shape[1] if input.ndim > 1 else input.shape[0]
    tgt = target.long()
    keep = tgt != ignore_index
    safe = core.where(keep, tgt, core.zeros_like(tgt))
    bad = (safe < 0) | (safe >= n_classes)
    if bool(bad.any()):
        raise IndexError(f"Target {int(core.masked_select(tgt, bad)[0])} is out of bounds.")
    if input.ndim == 1:
        picked = input.gather(0, safe.reshape(1)).reshape(())
    else:
        picked = input.gather(1, safe.unsqueeze(1)).squeeze(1)
    w = keep.to(input.dtype)
    if weight is not None:
        w = w * weight[safe]
    return -picked * w, w


def nll_loss(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
             reduction: str = "mean") -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, = _autocast.to_float32(input)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    require_tensors("nll_loss_nd", input=(1, input), target=(2, target))
    _check_target(input, target)
    _check_weight(input, weight)
    one_kernel = input.dtype.is_floating_point and (weight is None or _constant(weight) and _same_kind(
        input if input.ndim <= 2 else weight, weight) and weight.dtype == input.dtype and weight.device == input.device)
    if input.ndim <= 2 and one_kernel:
        return NllLoss.apply(input, target, weight, ignore_index=ignore_index, reduction=reduction)
    if input.ndim > 2 and one_kernel and input.numel():  # torch's nll_loss_nd: 4-D to nll_loss2d, others viewed
        if input.ndim == 4:
            return NllLoss2d.apply(input, target, weight, ignore_index=ignore_index, reduction=reduction)
        n, c = input.shape[:2]
        out = NllLoss2d.apply(input.contiguous().view(n, c, 1, -1), target.contiguous().view(n, 1, -1), weight,
                              ignore_index=ignore_index, reduction=reduction)
        return out.view(n, *input.shape[2:]) if reduction == "none" else out
    loss, w = _picked(input, target, weight, ignore_index)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / w.sum()


def _check_weight(input: Tensor, weight) -> None:
    n_classes = input.shape[1] if input.ndim > 1 else input.shape[0]
    if weight is not None and (weight.ndim != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but "
                           f"got weight tensor of shape: {list(weight.shape)}")


def _class_view(weight: Tensor, input: Tensor) -> Tensor:
    """``weight`` shaped to broadcast along the class dim of ``input``."""
    shape = [1] * input.ndim
    shape[1 if input.ndim > 1 else 0] = weight.shape[0]
    return weight.reshape(shape)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, = _autocast.to_float32(input)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    require_tensors("cross_entropy_loss", input=(1, input), target=(2, target))
    class_dim = 1 if input.ndim > 1 else 0
    if input.ndim == 0:
        raise RuntimeError("cross_entropy: input must have at least 1 dimension")
    _check_weight(input, weight)
    # NOTE: PyTorch's order of checks: a target of the input's shape holds class probabilities (float, and no
    # ignore_index >= 0) before label_smoothing's range is checked
    if target.shape == input.shape:
        if not target.is_floating_point():
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_NAMES[target.dtype.name]}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    logp = log_softmax(input, class_dim)
    n_classes = input.shape[class_dim]
    if target.shape == input.shape:
        return _prob_target(logp, target, weight, reduction, label_smoothing, class_dim, n_classes)
    if target.is_floating_point():
        _check_target(input, target)  # (torch's nll_loss_nd: a wrong shape is named before the dtype)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return nll
    # as torch's cross_entropy: the smoothing term zeroed where ignored, then both terms scaled by numbers
    ignored = target == ignore_index
    smooth = (-((logp * _class_view(weight, logp)) if weight is not None else logp).sum(class_dim)).masked_fill(
        ignored, 0.0)
    if reduction == "mean":
        kept = ~ignored
        smooth = smooth.sum() / (weight.gather(0, target.masked_select(kept).flatten()).sum()
                                 if weight is not None else kept.sum())
    elif reduction == "sum":
        smooth = smooth.sum()
    return _MulByNumber.apply(nll, 1 - label_smoothing) + _MulByNumber.apply(smooth, label_smoothing / n_classes)


def _prob_target(logp, target, weight, reduction, label_smoothing, class_dim, n_classes) -> Tensor:
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / n_classes
    prod = logp * target
    if weight is not None:
        prod = prod * _class_view(weight, logp)
    if reduction == "none":
        return -prod.sum(class_dim)
    if reduction == "sum":
        return -prod.sum()
    if not logp.numel():
        return -prod.sum() * float("nan")
    return _DivByNumber.apply(-prod.sum(), logp.numel() // n_classes)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction: str = "mean"):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target, weight = _autocast.to_float32(input, target, weight)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size ({input.shape}) "
                         "is deprecated. Please ensure they have the same size.")
    if target.dtype != input.dtype:  # torch's kernel takes no promotion: an int64 label from torch.full((n,), 1)
        raise RuntimeError(f"Found dtype {SCALAR_NAMES[target.dtype.name]} but expected "
                           f"{SCALAR_NAMES[input.dtype.name]}")
    if bool(((input < 0) | (input > 1)).any()):
        raise RuntimeError("all elements of input should be between 0 and 1")
    if _fusable_constant(input, weight):
        return BinaryCrossEntropy.apply(input, target, weight, reduction=reduction)
    log_p = core.clamp(core.log(input), min=-100)
    log_q = core.clamp(core.log(1 - input), min=-100)
    loss = -(target * log_p + (1 - target) * log_q)
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction: str = "mean", pos_weight=None) -> Tensor:
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target, weight, pos_weight = _autocast.to_float32(input, target, weight, pos_weight)
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")
    _check_logits_target(input, target)
    if _logits_fusable(input, target, weight, pos_weight):
        return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction=reduction)
    soft = core.log1p(core.exp(-core.abs(input))) + core.clamp(-input, min=0)
    if pos_weight is not None:
        loss = (1 - target) * input + ((pos_weight - 1) * target + 1) * soft
    else:
        loss = (1 - target) * input + soft
    if weight is not None:
        loss = loss * weight
    return _reduce(loss, reduction)


def _logits_fusable(input, target, weight, pos_weight) -> bool:
    """Whether ``BinaryCrossEntropyWithLogits`` computes the loss: tensors of one float dtype, or (as PyTorch's
    kernel allows) an input and a target of the same shape in two float dtypes, with constant weights."""
    if _same_kind(input, target):
        return _fusable_constant(input, weight) and _fusable_constant(input, pos_weight)
    x, t = input._data, target._data
    floats = x.dtype.kind == "f" and t.dtype.kind == "f" and type(x) is type(t) and x.shape == t.shape
    return floats and all(c is None or _constant(c) and c._data.dtype.kind == "f" for c in (weight, pos_weight))


def _check_logits_target(input, target) -> None:
    """torch computes ``(1 - target) * input`` into a tensor of the target's dtype: integer and bool targets fail."""
    if target.dtype == core.bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if not target.is_floating_point() and input.is_floating_point():
        raise RuntimeError(f"result type {SCALAR_NAMES[input.dtype.name]} can't be cast to the desired output type "
                           f"{SCALAR_NAMES[target.dtype.name]}")


def kl_div(input, target, size_average=None, reduce=None, reduction: str = "mean", log_target: bool = False):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, target = _autocast.to_float32(input, target)
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    elif reduction == "mean":
        warn_caller("reduction: 'mean' divides the total loss by both the batch size and the support size."
                    "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                    "'mean' will be changed to behave the same as 'batchmean' in the next major release.")
    if reduction != "batchmean":
        reduction = _check_reduction(reduction)
    if log_target:
        loss = core.exp(target) * (target - input)
    else:  # NOTE: PyTorch's C++ evaluates target * input first: its node runs last in backward, which decides
        cross = target * input  # the layout of the target's gradient
        loss = core.xlogy(target, target) - cross
    if reduction == "batchmean":
        return loss.sum() / input.shape[0] if input.ndim else loss.sum()
    return _reduce(loss, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    if isinstance(target, Tensor) and target.requires_grad and core.is_grad_enabled():
        raise RuntimeError("The function 'soft_margin_loss' is not differentiable with respect to argument "
                           "'target'. This input cannot have requires_grad True.")
    if reduction in _REDUCTIONS and _same_kind(input, target, same_shape=True):
        return SoftMarginLoss.apply(input, target, reduction=reduction)
    return _reduce(core.log1p(core.exp(-target * input)), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean") -> Tensor:
    reduction = legacy_reduction(size_average, reduce, reduction)
    if reduction not in _REDUCTIONS:  # NOTE: PyTorch's own Python check, which knows no 'elementwise_mean'
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_input:
        loss = core.exp(input) - target * input
    else:
        loss = input - target * core.log(input + eps)
    if full:
        import math

        stirling = target * core.log(target) - target + 0.5 * core.log(2 * math.pi * target)
        loss = loss + core.where(target > 1, stirling, core.zeros_like(stirling))
    return _reduce(loss, reduction)


def cosine_similarity(x1, x2, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """As PyTorch: each input divided by its norm clamped at ``eps`` (the clamp outside autograd), then summed."""
    require_tensors("cosine_similarity", x1=(1, x1), x2=(2, x2))
    common = core.result_type(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError("expected common dtype to be floating point, yet common dtype is "
                           f"{SCALAR_NAMES[common.name]}")
    x1, x2 = (x if x.is_floating_point() else x.to(common) for x in (x1, x2))
    if x1.shape != x2.shape:
        x1, x2 = core.broadcast_tensors(x1, x2)
    n1 = core.linalg.vector_norm(x1, 2, dim=dim, keepdim=True).clone()
    n2 = core.linalg.vector_norm(x2, 2, dim=dim, keepdim=True).clone()
    with core.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)
