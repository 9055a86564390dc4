"""``torch.cdist``: pairwise p-norm distances between the rows of two (batches of) matrices, by PyTorch's two routes.

- Euclidean distances between many rows (``p=2`` and more than 25 rows on a side, or
  ``compute_mode="use_mm_for_euclid_dist"``) come from one matrix product, as PyTorch's ``_euclidean_dist`` computes
  them: ``[-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T`` (float32 products of a few columns as MKL's sgemm rounds
  them), clamped at 1e-30, square-rooted. Its node is
  ``EuclideanDistBackward0`` (under the ``ViewBackward0`` of the result's shape), with PyTorch's backward formula.
- Otherwise (``_cdist_forward``, node ``CdistBackward0``) the differences of every pair are reduced directly, as
  ATen's ``run_parallel_cdist`` loop does for p = 1 and 2 (``_in_feature_order``): one pair's terms added one at a
  time in the features' order, not as a norm kernel's vector lanes; other p through the norm.

The batch dims broadcast; the checks and messages are PyTorch's.
"""

from __future__ import annotations

import numpy as np

import core
from core._arg_types import require_tensors
from core._fused import fma
from core._norm_order import two_norm
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import broadcast_shapes
from core.ops.norm_backward import norm_backward
from core.ops.vector_norms import _vector_norm

__all__ = ["cdist"]

FMA_CHAIN = 64  # the longest inner dim reproduced as a chain of fused multiply-adds
_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1, "donot_use_mm_for_euclid_dist": 2}


def _augmented(x1: Tensor, x2: Tensor):
    x1_norm = x1.pow(2).sum(-1, keepdim=True)
    x2_norm = x2.pow(2).sum(-1, keepdim=True)
    x1_ = core.cat([x1.mul(-2), x1_norm, core.ones_like(x1_norm)], -1)
    x2_ = core.cat([x2, core.ones_like(x2_norm), x2_norm], -1)
    return x1_, x2_


def _product(a: Tensor, b: Tensor) -> Tensor:
    """``a @ b.mT``; float32 with a short inner dim (``FMA_CHAIN``) as MKL's sgemm kernel adds it on this many rows:
    a chain of fused multiply-adds in the inner dim's order (NumPy's BLAS rounds otherwise)."""
    x, y = a._data, b._data
    k = x.shape[-1]
    if type(x) is not np.ndarray or x.dtype != np.float32 or k > FMA_CHAIN or x.shape[-2] < 8 or y.shape[-2] < 16:
        return a.matmul(b.mT)
    shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-2])
    cols_x = np.ascontiguousarray(np.swapaxes(x, -1, -2), dtype=np.float64)  # (..., k, m): a feature per row
    cols_y = np.ascontiguousarray(np.swapaxes(y, -1, -2), dtype=np.float64)
    acc, step = np.zeros(shape, np.float32), np.empty(shape, np.float64)
    for i in range(k):  # each product is exact in float64; the sum is then rounded once to float32
        np.multiply(cols_x[..., i, :, None], cols_y[..., i, None, :], out=step)
        step += acc
        acc[...] = step
    return core.from_numpy(acc)


class EuclideanDist(Function):
    node_name = "EuclideanDistBackward0"

    @staticmethod
    def forward(ctx, x1, x2):
        with core.no_grad():
            x1_, x2_ = _augmented(x1, x2)
            res = _product(x1_, x2_).clamp_min_(1e-30).sqrt_()
        ctx.save_for_backward(x1, x2, res)
        return res

    @staticmethod
    def backward(ctx, grad):
        x1, x2, res = ctx._unpacked
        ratio = (grad / res).masked_fill(res == 0, 0)  # the subgradient 0 where two rows coincide
        return (x1 * ratio.sum(-1, keepdim=True) - ratio.matmul(x2),
                x2 * ratio.sum(-2).unsqueeze(-1) - ratio.mT.matmul(x1))


class Cdist(Function):
    node_name = "CdistBackward0"

    @staticmethod
    def forward(ctx, x1, x2, *, p):
        diff = x1._data[..., :, None, :] - x2._data[..., None, :, :]
        out = _in_feature_order(diff, p)
        if out is None and p == 2:
            out = two_norm(diff, (-1,), False)
        if out is None:
            out = _vector_norm(diff, p, -1, False)
        res = core.from_numpy(out.astype(diff.dtype, copy=False)).to(x1.device)
        ctx.p = p
        ctx.save_for_backward(x1, x2, res)
        return res

    @staticmethod
    def backward(ctx, grad):
        x1, x2, res = ctx._unpacked
        diff = x1.unsqueeze(-2) - x2.unsqueeze(-3)
        if ctx.p == 2:  # NOTE: ATen's cdist backward kernel: (grad * diff) / dist, 0 where dist is 0
            g = ((grad.unsqueeze(-1) * diff) / res.unsqueeze(-1)).masked_fill((res == 0).unsqueeze(-1), 0)
        else:
            g = norm_backward(grad, diff, ctx.p, res, (diff.ndim - 1,), False)
        if g is None:  # p = 0: PyTorch's gradient is zero
            return core.zeros_like(x1), core.zeros_like(x2)
        # x2's terms are x1's negated (x2[i] - x1[j] = -(x1[j] - x2[i]) exactly), so its sum is theirs negated
        return _sum_in_order(g, -2).sum_to_size(x1.shape), (-_sum_in_order(g, -3)).sum_to_size(x2.shape)


def _in_feature_order(diff, p: float):
    """p = 1 or 2 distances of CPU float32/float64 differences ``diff`` (..., M) as ATen's cdist kernel adds them
    (``run_parallel_cdist``, a scalar loop over the M features per pair): ``agg = agg + |d|`` or ``agg + d * d``
    from 0, then the square root for p = 2. For p = 2 the compiled loop (PyTorch's AVX-512 build, unrolled by 4
    floats or 2 doubles) rounds each square in the unrolled part and fuses the last M % 4 (float32) or M % 2
    (float64) into multiply-adds, rounded once. ``None`` for anything else (the norm's route)."""
    if p not in (1.0, 2.0) or type(diff) is not np.ndarray or diff.dtype not in (np.float32, np.float64):
        return None
    m = diff.shape[-1]
    head = m - m % (4 if diff.dtype == np.float32 else 2)
    agg = np.zeros(diff.shape[:-1], diff.dtype)
    for i in range(m):
        d = diff[..., i]
        if p == 1.0:
            agg = agg + np.abs(d)
        elif i < head:
            agg = agg + d * d
        else:
            agg = fma(np, d, d, agg)
    return agg if p == 1.0 else np.sqrt(agg)


def _sum_in_order(t: Tensor, dim: int) -> Tensor:
    """The slices of ``t`` along ``dim`` added one after the other to +0, as ATen's cdist backward kernel adds each
    pair's term into a row's gradient (its vectors run along the features, the pairs in order)."""
    total = t.select(dim, 0) + 0.0  # NOTE: from +0, so terms that are all -0 give +0
    for j in range(1, t.shape[dim]):
        total = total + t.select(dim, j)
    return total


def _check(x1: Tensor, x2: Tensor, p: float, compute_mode) -> int:
    if x1.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.ndim}D")
    if x2.ndim < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.ndim}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.is_floating_point():
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {core.typename(x)[6:-6]}")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {core.typename(x1)[6:-6]} but found {core.typename(x2)[6:-6]}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode is None:
        return 0
    if compute_mode not in _MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return _MODES[compute_mode]


def cdist(x1: Tensor, x2: Tensor, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary"):
    """Pairwise ``p``-norm distances between the rows of ``x1`` (``B x P x M``) and ``x2`` (``B x R x M``)."""
    require_tensors("cdist", x1=(1, x1), x2=(2, x2))
    mode = _check(x1, x2, float(p), compute_mode)
    batch = broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    r1, r2, c = x1.shape[-2], x2.shape[-2], x1.shape[-1]
    if float(p) == 2 and x1.numel() and x2.numel() and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25))):
        n = 1
        for b in batch:
            n *= b
        if n != 1:  # PyTorch expands the batch dims and flattens them into one
            x1, x2 = x1.expand(*batch, r1, c).reshape(n, r1, c), x2.expand(*batch, r2, c).reshape(n, r2, c)
        return EuclideanDist.apply(x1, x2).view(*batch, r1, r2)
    return Cdist.apply(x1, x2, p=float(p))
