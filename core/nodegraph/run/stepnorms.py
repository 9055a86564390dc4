"""The norms a training step reports per parameter: weight, update (weight after - before) and gradient.

For real NumPy parameters they come from one buffer and one segmented sum: the weights are copied into it
before the optimizer step and again after it, the gradients beside them, and ``np.add.reduceat`` sums the
squares of every parameter's segment at once (a few NumPy calls per step instead of a few per parameter).
The flat views of the parameter arrays and the segment starts are kept while the parameters are the same
arrays (an optimizer updates them in place). Anything else (CuPy, complex, empty or non-contiguous arrays)
takes one pass per array.
"""

from __future__ import annotations

import math
from operator import is_
from typing import Any

import numpy as np
import numpy.typing as npt

from core.autograd.graph import array_module

__all__ = ["StepNorms", "norms"]

Arrays = list[Any]  # NumPy or CuPy arrays


def _real(arrays: Arrays) -> bool:
    """A non-empty list of non-empty real NumPy arrays: what the one-buffer path handles."""
    for a in arrays:
        if type(a) is not np.ndarray or a.dtype.kind != "f" or not a.size:
            return False
    return bool(arrays)


def norms(arrays: Arrays) -> list[float]:
    """The 2-norm of each array: one segmented sum for real NumPy arrays, else one dot product each."""
    if _real(arrays):
        flat = np.concatenate([a.reshape(-1) for a in arrays], dtype=np.float64)
        starts = np.cumsum([0] + [a.size for a in arrays[:-1]])
        return np.sqrt(np.add.reduceat(flat * flat, starts)).tolist()
    return [math.sqrt(abs(float(array_module(a).vdot(a, a).real))) if a.size else 0.0 for a in arrays]


class _Layout:
    """Flat views of real, C-contiguous parameter arrays and where each one starts in 1, 2 or 3 rows."""

    __slots__ = ("arrays", "views", "n", "starts")

    def __init__(self, arrays: Arrays) -> None:
        self.arrays, self.views = arrays, [a.reshape(-1) for a in arrays]
        self.n = sum(a.size for a in arrays)
        one = np.cumsum([0] + [a.size for a in arrays[:-1]])
        self.starts = {rows: np.concatenate([one + i * self.n for i in range(rows)]) for rows in (2, 3)}

    def holds(self, arrays: Arrays) -> bool:
        return len(arrays) == len(self.arrays) and all(map(is_, arrays, self.arrays))


Saved = Arrays | tuple[_Layout, npt.NDArray[np.float64]]  # the weights before the step: copies, or a buffer


class StepNorms:
    """``before(arrays)`` ahead of the optimizer step, ``after(saved, arrays, grads, gflat)`` once it ran."""

    def __init__(self) -> None:
        self._layout: _Layout | None = None

    def before(self, arrays: Arrays) -> Saved:
        """What ``after`` needs of the weights before the step: a buffer holding them, or copies."""
        layout = self._layout
        if layout is None or not layout.holds(arrays):
            layout = self._layout = (_Layout(arrays) if _real(arrays) and all(a.flags.c_contiguous for a in arrays)
                                     else None)
        if layout is None:
            return [a.copy() for a in arrays]
        buf = np.empty(3 * layout.n)
        np.concatenate(layout.views, out=buf[layout.n:2 * layout.n])
        return layout, buf

    def after(self, saved: Saved, arrays: Arrays, grads: list[Any] | None, gflat: Any = None
              ) -> tuple[list[float], list[float], list[float | None] | None]:
        """``(weight norms, update norms, gradient norms)`` per parameter; the last is None without ``grads``,
        None for a gradient that is None; ``gflat``: the gradients already laid one after the other."""
        if type(saved) is tuple and saved[0].holds(arrays):
            layout, buf = saved
            n = layout.n
            if grads is not None and gflat is None and _real(grads):
                gflat = np.concatenate([g.reshape(-1) for g in grads])
            rows = 3 if gflat is not None and gflat.size == n else 2 if grads is None else 0
            if rows:
                now = buf[:n]  # the weights after the step
                np.concatenate(layout.views, out=now)
                np.subtract(now, buf[n:2 * n], out=buf[n:2 * n])
                if rows == 3:
                    buf[2 * n:] = gflat
                buf = buf[:rows * n]
                np.square(buf, out=buf)
                out = np.sqrt(np.add.reduceat(buf, layout.starts[rows])).tolist()
                k = len(arrays)
                return out[:k], out[k:2 * k], out[2 * k:] if rows == 3 else None
        if type(saved) is tuple:  # other arrays than before, or gradients the buffer can't hold
            layout, buf = saved
            saved = [v.reshape(a.shape) for v, a in zip(np.split(buf[layout.n:2 * layout.n],
                                                                 layout.starts[2][1:len(arrays)]), layout.arrays)]
        w, dw = norms(arrays), norms([a - b for a, b in zip(arrays, saved)])
        if grads is None:
            return w, dw, None
        it = iter(norms([g for g in grads if g is not None]))
        return w, dw, [None if g is None else next(it) for g in grads]
