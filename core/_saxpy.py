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

NOTE: OpenBLAS's Haswell kernel (the one its AVX2 CPUs load, the AMD Zen 3 among them) fuses only its vector body,
whole blocks of 32 floats from the first element at any address; its C tail (the last ``n % 32``) rounds the product
and the sum apart (measured: every length 1-420 and 1,000-33,333 at start offsets 0-15, one thread: the first
``n // 32 * 32`` fused, the rest not). So where the whole-length probe fails, the probe runs again on lengths that are
multiples of ``_BLOCKS``' sizes (``_state["block"]``), and ``saxpy_`` hands the kernel that many and the tail, padded
with zeros to one block in a scratch row, to the kernel too: each element's fma is its own, so every element is the
fused kernel's value (an MLP's SGD step on the Zen 3 took its float64 route: ~480 µs of ~2.1 ms).
"""

from __future__ import annotations

import ctypes

import numpy as np

from core import _blas_threads

__all__ = ["saxpy_", "available", "padded_tail", "fused_block"]

# only the ILP64 names, whose integer width (int64) is certain from the name
_SYMBOLS = ("scipy_cblas_saxpy64_", "cblas_saxpy64_")
_state: dict = {"axpy": None, "ready": False, "block": 1}
_BLOCKS = (1, 32)  # elements the kernel fuses in whole blocks of (module docstring: 1, every length; 32, Haswell)


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


def fused_at_every_offset(axpy, alpha, x, start, fused, block: int = 1) -> bool:
    """Whether ``axpy`` gives ``fused`` (``alpha * x + start`` rounded once) at each length 1-160 (``block``: each of
    the first 20 multiples of ``block``) from each start offset 0-15 elements, in a row of its own,
    leaving the elements outside the range at ``start`` (the vector body, its unrolled remainder, the scalar tail
    and any alignment peeling); ``x``: that many equal elements or more."""
    lengths = range(1, 161) if block == 1 else range(block, 20 * block + 1, block)
    cases = [(offset, n) for offset in range(16) for n in lengths]
    width = lengths[-1] + 16
    y = np.full((len(cases), width), start, x.dtype)
    px, py = x.ctypes.data, y.ctypes.data
    for i, (offset, n) in enumerate(cases):
        axpy(n, alpha, px, 1, py + x.itemsize * (i * width + offset), 1)
    starts, lengths = np.array(cases).T
    column = np.arange(width)
    inside = (column >= starts[:, None]) & (column < (starts + lengths)[:, None])
    return bool((y == np.where(inside, fused, start)).all())


def _fuses(axpy, block: int = 1) -> bool:
    """Whether ``axpy`` rounds ``alpha * x + y`` once at every position: ``1321 2^-11 * 812825 2^-43 + 1`` is
    ``1 + 2^-23`` rounded once, ``1`` rounded in float32 twice (the product, then a tie) or through float64 (a sum
    that lands on the float32 tie); each length 1-160 (``block``: the multiples of ``block`` up to 20 blocks) at
    each start offset 0-15 in a row of its own (elements outside the range left alone), and one long length
    (20,000, a multiple of 32)."""
    alpha, one, fused = ctypes.c_float(1321 * 2.0 ** -11), np.float32(1), np.float32(1 + 2.0 ** -23)
    x = np.full(20000, 812825 * 2.0 ** -43, np.float32)
    long = np.ones(20001, np.float32)
    axpy(20000, alpha, x.ctypes.data, 1, long.ctypes.data + 4, 1)
    if long[0] != one or not (long[1:] == fused).all():
        return False
    return fused_at_every_offset(axpy, alpha, x, one, fused, block)


def available() -> bool:
    """True when ``saxpy_`` can update in place (a fusing ``saxpy`` found and probed; the first call probes)."""
    return probe_once(_state, _find, _fuses, _BLOCKS)


def fused_block() -> int:
    """Elements the fusing ``saxpy`` fuses in whole blocks of (1: every length; 32: OpenBLAS's Haswell kernel), or 0
    where there is none (the first call probes)."""
    return _state["block"] if available() else 0


def probe_once(state: dict, find, fuses, blocks) -> bool:
    """``available()`` of ``saxpy_`` and ``core._daxpy.daxpy_``: on the first call ``find()`` the kernel and keep it
    in ``state`` with the first of ``blocks`` it ``fuses`` at (on one BLAS thread), or no kernel where it fuses at
    none; True when a kernel is kept."""
    if not state["ready"]:
        axpy = find()
        block = next((b for b in blocks if axpy is not None and _blas_threads.run_single_threaded(fuses, axpy, b)),
                     None)
        state["axpy"], state["block"], state["ready"] = None if block is None else axpy, block or 1, True
    return state["axpy"] is not None


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
    n = x.size
    if not n:  # (nothing to update; a c_char can't lie over an empty buffer)
        return True
    block = _state["block"]
    body = n - n % block  # (the kernel's fused blocks: every element where block is 1)
    if body < n and n < _PADDED_FROM:  # a tail, on a small array: the caller's route costs less (_PADDED_FROM)
        return False
    # NOTE: a writable array's address through ctypes' buffer protocol (byref of a c_char over it) costs ~0.7 µs,
    # ``ndarray.ctypes.data`` ~2 µs (the small parameters of a training step are updated a few µs each)
    py = _byref(_char_over(y)) if y.flags.writeable else y.ctypes.data
    if body <= _ALONE:  # NOTE: OpenBLAS's axpy runs these on one thread itself (no thread-count switch needed)
        if body:
            axpy(body, alpha, py, 1, _byref(_char_over(x)), 1)
    else:
        _blas_threads.run_single_threaded(axpy, body, alpha, py, 1, _byref(_char_over(x)), 1)
    if body < n:
        padded_tail(axpy, x.reshape(-1)[body:], y.reshape(-1)[body:], alpha, block)
    return True


def padded_tail(axpy, x, y, alpha, block: int) -> None:
    """``x += alpha * y`` for the last ``n % block`` elements (1-d views, fewer than ``block``) through the kernel's
    fused blocks: both copied into a zeroed scratch row of one block, updated there, copied back (module NOTE; also
    ``core._daxpy``'s, in float64)."""
    pad = np.zeros((2, block), x.dtype)
    xs, ys = pad
    r = x.shape[0]
    xs[:r] = x
    ys[:r] = y
    axpy(block, alpha, _byref(_char_over(ys)), 1, _byref(_char_over(xs)), 1)
    x[...] = xs[:r]


# elements up to which OpenBLAS's ``?axpy`` interface runs on one thread whatever its thread count (interface/axpy.c:
# "n <= 10000: nthreads = 1"): a small model's update then skips ``run_single_threaded``'s lock and two BLAS calls
# where NumPy's BLAS has several threads (the playground's default), ~3 µs of a ~5 µs update
_ALONE = 10000


_byref, _char_over = ctypes.byref, ctypes.c_char.from_buffer
# NOTE: elements from which an array whose length is not a multiple of the kernel's block takes the kernel with a
# padded tail (``padded_tail``, ~5 µs of ctypes and copies): below, the callers' float64 route costs about as much
# or less (measured on the Zen 3, interleaved: 105 elements 18 µs against 25, 394 22 against 25, 1,290 23 against
# 24, 4,000 33 against 7, at load 10)
_PADDED_FROM = 1024
