"""``a * b + c`` rounded once, as PyTorch's vectorised CPU kernels compute it with their fused multiply-add.

``add(x, y, alpha=a)`` (so every optimizer's ``param.add_(grad, alpha=-lr)``), ``lerp`` and ``addcmul`` use
``fmadd`` in PyTorch's x86 kernels: one rounding where ``c + a * b`` written out rounds twice, and about one
element in fifty differs in the last bit. NumPy has no fma ufunc, so: float32 computes in float64 and rounds
once more (a product of two float32 values is exact in float64), and ``single_rounding`` mends the rare sums
that float64 rounded onto a float32 halfway point (there the second rounding would break a tie the exact sum
does not have: ``1 + 1321 2^-11 * 812825 2^-43`` is ``1 + 2^-23`` in torch, ``1`` rounded twice); float64 takes the
exact two-product fma of ``core._arange_values``; other dtypes and CuPy arrays (whose GPU kernels torch's CUDA
kernels don't mirror here) compute ``a * b + c``. A float32 fma with a number (``add(alpha=)``, SGD's update,
``lerp``'s small-weight form) of 512 or more elements goes through the BLAS's ``saxpy`` where a probe showed it
fuses (``core._saxpy``): one pass for the float64 route's seven, the same bits.
"""

from __future__ import annotations

import numpy as np

from core import _saxpy
from core._arange_values import fma as _fma64

__all__ = ["fma", "fma_", "scaled_add", "scaled_add_", "scaled_add_f32_", "lerp_", "single_rounding", "any_tie"]

_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)
_BELOW_HALF_ULP = np.uint64((1 << 29) - 1)  # a float64's 29 bits under float32's 24-bit significand
_HALFWAY = np.uint64(1 << 28)  # those bits of a float32 halfway point
_TIE_SHIFT = np.uint64(64 - 29)  # shifted left by this, those 29 bits of a halfway point read as int64's minimum
_TIE_MIN = np.iinfo(np.int64).min
_MIN = np.minimum.reduce


def _any_tie(t, scratch=None) -> bool:
    """Whether a float64 array holds a float32 halfway point (its 29 low bits ``_HALFWAY``).

    NOTE: an optimizer's hot path (every float32 update asks): the 29 bits shifted to the top of an int64 are
    ``_HALFWAY`` exactly when the int64 is its minimum, so one shift and one ``min`` answer, where masking,
    comparing and ``any`` made three passes and a boolean array (``scratch``: an int64 array of ``t``'s shape to
    shift into, or None for a new one)."""
    if not t.size:
        return False
    shifted = np.left_shift(t.view(np.uint64), _TIE_SHIFT, out=None if scratch is None else scratch.view(np.uint64))
    return _MIN(shifted.view(np.int64), None) == _TIE_MIN  # (ndarray.min's Python wrapper skipped)


def any_tie(t) -> bool:
    """Whether a float64 array (``a * b + c`` sums, C-contiguous) holds a float32 halfway point: where
    ``single_rounding`` has anything to mend."""
    return _any_tie(t)


def single_rounding(t, a, b, c, scratch=None):
    """``t`` (a float64 array, ``a * b + c`` with the product exact and the sum rounded to float64) made such that
    casting it to float32 rounds as a fused multiply-add's one rounding would; returns ``t``, mended in place.

    Only a sum that float64 rounded onto a float32 halfway point can round twice wrongly, so those are found from
    ``t``'s low bits (``_any_tie``, two NumPy passes); for them the sum's exact error (TwoSum) says which side of
    the tie the exact value lies, and ``t`` moves one float64 step that way (rounding to odd). NOTE: results in
    float32's subnormal range (below 1.2e-38), whose halfway points lie elsewhere, are not checked: a tie there
    needs a product below 1e-37 and costs two more passes on every update.
    """
    if not _any_tie(t, scratch):
        return t
    if t.ndim == 0:  # (np.nonzero refuses a 0-d array: lerp of two 0-d tensors)
        return single_rounding(t.reshape(1), np.reshape(a, 1), np.reshape(b, 1), np.reshape(c, 1)).reshape(())
    at = np.nonzero(np.bitwise_and(t.view(np.uint64), _BELOW_HALF_ULP) == _HALFWAY)
    p = np.multiply(np.broadcast_to(a, t.shape)[at], np.broadcast_to(b, t.shape)[at], dtype=np.float64)
    q = np.broadcast_to(c, t.shape)[at].astype(np.float64)
    s = t[at]
    back = s - p
    error = (p - (s - back)) + (q - back)  # p + q - s exactly
    t[at] = np.where(error != 0, np.nextafter(s, np.copysign(np.inf, error)), s)  # a tie is even: step to odd
    return t


def fma(xp, a, b, c):
    """``a * b + c`` with one rounding, in the arrays' result dtype (Python numbers are weak, as in NumPy)."""
    dt = xp.result_type(a, b, c)
    if xp is np and dt == _f32:
        if getattr(a, "dtype", None) == _f32 and not np.ndim(a) and a and type(b) is np.ndarray \
                and type(c) is np.ndarray and b.dtype == c.dtype == _f32 and b.shape == c.shape \
                and c.size >= _UPDATE_MIN and b.flags.c_contiguous and c.flags.c_contiguous:
            out = c.copy()  # (add(x, y, alpha=a): x copied, then the BLAS's fused saxpy, core._saxpy)
            if _saxpy.saxpy_(out, b, a):
                return out
        shape = _chunkable(a, b, c)
        if shape is not None:  # a large float32 result: a float64 chunk at a time (same bits)
            out = np.empty(shape, np.float32)
            _fma_f32_chunks(out, a, b, c)
            return out
        t = np.asarray(np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64))
        return single_rounding(t, a, b, c).astype(np.float32)
    if xp is np and dt == _f64:
        exact = _fma64(a, b, c)
        if np.isfinite(exact).all():
            return exact
        return np.where(np.isfinite(exact), exact, np.multiply(a, b) + c)  # inf, nan, or a split that overflowed
    if xp is np and (dt.kind == "V" or dt.char == "e"):  # bfloat16 (ml_dtypes), float16: in float64, rounded
        return np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64).astype(dt)  # once (float32 opmath)
    return a * b + c


def scaled_add(xp, x, y, alpha):
    """PyTorch's ``x.add(y, alpha=alpha)`` on arrays: ``fma(alpha, y, x)`` with ``alpha`` in ``x``'s dtype."""
    if alpha == 1:
        return x + y
    dt = xp.result_type(x, y)
    if (dt.kind == "V" or dt.char == "e") and xp is np:  # bfloat16, float16: PyTorch's add kernel, its tail too
        from core.ops._float32_compute import add_scaled_bfloat16  # (the ops import this module)

        return add_scaled_bfloat16(x, y, alpha)
    return fma(xp, dt.type(alpha) if dt.kind == "f" else alpha, y, x)


def fma_(xp, c, a, b) -> None:
    """``c = a * b + c`` in place, rounded once (``c`` an array; ``a``/``b`` arrays or numbers of ``c``'s dtype)."""
    if xp is np and c.dtype == _f32:
        if type(a) is np.float32 and a and type(b) is np.ndarray and b.dtype == _f32 and b.shape == c.shape \
                and c.size >= _UPDATE_MIN and c.flags.c_contiguous and b.flags.c_contiguous and c.flags.writeable \
                and not np.may_share_memory(c, b) and _saxpy.saxpy_(c, b, a):  # (lerp_: Adam's first moment)
            return  # the BLAS's fused saxpy (``core._saxpy``): one pass, the same bits
        if c.size > _CHUNK and _chunkable(c, a, b) == c.shape and c.flags.writeable:  # large: float64 chunks
            _fma_f32_chunks(c, a, b, c)
            return
        if isinstance(b, np.ndarray) and b.shape == c.shape:
            t = b.astype(np.float64)  # NOTE: cast, then multiply: faster than np.multiply's dtype= (same product)
            t *= a
        else:
            t = np.asarray(np.multiply(a, b, dtype=np.float64))
        t += c
        np.copyto(c, single_rounding(t, a, b, c), casting="same_kind")
    else:
        c[...] = fma(xp, a, b, c)


def scaled_add_(xp, x, y, alpha: float) -> None:
    """PyTorch's ``x.add_(y, alpha=alpha)`` on arrays, in place (every optimizer's ``param.add_(d_p, alpha=-lr)``).

    NOTE: an optimizer's hot path: float32 takes ``scaled_add_f32_``.
    """
    if xp is np and x.dtype == _f32 and y.dtype == _f32:
        scaled_add_f32_(x, y, np.float64(np.float32(alpha)))
    else:
        x[...] = scaled_add(xp, x, y, alpha)


_CHUNK = 65536  # elements: a large float32 array is updated a float64 chunk (512 KiB) at a time


def _chunkable(*operands):
    """The shape of a float32 fma's operands when it is worth chunking: more than ``_CHUNK`` elements, every array
    operand C-contiguous of that one shape (the others Python numbers or 0-d), none overlapping another; else None.
    """
    arrays = [x for x in operands if isinstance(x, np.ndarray) and x.ndim]
    if not arrays:
        return None
    shape = arrays[0].shape
    if arrays[0].size <= _CHUNK or any(x.shape != shape or not x.flags.c_contiguous for x in arrays):
        return None
    if any(np.may_share_memory(x, y) for i, x in enumerate(arrays) for y in arrays[i + 1:] if x is not y):
        return None
    return shape


def _fma_f32_chunks(out, a, b, c) -> None:
    """``out = a * b + c`` rounded once, for ``_chunkable`` operands (``out`` float32 of their shape, possibly
    ``c`` itself): the float64 sum a chunk at a time, so it stays in cache instead of making several trips through
    memory (a 13M-element Adam update's fma: ~5x faster); the same operations, the same bits."""
    flat = [x.reshape(-1) if isinstance(x, np.ndarray) and x.ndim else x for x in (out, a, b, c)]
    buffer, scratch = np.empty(_CHUNK, np.float64), np.empty(_CHUNK, np.int64)
    for start in range(0, out.size, _CHUNK):
        stop = min(start + _CHUNK, out.size)
        o, x, y, z = (f[start:stop] if isinstance(f, np.ndarray) and f.ndim else f for f in flat)
        t = buffer[:stop - start]
        np.multiply(x, y, out=t, dtype=np.float64)
        np.add(t, z, out=t, dtype=np.float64)
        o[...] = single_rounding(t, x, y, z, scratch[:stop - start])


_UPDATE_CHUNK = 32768  # elements of ``scaled_add_f32_``'s float64 chunk (256 KiB: its passes stay in L2)
_UPDATE_MIN = 512  # elements from which ``scaled_add_f32_`` and ``fma_`` take the BLAS's saxpy, or reuse scratch


def scaled_add_f32_(x, y, alpha64) -> None:
    """``x += alpha * y`` on float32 NumPy arrays, rounded once (``alpha64``: alpha as float32, held in float64).

    NOTE: an optimizer's hot path (a 256x784 layer's SGD update was a quarter of an MLP's training step): the
    product in float64 (exact), the sum, the store that rounds to float32, and ``single_rounding``'s tie check (a
    shift and a ``min``). A contiguous array goes through ``_UPDATE_CHUNK`` elements at a time through two float64
    scratch arrays allocated once per call, so every pass reads and writes cache instead of new memory. Both
    float32 operands are first widened by a plain copy into float64 scratch, so the multiply and the add run
    float64 loops: a ufunc with a float32 operand and a float64 output casts through NumPy's buffers, ~2x the
    time of the copy (the MLP step's update ~10% faster). The store comes before the tie check, which then shifts
    the float64 sum's bits in place (~5% less than into the second scratch array); a chunk with a tie is computed
    again from ``y`` and the widened ``x`` and mended. The same elementwise operations on the same values, the
    same bits. Where NumPy's BLAS has a ``saxpy`` that fuses (``core._saxpy``, probed once), it does the whole
    update in one pass instead (a 784x256 weight ~300 -> ~30 µs), the same bits again.
    """
    n = x.size
    contiguous = x.flags.c_contiguous and y.flags.c_contiguous
    if n >= _UPDATE_MIN and contiguous and alpha64 and not np.may_share_memory(x, y) and _saxpy.saxpy_(x, y, alpha64):
        return  # the BLAS's fused saxpy (``core._saxpy``): one pass, the same bits
    if n < _UPDATE_MIN or not contiguous or np.may_share_memory(x, y):
        t = np.asarray(y * alpha64)
        t += x
        x[...] = single_rounding(t, y, alpha64, x)
        return
    flat_x, flat_y = x.reshape(-1), y.reshape(-1)  # views: the writes land in x
    size = min(n, _UPDATE_CHUNK)
    buffer, wide = np.empty(size, np.float64), np.empty(size, np.float64)
    for start in range(0, n, size):
        stop = min(start + size, n)
        t, u, xs, ys = buffer[:stop - start], wide[:stop - start], flat_x[start:stop], flat_y[start:stop]
        np.copyto(t, ys)
        t *= alpha64  # exact: 24 by 24 significant bits
        np.copyto(u, xs)
        t += u
        np.copyto(xs, t, casting="same_kind")
        if _any_tie(t, t):  # (shifts t's bits in place) rare: the chunk again, mended; u still holds x's values
            np.copyto(t, ys)
            t *= alpha64
            t += u
            np.copyto(xs, single_rounding(t, ys, alpha64, u), casting="same_kind")


def lerp_(xp, start, end, weight: float) -> None:
    """PyTorch's ``start.lerp_(end, weight)`` on arrays, for a number ``weight`` (its CPU kernel's fused form)."""
    w = start.dtype.type(weight)
    if abs(w) < 0.5:
        fma_(xp, start, w, end - start)
    else:
        start[...] = fma(xp, w - 1, end - start, end)
