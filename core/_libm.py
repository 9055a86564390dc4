"""The C library's double-precision ``log``, ``log1p``, ``exp`` and ``tan``, bit for bit, on arrays.

PyTorch's CPU samplers call the C library's scalar functions; NumPy's own vectorised versions
differ from them in the last bit for a fraction of inputs (0.3% for ``log``, 5% for ``exp``).
``log`` and ``exp`` evaluate in extended precision, round, and ask Python's ``math`` (the C
library) again only where the exact value lies so close to halfway between two doubles that the
C library may round the other way; where that library is glibc, ``log`` of 64 or more elements runs
glibc's own algorithm instead (``core._glibc_log``: ~3x faster, far fewer elements asked).
glibc's ``log1p`` and ``tan`` are not that close to correctly rounded, so they call ``math`` per
element (they serve small draws and rare samplers).
"""

from __future__ import annotations

import math

import numpy as np

from core import _glibc_log

__all__ = ["log", "log1p", "exp", "tan"]

# x86-64 Linux has an 80-bit long double (63-bit mantissa); elsewhere it may be plain double.
_EXTENDED = np.finfo(np.longdouble).nmant >= 60
_PORT_FROM = 64  # elements from which log runs glibc's algorithm (where the C library is glibc's)
_HALFWAY_BAND = 0.03  # in units in the last place; glibc promises < 0.52 ulp for log/exp


def _scalar(fn):
    def call(v):
        try:
            return fn(v)
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return float(getattr(np, fn.__name__)(np.float64(v)))
    return np.frompyfunc(call, 1, 1)


_MATH = {name: _scalar(getattr(math, name)) for name in ("log", "log1p", "exp", "tan")}


_MATH_DIRECT = {name: np.frompyfunc(getattr(math, name), 1, 1) for name in ("log", "log1p", "exp", "tan")}


def _per_element(name: str, x: np.ndarray) -> np.ndarray:
    """``math.<name>`` of each element. NOTE: the C function straight through ``frompyfunc`` first (half the time of
    the guarded one: float64 ``normal_`` asks it for ~6% of its logs); if an element raises, the guarded one."""
    if not x.size:
        return np.empty(x.shape)
    try:
        vals = _MATH_DIRECT[name](x)
    except (ValueError, OverflowError):
        vals = _MATH[name](x)
    return np.asarray(vals, dtype=np.float64)  # (a 0-d x gives a Python float)


def _nearly_rounded(name: str, x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    if not x.ndim:  # (NumPy's ufuncs give a 0-d array's result as a scalar, which takes no item assignment)
        return _nearly_rounded(name, x.reshape(1)).reshape(())
    if not _EXTENDED:
        return _per_element(name, x)
    with np.errstate(all="ignore"):
        wide = getattr(np, name)(x.astype(np.longdouble))
        out = wide.astype(np.float64)
        if _X87:
            doubtful = _doubtful_x87(wide, out)
        else:
            frac = np.abs((wide - out).astype(np.float64)) / np.spacing(np.abs(out))
            mantissa = np.frexp(out)[0]
            doubtful = (np.abs(frac - 0.5) < _HALFWAY_BAND) | (np.abs(mantissa) == 0.5) | ~np.isfinite(frac)
    if np.any(doubtful):
        out[doubtful] = _per_element(name, x[doubtful])
    return out


# x87's 80-bit long double in 16 bytes, little-endian: its 64-bit significand (explicit leading bit) first
_X87 = (_EXTENDED and np.finfo(np.longdouble).nmant == 63 and np.dtype(np.longdouble).itemsize == 16
        and np.little_endian)
_EXTRA_BITS = 11  # the significand bits below a double's 53
_HALFWAY_WIDTH = int(_HALFWAY_BAND * (1 << _EXTRA_BITS))  # the band, in units of the lowest significand bit
_BITS_FROM = 2.0 ** -1000


def _doubtful_x87(wide: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``_nearly_rounded``'s values to ask the C library for, read off the bits (``wide``: the long double results,
    ``out``: them rounded to double).

    NOTE: the hot path of float64 ``normal_`` (half a million logs per million values). Where ``out`` is a normal
    double, the 11 significand bits of ``wide`` below a double's are its distance from ``out`` in 2048ths of an
    ulp, so ``|those bits - 1024| <= 61`` is exactly the general test's ``|frac - 0.5| < 0.03``; powers of two
    (whose ulp below is half the one above), zeros, subnormals, infinities and NaNs are all asked, as there, and so
    are doubles below ``_BITS_FROM``, where the general test's difference is itself a subnormal that rounds."""
    wide, out = np.ascontiguousarray(wide), np.ascontiguousarray(out)  # (bit views need C order: the mask's shape)
    extra = (wide.view(np.uint64)[..., ::2] & np.uint64((1 << _EXTRA_BITS) - 1)).view(np.int64)
    extra -= 1 << (_EXTRA_BITS - 1)
    doubtful = np.abs(extra) <= _HALFWAY_WIDTH
    doubtful |= (out.view(np.uint64) & np.uint64((1 << 52) - 1)) == 0  # powers of two (and zeros, infinities)
    doubtful |= ~(np.abs(out) >= _BITS_FROM)  # zeros, subnormals, NaNs and the doubles just above them
    doubtful |= np.isinf(out)
    return doubtful


def log(x):
    x = np.asarray(x, dtype=np.float64)
    if x.size >= _PORT_FROM and _glibc_log.available():  # glibc's own steps (core._glibc_log), 3x faster
        flat = np.ascontiguousarray(x).reshape(-1)
        vals, doubtful = _glibc_log.log(flat)
        if np.any(doubtful):
            vals[doubtful] = _per_element("log", flat[doubtful])
        return vals.reshape(x.shape)
    return _nearly_rounded("log", x)


def exp(x):
    return _nearly_rounded("exp", x)


def tan(x):
    return _per_element("tan", np.asarray(x, dtype=np.float64))


def log1p(x):
    return _per_element("log1p", np.asarray(x, dtype=np.float64))
