"""``x += alpha * y`` on float32 arrays rounded once per element, by the BLAS's ``saxpy`` where it is an fma.

PyTorch's CPU ``param.add_(grad, alpha=-lr)`` (every SGD step) is ``fmadd`` in its vector kernel: one rounding.
NumPy has no float32 fma, so ``core._fused`` computes it in float64 and mends the rare double-rounding ties: seven
NumPy passes where a plain update makes two (a 256x784 weight's update took 0.3 ms, a quarter of an MLP's step).
OpenBLAS's ``saxpy`` kernels for AVX2 and AVX-512 CPUs are ``vfmadd`` loops with fused tails, so where NumPy's
OpenBLAS (the ILP64 ``scipy_openblas64`` of NumPy's wheels) has one, ``saxpy`` gives the same bits in one pass.

NOTE: whether the loaded kernel fuses is not taken on trust: the first call runs a probe (``_fuses``, ~15 ms once a
process) through every length up to 160 and every start offset up to 15 floats (the vector body, its unrolled
remainder, the scalar tail and any alignment peeling), on operands whose fused result differs from both float32's
two roundings and float64's double rounding; a kernel that fails anywhere is never used, and ``saxpy_`` answers
False (the caller then takes its float64 route). The BLAS runs it single-threaded
(``_blas_threads.run_single_threaded``), as core's GEMMs; its threads would give the same bits.
"""

from __future__ import annotations

import ctypes

import numpy as np

from core import _blas_threads

__all__ = ["saxpy_", "available"]

# only the ILP64 names, whose integer width (int64) is certain from the name
_SYMBOLS = ("scipy_cblas_saxpy64_", "cblas_saxpy64_")
_state: dict = {"axpy": None, "ready": False}


def find_axpy(symbols, scalar):
    """``cblas_?axpy(n, alpha, x, incx, y, incy)`` of NumPy's OpenBLAS under the first of ``symbols`` it has
    (``scalar``: ``alpha``'s ctypes type), or None (``core._daxpy`` finds its float64 sibling so)."""
    for lib in _blas_threads.openblas_libraries():
        for name in symbols:
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = None
                fn.argtypes = [ctypes.c_int64, scalar, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64]
                return fn
    return None


def _find():
    """``cblas_saxpy`` of NumPy's OpenBLAS, or None."""
    return find_axpy(_SYMBOLS, ctypes.c_float)


def fused_at_every_offset(axpy, alpha, x, start, fused) -> bool:
    """Whether ``axpy`` gives ``fused`` (``alpha * x + start`` rounded once) at each length 1-160 from each start
    offset 0-15 elements, in a row of its own, leaving the elements outside the range at ``start`` (the vector
    body, its unrolled remainder, the scalar tail and any alignment peeling); ``x``: 160+ equal elements."""
    cases = [(offset, n) for offset in range(16) for n in range(1, 161)]
    width = 176
    y = np.full((len(cases), width), start, x.dtype)
    px, py = x.ctypes.data, y.ctypes.data
    for i, (offset, n) in enumerate(cases):
        axpy(n, alpha, px, 1, py + x.itemsize * (i * width + offset), 1)
    starts, lengths = np.array(cases).T
    column = np.arange(width)
    inside = (column >= starts[:, None]) & (column < (starts + lengths)[:, None])
    return bool((y == np.where(inside, fused, start)).all())


def _fuses(axpy) -> bool:
    """Whether ``axpy`` rounds ``alpha * x + y`` once at every position: ``1321 2^-11 * 812825 2^-43 + 1`` is
    ``1 + 2^-23`` rounded once, ``1`` rounded in float32 twice (the product, then a tie) or through float64 (a sum
    that lands on the float32 tie); each length 1-160 at each start offset 0-15 in a row of its own (elements
    outside the range left alone), and one long length (20,000)."""
    alpha, one, fused = ctypes.c_float(1321 * 2.0 ** -11), np.float32(1), np.float32(1 + 2.0 ** -23)
    x = np.full(20000, 812825 * 2.0 ** -43, np.float32)
    long = np.ones(20001, np.float32)
    axpy(20000, alpha, x.ctypes.data, 1, long.ctypes.data + 4, 1)
    if long[0] != one or not (long[1:] == fused).all():
        return False
    return fused_at_every_offset(axpy, alpha, x, one, fused)


def available() -> bool:
    """True when ``saxpy_`` can update in place (a fusing ``saxpy`` found and probed; the first call probes)."""
    if not _state["ready"]:
        axpy = _find()
        if axpy is not None and not _blas_threads.run_single_threaded(_fuses, axpy):
            axpy = None
        _state["axpy"], _state["ready"] = axpy, True
    return _state["axpy"] is not None


def saxpy_(x, y, alpha) -> bool:
    """``x += alpha * y`` rounded once (``x``, ``y``: C-contiguous float32 arrays of one size that do not overlap;
    ``alpha`` a nonzero float32 value: BLAS skips ``alpha == 0``, where the fma still changes -0 and adds NaNs);
    False, with nothing done, where no fusing ``saxpy`` is available, ``x`` is read-only (the caller's route then
    raises NumPy's error) or either array is not aligned to its 4-byte elements."""
    if not _state["ready"] and not available():
        return False
    axpy = _state["axpy"]
    if axpy is None or not (x.flags.writeable and x.flags.aligned and y.flags.aligned):  # (the probe's layouts)
        return False
    if not x.size:  # (nothing to update; a c_char can't lie over an empty buffer)
        return True
    # NOTE: a writable array's address through ctypes' buffer protocol (byref of a c_char over it) costs ~0.7 µs,
    # ``ndarray.ctypes.data`` ~2 µs (the small parameters of a training step are updated a few µs each)
    py = _byref(_char_over(y)) if y.flags.writeable else y.ctypes.data
    if x.size <= _ALONE:  # NOTE: OpenBLAS's axpy runs these on one thread itself (no thread-count switch needed)
        axpy(x.size, alpha, py, 1, _byref(_char_over(x)), 1)
    else:
        _blas_threads.run_single_threaded(axpy, x.size, alpha, py, 1, _byref(_char_over(x)), 1)
    return True


# elements up to which OpenBLAS's ``?axpy`` interface runs on one thread whatever its thread count (interface/axpy.c:
# "n <= 10000: nthreads = 1"): a small model's update then skips ``run_single_threaded``'s lock and two BLAS calls
# where NumPy's BLAS has several threads (the playground's default), ~3 µs of a ~5 µs update
_ALONE = 10000


_byref, _char_over = ctypes.byref, ctypes.c_char.from_buffer
