"""SLEEF's float32 ``log1pf_u10`` of plain values (positive, in [2^-36, 1e38]) in few NumPy calls: the same bits.

``core._sleef.log1pf_u10`` sends arrays with no special value to mend here (a loss's ``log1p(exp(-|x|))``: a
training step's BCE with logits, where each NumPy call costs more than its ~200 elements). The float32 steps are
SLEEF's, on the same values, each rounded where SLEEF rounds (module docstring of ``core._sleef``); what makes them
cheaper than the route they replaced (commit fd5497b3's ``_log1pf_plain``, kept in
``tests/core/test_sleef_log1pf_unchanged.py`` and checked against this one bit for bit):

- the exponent of ``(1 + d) / 0.75`` (positive and normal here) is its bits >> 23, one integer shift, in place of
  ``frexp`` and an offset; one ``take`` of a float32 table by that biased exponent gives ``e ln 2`` as SLEEF's
  double-float ``(sx, sy)``, ``2^-e`` and ``2^-e - 1`` (``_table``: the same values the route before looked up in
  two tables);
- ``m = fma(d, 2^-e, 2^-e - 1)`` is two float32 steps: ``d 2^-e`` is exact in float32 (a power of two times d,
  normal: it is d itself where e = 0 and at least 2^-3 elsewhere) and ``d 2^-e + (2^-e - 1)`` is exact in float64
  (every bit of both lies between 2^1 and 2^-26), so the fma's one rounding is the float32 sum's;
- ``m``, ``2 + m``, its error, ``1 / (2 + m)``, ``x2`` and ``q`` are made in rows of one float32 scratch array and
  go to float64 in one copy; the three exact products by ``r`` are one broadcast multiply;
- every step writes into scratch kept per thread and size (``core._thread_scratch``), the result into one new array.
"""

from __future__ import annotations

import functools

import numpy as np

from core._numpy_c import copyto as _copyto
from core._thread_scratch import kept_per_thread

__all__ = ["log1pf_plain"]

_F32, _F64, _U32 = np.float32, np.float64, np.uint32
_BLOCK = 8192  # elements per step: a block's scratch (~120 bytes an element) stays in a core's L2 cache
_K_ONE, _K_TWO, _K_R_075 = np.array(1, _F32), np.array(2, _F32), np.array(_F32(1 / 0.75))
_K_ONE64 = np.array(1, _F64)
_K_EXPONENT = np.array(23, _U32)
_M, _DX, _DY, _R, _X2, _Q, _XY = range(7)  # the float32 scratch's rows (``_Scratch``); _Q and _XY adjacent


@functools.cache
def _table() -> np.ndarray:
    """``(sx, sy, 2^-e, 2^-e - 1)`` in float32 for each biased exponent b (0..255) of ``(1 + d) / 0.75``, e = b - 127:
    ``core._sleef``'s ``_LN2_E`` and ``_POW2_NEG_E`` at index e - ``_E_FIRST`` (their values, float32 each)."""
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
    six of them in float64, and three float64 rows of products; ``steps`` and ``ends`` the views ``_steps`` and
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


_scratch = kept_per_thread(_Scratch, up_to=_BLOCK, sizes=4)  # (``_steps`` is not reentrant on a thread)


def log1pf_plain(d: np.ndarray) -> np.ndarray:
    """``log1pf_u10`` of a float32 array whose values all lie in [2^-36, 1e38] (module docstring): a new array."""
    flat = d.reshape(-1)
    out = np.empty(flat.size, _F32)
    if flat.size <= _BLOCK:
        _steps(flat, out, _scratch(flat.size))
    else:
        scratch = _scratch(_BLOCK)
        for start in range(0, flat.size, _BLOCK):
            part = flat[start:start + _BLOCK]
            _steps(part, out[start:start + _BLOCK], scratch if part.size == _BLOCK else _Scratch(part.size))
    return out.reshape(d.shape)


def _steps(d: np.ndarray, out: np.ndarray, scratch: _Scratch) -> None:
    """SLEEF's log1pf steps on one block ``d`` into ``out``: the reduction to ``m`` and its double-float quotient
    ``m / (2 + m)`` here, the polynomial and the sums in ``_finish``."""
    mul, add, sub, copyto = np.multiply, np.add, np.subtract, _copyto
    key, looked, t, t_less_one, m, dx, dy, r, x2, q, v, six, wide, wide3, r64, q64, prod, u, c, rm = scratch.steps
    add(d, _K_ONE, out=m)  # (1 + d) / 0.75, rounded twice as SLEEF's float32 steps
    mul(m, _K_R_075, out=m)
    np.right_shift(m.view(_U32), _K_EXPONENT, out=key)  # its biased exponent (positive and normal)
    _table().take(key, axis=1, mode="clip", out=looked)
    mul(d, t, out=m)  # m = fma(d, 2^-e, 2^-e - 1): both steps exact but the sum's rounding (docstring)
    add(m, t_less_one, out=m)
    add(m, _K_TWO, out=dx)  # dx = 2 + m, dy = its error (Fast2Sum: |m| < 2)
    sub(dx, _K_TWO, out=dy)
    sub(m, dy, out=dy)
    np.divide(_K_ONE, dx, out=r)
    mul(m, r, out=q)
    mul(q, q, out=x2)
    copyto(wide, six)  # m, dx, dy, r, x2 and q in float64 (exactly)
    mul(wide3, r64, out=prod)  # r m, r dx, r dy: exact
    sub(u, q64, out=u)  # u = fms(r, m, q): a product's error, exact in float32
    sub(_K_ONE64, c, out=c)  # fnma(dx, r, 1): the reciprocal's residual, exact in float32
    sub(c, rm, out=c)  # v = fnma(dy, r, .), rounded to float32 and back
    copyto(v, c, casting="same_kind")
    copyto(c, v)
    mul(c, q64, out=c)  # xy = fma(q, v, u)
    add(c, u, out=c)
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
