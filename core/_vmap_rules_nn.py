"""vmap's batching rules for linear algebra and ``nn.functional``: matrix products, ``linear`` and ``einsum``,
vector norms, dropout in eval, ``layer_norm``, ``embedding``, convolutions, pooling and eval-mode batch norm, and
the pointwise and class-index losses (``core._vmap_batched`` looks them up by name).

The batch rides where the op already has room for it (a matrix's rows, a convolution's images, a grouped
convolution's groups for per-sample weights); a reduced loss becomes each sample's mean or sum of the unreduced one.
What would mix samples or draw random numbers raises ``Unbatchable`` (vmap's loop runs instead).
"""

from __future__ import annotations

import string

import core
from core._vmap_level import Unbatchable, _arg, _as_batched, _ndim, _pad, _phys, _shift, _size, _wrap, is_batched
from core._vmap_rules_elementwise import _unary_same


def _norm(func, level, args, kwargs):
    """Tensor.norm/torch.norm and linalg.vector_norm: no dim is each sample's norm over all its elements."""
    x = args[0]
    if not is_batched(x, level) or any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    if func.__name__ == "linalg_norm":
        raise Unbatchable("linalg.norm: matrix norms")  # (its ord means a matrix norm for 2-d inputs)
    p_name = "ord" if func.__name__ == "linalg_vector_norm" else "p"
    p = _arg(args, kwargs, 1, p_name, 2 if p_name == "ord" else "fro")
    dim, keepdim = _arg(args, kwargs, 2, "dim"), _arg(args, kwargs, 3, "keepdim", False)
    rest = {k: v for k, v in kwargs.items() if k not in (p_name, "dim", "keepdim")}
    if len(args) > 4 or p not in (1, 2, "fro", float("inf")):
        raise Unbatchable(func.__name__)
    n = _ndim(x, level)
    if dim is None:
        if keepdim:
            raise Unbatchable("keepdim without dims")
        flat = x._phys.reshape(x._phys.shape[0], -1)
        return _wrap(func(flat, 2 if p == "fro" else p, 1, False, **rest), level)
    dims = tuple(_shift(d, n) for d in dim) if isinstance(dim, (tuple, list)) else _shift(dim, n)
    return _wrap(func(x._phys, p, dims, keepdim, **rest), level)


def _matmul(func, level, args, kwargs):
    """matmul and the products it generalises: 1-d operands become matrices, the batch dims line up behind the
    batch in front (an unbatched operand broadcasts over it)."""
    if kwargs:
        raise Unbatchable("out")
    a, b = args[:2]
    if func.__name__ == "__rmatmul__":
        a, b = b, a
    if not isinstance(a, core.Tensor) or not isinstance(b, core.Tensor):
        raise Unbatchable("matmul")
    na, nb = _ndim(a, level), _ndim(b, level)
    needed = {"mm": (2, 2), "bmm": (3, 3), "mv": (2, 1), "dot": (1, 1), "inner": (1, 1)}.get(func.__name__)
    if needed is not None and (na, nb) != needed or na == 0 or nb == 0:
        raise Unbatchable("shapes")
    if a.dtype != b.dtype:
        raise Unbatchable("dtypes")
    if not is_batched(b, level) and (na == 1 and nb <= 2 or na >= 2 and nb <= 2):
        return _wrap(core.matmul(a._phys, b), level)  # the batch rides in a's rows or batch dims
    pa = _as_batched(a, level)
    pb = _as_batched(b, level)
    if na == nb == 1:  # NOTE: a product and a sum, whose backward is the dot's (grad * other); rounding may differ
        return _wrap((pa * pb).sum(-1), level)
    if na == 1:
        pa = pa.unsqueeze(-2)
    if nb == 1:
        pb = pb.unsqueeze(-1)
    rank = max(pa.dim(), pb.dim())
    pa, pb = _pad(pa, rank - pa.dim()), _pad(pb, rank - pb.dim())
    out = core.matmul(pa, pb)
    if nb == 1:
        out = out.squeeze(-1)
    if na == 1:
        out = out.squeeze(-1 if nb == 1 else -2)
    return _wrap(out, level)


def _linear(func, level, args, kwargs):
    x, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    if not is_batched(weight, level) and (bias is None or not is_batched(bias, level)):
        if not is_batched(x, level) or _ndim(x, level) == 0:
            raise Unbatchable("linear")
        return _wrap(func(x._phys, weight, bias), level)
    out = core.matmul(x, weight.mT if _ndim(weight, level) == 2 else weight)  # (these dispatch to the rules above)
    return out if bias is None else out + bias


def _einsum(func, level, args, kwargs):
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    if kwargs or not isinstance(equation, str) or "->" not in equation:
        raise Unbatchable("einsum")
    free = [c for c in string.ascii_letters if c not in equation]
    letter = free[0]
    inputs, output = equation.replace(" ", "").split("->")
    terms = inputs.split(",")
    if len(terms) != len(operands):
        raise Unbatchable("einsum")
    terms = [letter + t if is_batched(o, level) else t for t, o in zip(terms, operands)]
    return _wrap(core.einsum(",".join(terms) + "->" + letter + output, *(_phys(o, level) for o in operands)), level)


def _dropout(func, level, args, kwargs):
    p = _arg(args, kwargs, 1, "p", 0.5)
    training = _arg(args, kwargs, 2, "training", True)
    if training and p != 0:
        raise Unbatchable("random")
    return _unary_same(func, level, args, kwargs)


def _layer_norm(func, level, args, kwargs):
    if any(is_batched(a, level) for a in (*args[1:], *kwargs.values())) or not is_batched(args[0], level):
        raise Unbatchable("layer_norm")
    return _wrap(func(args[0]._phys, *args[1:], **kwargs), level)


def _embedding(func, level, args, kwargs):
    if any(is_batched(a, level) for a in (*args[1:], *kwargs.values())) or not is_batched(args[0], level):
        raise Unbatchable("embedding")
    return _wrap(func(args[0]._phys, *args[1:], **kwargs), level)


def _spatial_dims(func) -> int:
    return int(func.__name__.rstrip("d")[-1])


def _flatten_leading(p, keep: int):
    """``p`` (batch in front) with its dims before the last ``keep`` merged into one: ``(B * N, C, *spatial)``."""
    return p.reshape((-1, *p.shape[p.dim() - keep:]))


def _conv(func, level, args, kwargs):
    """conv1d/2d/3d: an unbatched weight sees the batch as more images; a batched weight (per-sample gradients,
    ensembles) runs as one grouped convolution, each sample's images on its own group of channels."""
    x, weight = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "weight")
    bias = _arg(args, kwargs, 2, "bias")
    rest = [_arg(args, kwargs, i, name, default) for i, name, default in
            ((3, "stride", 1), (4, "padding", 0), (5, "dilation", 1), (6, "groups", 1))]
    spatial, nx = _spatial_dims(func), _ndim(x, level)
    if nx not in (spatial + 1, spatial + 2) or _ndim(weight, level) != spatial + 2 or any(
            isinstance(r, core.Tensor) for r in rest):
        raise Unbatchable(func.__name__)
    size = _size(level)
    if not is_batched(weight, level) and (bias is None or not is_batched(bias, level)):
        if not is_batched(x, level):
            raise Unbatchable(func.__name__)
        p = x._phys
        out = func(_flatten_leading(p, spatial + 1), weight, bias, *rest)
        return _wrap(out.reshape((*p.shape[:p.dim() - spatial - 1], *out.shape[1:])), level)
    px = _as_batched(x, level)
    if nx == spatial + 1:
        px = px.unsqueeze(1)
    n, channels = px.shape[1], px.shape[2]
    images = px.movedim(0, 1).reshape((n, size * channels, *px.shape[3:]))
    pw = _as_batched(weight, level)
    pw = pw.reshape((size * pw.shape[1], *pw.shape[2:]))
    pb = None if bias is None else _as_batched(bias, level).reshape(-1)
    out = func(images, pw, pb, *rest[:3], rest[3] * size)
    out = out.reshape((n, size, -1, *out.shape[2:])).movedim(1, 0)
    return _wrap(out.squeeze(1) if nx == spatial + 1 else out, level)


def _per_image(func, level, args, kwargs):
    """Pooling (and batch norm in eval mode): each image on its own, so the batch joins the images' dim."""
    x = args[0]
    if not is_batched(x, level) or any(is_batched(a, level) for a in (*args[1:], *kwargs.values())):
        raise Unbatchable(func.__name__)
    spatial = _spatial_dims(func) if func.__name__[-2:] in ("1d", "2d", "3d") else _ndim(x, level) - 2
    n = _ndim(x, level)
    if func.__name__ == "batch_norm":
        if _arg(args, kwargs, 5, "training", False) or n < 2:
            raise Unbatchable("batch norm in training mode mixes samples")
        spatial = n - 2
    elif n not in (spatial + 1, spatial + 2):
        raise Unbatchable(func.__name__)
    p = x._phys
    lead = p.shape[:p.dim() - spatial - 1]
    ret = func(_flatten_leading(p, spatial + 1), *args[1:], **kwargs)
    if isinstance(ret, tuple):
        return type(ret)(_wrap(r.reshape((*lead, *r.shape[1:])), level) for r in ret)
    return _wrap(ret.reshape((*lead, *ret.shape[1:])), level)


def _pointwise_loss(func, level, args, kwargs):
    """mse_loss, l1_loss...: the unreduced loss per element, then each sample's mean or sum."""
    x, target = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "target")
    reduction = _arg(args, kwargs, 4, "reduction", "mean")
    rest = {k: v for k, v in kwargs.items() if k not in ("input", "target", "reduction", "size_average", "reduce")}
    if len(args) > 2 or kwargs.get("size_average") is not None or kwargs.get("reduce") is not None or any(
            isinstance(v, core.Tensor) for v in rest.values()):
        raise Unbatchable(func.__name__)
    if tuple(x.shape) != tuple(target.shape) or x.dtype != target.dtype:
        raise Unbatchable("shapes")
    out = func(_as_batched(x, level), _as_batched(target, level), reduction="none", **rest)
    if reduction == "none":
        return _wrap(out, level)
    flat = out.reshape(out.shape[0], -1)
    return _wrap(flat.mean(1) if reduction == "mean" else flat.sum(1), level)


def _cross_entropy(func, level, args, kwargs):
    """Class-index targets without weights: the unreduced loss per sample's rows, then each sample's mean/sum."""
    x, target = _arg(args, kwargs, 0, "input"), _arg(args, kwargs, 1, "target")
    reduction = _arg(args, kwargs, 6, "reduction", "mean")
    ignore = _arg(args, kwargs, 4, "ignore_index", -100)
    extra = {k: v for k, v in kwargs.items() if k in ("label_smoothing",)}
    if len(args) > 2 or _arg(args, kwargs, 2, "weight") is not None or kwargs.get("size_average") is not None \
            or kwargs.get("reduce") is not None or target.is_floating_point():
        raise Unbatchable(func.__name__)
    nx, nt = _ndim(x, level), _ndim(target, level)
    if nx not in (1, 2) or nt != nx - 1:
        raise Unbatchable("shapes")
    px, pt = _as_batched(x, level), _as_batched(target, level)
    if nx == 2:
        px = px.transpose(1, 2)  # (batch, class, row)
    if reduction == "mean" and nx == 2 and bool((pt == ignore).any()):
        raise Unbatchable("ignored targets")
    out = func(px, pt, ignore_index=ignore, reduction="none", **extra)
    if reduction == "none" or nx == 1:
        return _wrap(out, level)
    return _wrap(out.mean(1) if reduction == "mean" else out.sum(1), level)
