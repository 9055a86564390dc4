"""``ctc_loss``: the connectionist temporal classification loss, by the forward-backward recursion.

Each target is extended with blanks around its labels (length 2L + 1); ``alpha`` sums, in log
space, the probability of every alignment of the target's prefix with the first t frames, and
``beta`` that of every suffix with the frames from t on, one vectorised step per frame over the
whole batch. The loss is -log of the sum at the last frame of each sequence.

NOTE: like PyTorch's kernel, the gradient returned for ``log_probs`` is exp(log_probs) - posterior:
the gradient for the logits under a log_softmax, not the plain derivative in log_probs. Both agree
after a log_softmax (each frame's posterior sums to 1), and matching PyTorch's number keeps the
leaf gradients of scripts that feed ``ctc_loss`` raw tensors equal to PyTorch's.
"""

from __future__ import annotations

import numpy as np

import core
from core.autograd.function import Function
from core.nn.functional.loss import _check_reduction

__all__ = ["ctc_loss"]


def _extended(targets, blank):
    """(N, 2S+1) labels with blanks interleaved, and whether each position may skip back two."""
    n, s = targets.shape
    ext = np.full((n, 2 * s + 1), blank, dtype=np.int64)
    ext[:, 1::2] = targets
    skip = np.zeros_like(ext, dtype=bool)
    skip[:, 3::2] = (targets[:, 1:] != targets[:, :-1])
    return ext, skip


def _logsumexp3(a, b, c):
    m = np.maximum(np.maximum(a, b), c)
    safe = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return safe + np.log(np.exp(a - safe) + np.exp(b - safe) + np.exp(c - safe))


def _shift(x, k):
    out = np.full_like(x, -np.inf)
    out[:, k:] = x[:, :x.shape[1] - k]
    return out


def _alphas(lp, ext, skip, in_len, tgt_len):
    """log alpha (T, N, 2S+1); frames past a sequence's end keep its last values."""
    t_max, n = lp.shape[:2]
    emit = np.take_along_axis(lp, np.broadcast_to(ext, (t_max,) + ext.shape), axis=2)
    valid = np.arange(ext.shape[1])[None, :] < (2 * tgt_len + 1)[:, None]
    alpha = np.full((t_max,) + ext.shape, -np.inf)
    first = np.full(ext.shape, -np.inf)
    first[:, 0] = emit[0, :, 0]
    first[:, 1] = np.where(tgt_len > 0, emit[0, :, 1], -np.inf)
    alpha[0] = np.where(valid, first, -np.inf)
    for t in range(1, t_max):
        prev = alpha[t - 1]
        step = _logsumexp3(prev, _shift(prev, 1), np.where(skip, _shift(prev, 2), -np.inf)) + emit[t]
        alpha[t] = np.where((t < in_len)[:, None] & valid, step, prev)
    return alpha, emit, valid


def _betas(emit, skip, in_len, tgt_len, valid):
    """log beta (T, N, 2S+1), emission at t included; -inf past each sequence's end."""
    t_max, n, s2 = emit.shape
    beta = np.full(emit.shape, -np.inf)
    rows = np.arange(n)
    last = np.full((n, s2), -np.inf)
    last[rows, 2 * tgt_len] = 0.0
    last[rows[tgt_len > 0], 2 * tgt_len[tgt_len > 0] - 1] = 0.0
    skip_next = np.zeros_like(skip)
    skip_next[:, :-2] = skip[:, 2:]
    nxt = np.full((n, s2), -np.inf)
    for t in range(t_max - 1, -1, -1):
        ends_here = (t == in_len - 1)[:, None]
        cont = _logsumexp3(nxt, _shift_back(nxt, 1), np.where(skip_next, _shift_back(nxt, 2), -np.inf))
        cur = np.where(ends_here, last, cont) + emit[t]
        cur = np.where((t < in_len)[:, None] & valid, cur, -np.inf)
        beta[t] = cur
        nxt = cur
    return beta


def _shift_back(x, k):
    out = np.full_like(x, -np.inf)
    out[:, :x.shape[1] - k] = x[:, k:]
    return out


class CtcLoss(Function):
    """Per-sequence negative log-likelihood (N,) of the targets under ``log_probs`` (T, N, C)."""

    node_name = "CtcLossBackward0"

    @staticmethod
    def forward(ctx, log_probs, *, targets, input_lengths, target_lengths, blank, zero_infinity):
        lp = log_probs._data.astype(np.float64)
        ext, skip = _extended(targets, blank)
        alpha, emit, valid = _alphas(lp, ext, skip, input_lengths, target_lengths)
        rows = np.arange(lp.shape[1])
        final = alpha[np.maximum(input_lengths - 1, 0), rows]
        end_blank = final[rows, 2 * target_lengths]
        end_label = np.where(target_lengths > 0, final[rows, np.maximum(2 * target_lengths - 1, 0)], -np.inf)
        nll = -np.logaddexp(end_blank, end_label)
        ctx.state = (lp, ext, skip, alpha, emit, valid, nll, input_lengths, target_lengths, zero_infinity)
        if zero_infinity:
            nll = np.where(np.isinf(nll), 0.0, nll)
        return nll.astype(log_probs._data.dtype)

    @staticmethod
    def backward(ctx, g):
        lp, ext, skip, alpha, emit, valid, nll, in_len, tgt_len, zero_inf = ctx.state
        beta = _betas(emit, skip, in_len, tgt_len, valid)
        both = alpha + beta  # alpha and beta both carry the emission at t: subtract it once below
        t_max, n, c = lp.shape
        lcab = np.full((t_max, n, c), -np.inf)
        for s in range(ext.shape[1]):
            idx = np.broadcast_to(ext[:, s][None, :, None], (t_max, n, 1))
            current = np.take_along_axis(lcab, idx, axis=2)
            np.put_along_axis(lcab, idx, np.logaddexp(current, both[:, :, s:s + 1]), axis=2)
        with np.errstate(invalid="ignore", over="ignore"):
            grad = np.exp(lp) - np.exp(lcab + nll[None, :, None] - lp)
        active = np.arange(t_max)[:, None] < in_len[None, :]
        grad = np.where(active[:, :, None], grad, 0.0)
        if zero_inf:
            grad = np.where(np.isinf(nll)[None, :, None], 0.0, grad)
        # NOTE: constant in log_probs (no double backward, as in PyTorch); linear in g
        local = core.tensor(grad.astype(g._data.dtype), device=g.device)
        return (local * g.reshape(1, n, 1),)


def _lengths(value):
    """Sequence lengths (a tensor, list or int) as an int64 array."""
    return np.asarray(value.tolist() if isinstance(value, core.Tensor) else value, dtype=np.int64).reshape(-1)


def _padded_targets(targets, target_lengths, n):
    t = np.asarray(targets.tolist(), dtype=np.int64)
    if t.ndim == 1:  # concatenated targets
        if t.shape[0] != target_lengths.sum():
            raise RuntimeError(f"Expected tensor to have size at least {int(target_lengths.sum())} at dimension 1, "
                               f"but got size {t.shape[0]} for argument #2 'targets' (while checking arguments for "
                               "ctc_loss_cpu)")
        out = np.zeros((n, max(int(target_lengths.max(initial=0)), 1)), dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(target_lengths)[:-1]])
        for i in range(n):
            out[i, :target_lengths[i]] = t[starts[i]:starts[i] + target_lengths[i]]
        return out
    return t.reshape(n, -1) if t.ndim == 2 or n == 1 else t


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    reduction = _check_reduction(reduction)
    unbatched = log_probs.ndim == 2
    lp = log_probs.unsqueeze(1) if unbatched else log_probs
    t_max, n = lp.shape[:2]
    in_len, tgt_len = _lengths(input_lengths), _lengths(target_lengths)
    if unbatched and targets.ndim == 1 and tgt_len.size == 1 and targets.numel() != tgt_len[0]:
        targets = targets[:int(tgt_len[0])]
    padded = _padded_targets(targets.unsqueeze(0) if unbatched and targets.ndim == 1 else targets, tgt_len, n)
    if in_len.size != n or tgt_len.size != n:
        raise RuntimeError(f"Expected tensor to have size at least {n} at dimension 1 (while checking arguments for "
                           "ctc_loss_cpu)")
    if int(in_len.max(initial=0)) > t_max:
        raise RuntimeError(f"Expected input_lengths to have value at most {t_max}, but got value "
                           f"{int(in_len.max())} (while checking arguments for ctc_loss_cpu)")
    loss = CtcLoss.apply(lp, targets=padded[:, :max(padded.shape[1], 1)], input_lengths=in_len,
                         target_lengths=tgt_len, blank=blank, zero_infinity=zero_infinity)
    if unbatched:
        loss = loss.squeeze(0)
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    if reduction == "mean":
        denom = core.tensor(np.maximum(tgt_len, 1), dtype=loss.dtype, device=loss.device)
        return (loss / (denom.squeeze(0) if unbatched else denom)).mean()
    raise ValueError(f"{reduction} is not a valid value for reduction")
