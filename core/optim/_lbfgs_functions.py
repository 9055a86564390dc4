"""``torch.optim.lbfgs``'s module-level helpers ``_cubic_interpolate`` and ``_strong_wolfe`` on tensors, as libraries
import them (pytorch-minimize's BFGS, L-BFGS and conjugate gradient take their steps with ``_strong_wolfe`` on flat
tensors and its own ``obj_func(x, t, d) -> (loss, flat_grad)``).

The same search as ``core.optim._strong_wolfe`` (which ``LBFGS`` runs on arrays), here on the caller's tensors and
values: each comparison and update in PyTorch's order and types (0-d tensors from ``g.dot(d)`` mixed with Python
floats), so the steps, the evaluations and the returned loss, gradient and step are PyTorch's.
"""

from __future__ import annotations

import core

__all__: list[str] = []


def _cubic_interpolate(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through ``(x1, f1)`` and ``(x2, f2)`` with slopes ``g1``, ``g2``, clamped to
    ``bounds`` (by default the interval between the points); the bounds' midpoint where the cubic has no minimum."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if not d2_square >= 0:
        return (lo + hi) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, lo), hi)


def _copy(g):
    return g.clone(memory_format=core.contiguous_format)


def _strong_wolfe(obj_func, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """``(loss, flat_grad, step, evaluations)``: a step along ``d`` meeting the strong Wolfe conditions, bracketed
    by cubic extrapolation then shrunk by cubic interpolation; ``obj_func(x, t, d)`` gives the loss and gradient at
    ``x + t d``."""
    d_norm = d.abs().max()
    g = _copy(g)
    f_new, g_new = obj_func(x, t, d)
    evals, ls_iter = 1, 0
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):  # too far: the minimum is behind
            b, bf, bg, bgtd = [t_prev, t], [f_prev, f_new], [g_prev, _copy(g_new)], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:  # both conditions hold
            b, bf, bg, done = [t], [f_new], [g_new], True
            break
        if gtd_new >= 0:  # the slope turned: the minimum is between
            b, bf, bg, bgtd = [t_prev, t], [f_prev, f_new], [g_prev, _copy(g_new)], [gtd_prev, gtd_new]
            break
        step = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                  bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, _copy(g_new), gtd_new
        t = step
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:
        b, bf, bg = [0, t], [f, f_new], [g, g_new]
    low, high = (0, 1) if bf[0] <= bf[-1] else (1, 0)
    stalled = False
    while not done and ls_iter < max_ls:
        if abs(b[1] - b[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(b[0], bf[0], bgtd[0], b[1], bf[1], bgtd[1])
        eps = 0.1 * (max(b) - min(b))
        if min(max(b) - t, t - min(b)) < eps:  # too close to an end: move away (at the second time running)
            if stalled or t >= max(b) or t <= min(b):
                t = max(b) - eps if abs(t - max(b)) < abs(t - min(b)) else min(b) + eps
                stalled = False
            else:
                stalled = True
        else:
            stalled = False
        f_new, g_new = obj_func(x, t, d)
        evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bf[low]:
            b[high], bf[high], bg[high], bgtd[high] = t, f_new, _copy(g_new), gtd_new
            low, high = (0, 1) if bf[0] <= bf[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (b[high] - b[low]) >= 0:
                b[high], bf[high], bg[high], bgtd[high] = b[low], bf[low], bg[low], bgtd[low]
            b[low], bf[low], bg[low], bgtd[low] = t, f_new, _copy(g_new), gtd_new
    return bf[low], bg[low], b[low], evals
