"""LBFGS's ``line_search_fn="strong_wolfe"``: a bracketing line search for a step meeting the strong Wolfe conditions.

Phase one widens the step (cubic extrapolation) until it brackets a point of sufficient decrease; phase two shrinks
the bracket (cubic interpolation, kept away from the ends) until the curvature condition holds, as PyTorch's
(after minFunc). The flat gradients are arrays and the directional derivatives NumPy float32 scalars, so the
arithmetic mixes float32 and Python floats as PyTorch's 0-d tensors and floats do.
"""

from __future__ import annotations

import numpy as np

__all__ = ["strong_wolfe"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through two points with their slopes, clamped to ``bounds`` (the midpoint of
    the bounds when the cubic has none)."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 ** 2 - g1 * g2
    if d2_square < 0:
        return (lo + hi) / 2.0
    d2 = np.sqrt(d2_square)  # torch's d2_square.sqrt(): a float32 square root of a float32 scalar
    if x1 <= x2:
        at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(at, lo), hi)


class _Bracket:
    """Two trial steps with their losses, gradients and directional derivatives; ``low`` is the better one."""

    def __init__(self, steps, losses, grads, slopes):
        self.t, self.f, self.g, self.gtd = list(steps), list(losses), list(grads), list(slopes)
        self.order()

    def order(self):
        self.low, self.high = (0, 1) if self.f[0] <= self.f[-1] else (1, 0)

    def put(self, i, t, f, g, gtd):
        self.t[i], self.f[i], self.g[i], self.gtd[i] = t, f, g, gtd


def strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """``(loss, flat_grad, step, evaluations)`` at the step found along ``d``; ``evaluate(t)`` gives the loss
    and flat gradient at ``x + t d`` and leaves the parameters as they were."""
    d_norm = abs(d).max()
    f_new, g_new = evaluate(t)
    evals, ls_iter = 1, 0
    gtd_new = g_new @ d
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    bracket, done = None, False
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):  # too far: the minimum is behind
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()], [gtd_prev, gtd_new])
            break
        if abs(gtd_new) <= -c2 * gtd:  # both conditions hold
            bracket, done = _Bracket([t], [f_new], [g_new], [gtd_new]), True
            break
        if gtd_new >= 0:  # the slope turned: the minimum is between
            bracket = _Bracket([t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()], [gtd_prev, gtd_new])
            break
        t_next = _cubic_minimum(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new.copy(), gtd_new
        t = t_next
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new @ d
        ls_iter += 1
    if ls_iter == max_ls:
        bracket = _Bracket([0, t], [f, f_new], [g, g_new], [gtd, gtd_new])
    return _zoom(evaluate, bracket, done, ls_iter, evals, d, d_norm, f, gtd, c1, c2, tolerance_change, max_ls)


def _zoom(evaluate, b, done, ls_iter, evals, d, d_norm, f, gtd, c1, c2, tolerance_change, max_ls):
    """Phase two: shrink the bracket until a step meets the curvature condition (or the bracket is tiny)."""
    stalled = False
    while not done and ls_iter < max_ls:
        if abs(b.t[1] - b.t[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimum(b.t[0], b.f[0], b.gtd[0], b.t[1], b.f[1], b.gtd[1])
        hi, lo = max(b.t), min(b.t)
        eps = 0.1 * (hi - lo)
        if min(hi - t, t - lo) < eps:  # too close to an end: move it inside, unless the last step was stalled too
            if stalled or t >= hi or t <= lo:
                t = hi - eps if abs(t - hi) < abs(t - lo) else lo + eps
                stalled = False
            else:
                stalled = True
        else:
            stalled = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = g_new @ d
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= b.f[b.low]:
            b.put(b.high, t, f_new, g_new.copy(), gtd_new)
            b.order()
            continue
        if abs(gtd_new) <= -c2 * gtd:
            done = True
        elif gtd_new * (b.t[b.high] - b.t[b.low]) >= 0:
            b.put(b.high, b.t[b.low], b.f[b.low], b.g[b.low], b.gtd[b.low])
        b.put(b.low, t, f_new, g_new.copy(), gtd_new)
    return b.f[b.low], b.g[b.low], b.t[b.low], evals
