"""SLEEF's float32 ``logf_u10`` and ``log1pf_u10`` of plain values in few NumPy calls: the same bits.

``core._sleef.logf_u10`` sends arrays of positive normal values below 2^127 here (``logf_normal``: the log of
log_softmax's row sums, 64 values a training step) and ``log1pf_u10`` arrays whose values all lie in [2^-36, 1e38]
(``log1pf_plain``: a loss's ``log1p(exp(-|x|))``, the BCE with logits of a training step); there each NumPy call
costs more than its elements. The float32 steps are SLEEF's, on the same values, each rounded where SLEEF rounds
(module docstring of ``core._sleef``); what makes them cheaper than the routes they replaced (commit fd5497b3's
``_logf_normal`` and ``_log1pf_plain``, kept in ``tests/core/test_sleef_logf_unchanged.py`` and
``test_sleef_log1pf_unchanged.py`` and checked against these bit for bit):

- the exponent e of ``d / 0.75`` (logf) or ``(1 + d) / 0.75`` (log1p), positive and normal here, is its bits >> 23
  (less 127), one integer shift, in place of ``frexp`` and an offset; one ``take`` of a float32 table by it gives
  ``e ln 2`` as SLEEF's double-float ``(sx, sy)``, ``2^-e`` and ``2^-e - 1`` (``_table``: the values the routes
  before looked up in two tables);
- logf's ``m`` (``vgetmant(d)`` in [0.75, 1.5), ``frexp``, a compare and ``ldexp`` before) is ``d 2^-e``, one exact
  float32 product: d = m 2^e has one such m;
- log1p's ``m = fma(d, 2^-e, 2^-e - 1)`` is two float32 steps: ``d 2^-e`` is exact in float32 (a power of two
  times d, normal: it is d itself where e = 0 and at least 2^-3 elsewhere) and ``d 2^-e + (2^-e - 1)`` is exact in
  float64 (every bit of both lies between 2^1 and 2^-26), so the fma's one rounding is the float32 sum's;
- the quotient's numerator, ``dx``, its error, ``1 / dx``, ``x2`` and ``q`` are made in rows of one float32 scratch
  array and go to float64 in one copy; the three exact products by ``r`` are one broadcast multiply;
- every step writes into scratch kept per thread and size (``core._thread_scratch``), the result into one new array.
"""

from __future__ import annotations

import functools

import numpy as np

from core._numpy_c import copyto as _copyto
from core._thread_scratch import kept_per_thread

__all__ = ["logf_normal", "log1pf_plain"]

_F32, _F64, _U32 = np.float32, np.float64, np.uint32
_BLOCK = 8192  # elements per step: a block's scratch (~120 bytes an element) stays in a core's L2 cache
_K_ONE, _K_TWO, _K_R_075 = np.array(1, _F32), np.array(2, _F32), np.array(_F32(1 / 0.75))
_K_ONE64 = np.array(1, _F64)
_K_EXPONENT = np.array(23, _U32)
_M, _DX, _DY, _R, _X2, _Q, _XY = range(7)  # the float32 scratch's rows (``_Scratch``); _Q and _XY adjacent
# NOTE: (_M holds m, then the quotient's numerator: log1p's m, logf's m - 1)


@functools.cache
def _table() -> np.ndarray:
    """``(sx, sy, 2^-e, 2^-e - 1)`` in float32 for each biased exponent b (0..255) of ``d / 0.75`` or ``(1 + d) /
    0.75``, e = b - 127: ``core._sleef``'s ``_LN2_E`` and ``_POW2_NEG_E`` at index e - ``_E_FIRST`` (their values,
    float32 each)."""
    from core import _sleef

    at = np.arange(256) - 127 - _sleef._E_FIRST
    with np.errstate(over="ignore"):  # (no such exponent reaches here)
        return np.ascontiguousarray(np.concatenate([_sleef._LN2_E[:, at], _sleef._POW2_NEG_E[:, at].astype(_F32)]))


@functools.cache
def _poly() -> tuple:
    """SLEEF's log polynomial's three float32 coefficients as 0-d float64 arrays (no scalar conversion a call)."""
    from core import _sleef

    return tuple(np.array(c, _F64) for c in _sleef._LOG_POLY)


class _Scratch:
    """One block's temporaries: the exponents' key, the looked-up rows, seven float32 rows (``_M`` .. ``_XY``),
    six of them in float64, and three float64 rows of products; ``steps`` and ``ends`` the views the steps and
    ``_finish`` take (made once: each view a call costs ~0.1 µs, of a ~30 µs log1p of 200 values)."""

    def __init__(self, size: int):
        self.key = key = np.empty(size, _U32)
        self.looked_up = looked = np.empty((4, size), _F32)
        self.narrow = rows = np.empty((7, size), _F32)
        self.wide = wide = np.empty((6, size), _F64)
        self.products = prod = np.empty((3, size), _F64)
        self.steps = (key, looked, looked[2], looked[3], *rows, rows[:_XY], wide, wide[:3], wide[_R], wide[_Q],
                      prod, *prod)
        self.ends = (looked[0], looked[1], looked[2], *rows, rows[_Q:], rows[_DX:_R], wide[_X2], prod[2])


_scratch = kept_per_thread(_Scratch, up_to=_BLOCK, sizes=4)  # (the steps are not reentrant on a thread)


def logf_normal(d: np.ndarray) -> np.ndarray:
    """``logf_u10`` of a float32 array of positive normal values below 2^127 (module docstring): a new array."""
    return _blockwise(d, _logf_steps)


def log1pf_plain(d: np.ndarray) -> np.ndarray:
    """``log1pf_u10`` of a float32 array whose values all lie in [2^-36, 1e38] (module docstring): a new array."""
    return _blockwise(d, _log1pf_steps)


def _blockwise(d: np.ndarray, steps) -> np.ndarray:
    """``steps(block, out_block, scratch)`` over ``d`` a ``_BLOCK`` of elements at a time, into a new array."""
    flat = d.reshape(-1)
    out = np.empty(flat.size, _F32)
    if flat.size <= _BLOCK:
        steps(flat, out, _scratch(flat.size))
    else:
        scratch = _scratch(_BLOCK)
        for start in range(0, flat.size, _BLOCK):
            part = flat[start:start + _BLOCK]
            steps(part, out[start:start + _BLOCK], scratch if part.size == _BLOCK else _Scratch(part.size))
    return out.reshape(d.shape)


def _logf_steps(d: np.ndarray, out: np.ndarray, scratch: _Scratch) -> None:
    """SLEEF's logf steps on one block ``d`` into ``out``: ``d = m 2^e``, ``x = (m - 1) / (m + 1)`` in
    double-float (``_quotient``), ``log d = e ln 2 + 2 atanh x`` (``_finish``)."""
    key, looked, t, _, m, dx, dy = scratch.steps[:7]
    np.multiply(d, _K_R_075, out=m)
    np.right_shift(m.view(_U32), _K_EXPONENT, out=key)  # d / 0.75's biased exponent (positive and normal)
    _table().take(key, axis=1, mode="clip", out=looked)
    np.multiply(d, t, out=m)  # m = vgetmant(d) in [0.75, 1.5): d 2^-e, exact
    np.add(m, _K_ONE, out=dx)  # dx = m + 1, dy = its error (Fast2Sum: 1's exponent is at least m's)
    np.subtract(dx, _K_ONE, out=dy)
    np.subtract(m, dy, out=dy)
    np.subtract(m, _K_ONE, out=m)  # nx = m - 1, exact (Sterbenz)
    _quotient(scratch, out)


def _log1pf_steps(d: np.ndarray, out: np.ndarray, scratch: _Scratch) -> None:
    """SLEEF's log1pf steps on one block ``d`` into ``out``: ``1 + d = m' 2^e`` without rounding ``1 + d``, ``x = m /
    (2 + m)`` in double-float (``_quotient``), ``log1p d = e ln 2 + 2 atanh x`` (``_finish``)."""
    key, looked, t, t_less_one, m, dx, dy = scratch.steps[:7]
    np.add(d, _K_ONE, out=m)  # (1 + d) / 0.75, rounded twice as SLEEF's float32 steps
    np.multiply(m, _K_R_075, out=m)
    np.right_shift(m.view(_U32), _K_EXPONENT, out=key)  # its biased exponent (positive and normal)
    _table().take(key, axis=1, mode="clip", out=looked)
    np.multiply(d, t, out=m)  # m = fma(d, 2^-e, 2^-e - 1): both steps exact but the sum's rounding (docstring)
    np.add(m, t_less_one, out=m)
    np.add(m, _K_TWO, out=dx)  # dx = 2 + m, dy = its error (Fast2Sum: |m| < 2)
    np.subtract(dx, _K_TWO, out=dy)
    np.subtract(m, dy, out=dy)
    _quotient(scratch, out)


def _quotient(scratch: _Scratch, out: np.ndarray) -> None:
    """The double-float quotient ``(q, xy)`` of the numerator in row ``_M`` by ``(dx, dy)``, as SLEEF's ``dfdiv``
    with its fmas (``core._sleef.logf_u10``'s NOTE on the shortcuts), then ``_finish`` into ``out``."""
    mul, sub, copyto = np.multiply, np.subtract, _copyto
    _, _, _, _, n, dx, _, r, x2, q, v, six, wide, wide3, r64, q64, prod, u, c, rm = scratch.steps
    np.divide(_K_ONE, dx, out=r)
    mul(n, r, out=q)
    mul(q, q, out=x2)
    copyto(wide, six)  # the numerator, dx, dy, r, x2 and q in float64 (exactly)
    mul(wide3, r64, out=prod)  # r n, r dx, r dy: exact
    sub(u, q64, out=u)  # u = fms(r, n, q): a product's error, exact in float32
    sub(_K_ONE64, c, out=c)  # fnma(dx, r, 1): the reciprocal's residual, exact in float32
    sub(c, rm, out=c)  # v = fnma(dy, r, .), rounded to float32 and back
    copyto(v, c, casting="same_kind")
    copyto(c, v)
    mul(c, q64, out=c)  # xy = fma(q, v, u)
    np.add(c, u, out=c)
    copyto(v, c, casting="same_kind")
    _finish(scratch, out)


def _finish(scratch: _Scratch, out: np.ndarray) -> None:
    """``poly = fma(fma(c0, x2, c1), x2, c2)`` (each rounded to float32), then ``core._sleef._log_finish``'s sums:
    ``e ln 2 + 2 x + x2 x poly`` in double-float, rounded once, into ``out``."""
    mul, add, sub, copyto = np.multiply, np.add, np.subtract, _copyto
    sx, sy, s1, poly, a, b, s0, w, q, _, pair, ab, x2_64, p = scratch.ends
    c0, c1, c2 = _poly()
    mul(x2_64, c0, out=p)
    add(p, c1, out=p)
    copyto(poly, p, casting="same_kind")
    copyto(p, poly)
    mul(p, x2_64, out=p)
    add(p, c2, out=p)
    copyto(poly, p, casting="same_kind")  # (into m's row: m is read no more)
    mul(pair, _K_TWO, out=ab)  # a, b = 2 x, 2 xy (exact), into the rows of dx and dy
    add(sx, a, out=s0)  # (into r's row, and s1 into 2^-e's)
    sub(sx, s0, out=s1)
    add(s1, a, out=s1)
    add(s1, sy, out=s1)
    add(s1, b, out=s1)
    mul(w, q, out=w)  # x2 x (into x2's row: its float64 copy is read no more)
    mul(w, poly, out=w)
    add(s0, w, out=out)
    sub(s0, out, out=s0)
    add(s0, w, out=s0)
    add(s0, s1, out=s0)
    add(out, s0, out=out)
