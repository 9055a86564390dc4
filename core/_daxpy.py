"""``y += alpha * x`` on float64 arrays rounded once per element, by the BLAS's ``daxpy`` where it is an fma.

The float64 sibling of ``core._saxpy``: NumPy has no fma, so a float64 ``a * b + c`` rounded once is Dekker's
product and TwoSum (``core._arange_values.fma``, ~16 NumPy passes); OpenBLAS's ``daxpy`` kernels for AVX2 and
AVX-512 CPUs are ``vfmadd`` loops with fused tails, one pass. SLEEF's float64 ``expd_u10``
(``core.nn.functional._flash_cpu``) takes it for its fmas with a scalar multiplier.

NOTE: as ``core._saxpy``, the loaded kernel is probed before it is used (``_fuses``, once a process): every length
1-160 at every start offset 0-15 doubles and one long length, on operands whose fused result differs from the
unfused one; a kernel that fails anywhere is never used and ``daxpy_`` answers False (the caller keeps its
NumPy route). The BLAS runs it single-threaded (``_blas_threads.run_single_threaded``) above OpenBLAS's own
one-thread size.

NOTE: OpenBLAS's Haswell ``daxpy`` (AVX2 CPUs, the AMD Zen 3) fuses only whole blocks of 16 doubles, its C tail
rounds twice (measured as ``core._saxpy``'s 32 floats: every length 1-300 and 1,000-20,031 at start offsets 0-15, one
thread); as there, the probe then runs on multiples of 16 (``_state["block"]``) and ``daxpy_`` hands the kernel the
whole blocks and the tail padded to one block (``core._saxpy.padded_tail``): every element the fused kernel's value.
"""

from __future__ import annotations

import ctypes

import numpy as np

from core import _blas_threads, _saxpy

__all__ = ["daxpy_", "available"]

_SYMBOLS = ("scipy_cblas_daxpy64_", "cblas_daxpy64_")  # (the ILP64 names: int64 is certain from the name)
_state: dict = {"axpy": None, "ready": False, "block": 1}
_BLOCKS = (1, 16)  # doubles the kernel fuses in whole blocks of (module NOTE: 1, every length; 16, Haswell)
_ALONE = 10000  # elements up to which OpenBLAS's ?axpy runs on one thread itself (interface/axpy.c)


def _find():
    """``cblas_daxpy(n, alpha, x, incx, y, incy)`` of NumPy's OpenBLAS, or None."""
    return _saxpy.find_axpy(_SYMBOLS, ctypes.c_double)


def _fuses(axpy, block: int = 1) -> bool:
    """Whether ``axpy`` rounds ``alpha * x + y`` once at every position: ``(1 + 2^-30)^2 - (1 + 2^-29)`` is
    ``2^-60`` fused and 0 with the product rounded first; each length 1-160 (``block``: its first 20 multiples) at
    each start offset 0-15 in a row of its own (elements outside the range left alone), and one long length (20,000,
    a multiple of 16)."""
    alpha, big = 1 + 2.0 ** -30, 20000
    minus, fused = -(1 + 2.0 ** -29), 2.0 ** -60
    x = np.full(big, alpha)
    long = np.full(big + 1, minus)
    axpy(big, alpha, x.ctypes.data, 1, long.ctypes.data + 8, 1)
    if long[0] != minus or not (long[1:] == fused).all():
        return False
    return _saxpy.fused_at_every_offset(axpy, alpha, x, minus, fused, block)


def available() -> bool:
    """True when ``daxpy_`` can update in place (a fusing ``daxpy`` found and probed; the first call probes)."""
    return _saxpy.probe_once(_state, _find, _fuses, _BLOCKS)


def daxpy_(y, x, alpha: float) -> bool:
    """``y += alpha * x`` rounded once (``y``, ``x``: C-contiguous, aligned float64 arrays of one size that do not
    overlap, ``y`` writable; ``alpha`` a nonzero finite float: BLAS skips ``alpha == 0``); False, with nothing done,
    where no fusing ``daxpy`` is available or an array is not as said."""
    if not _state["ready"] and not available():
        return False
    axpy = _state["axpy"]
    if axpy is None or not (alpha and y.flags.writeable and y.flags.c_contiguous and x.flags.c_contiguous
                            and y.flags.aligned and x.flags.aligned and x.size == y.size
                            and x.dtype == y.dtype == np.float64):
        return False
    n = y.size
    body = n - n % _state["block"]  # (the kernel's fused blocks: every element where the block is 1)
    if body > _ALONE:
        _blas_threads.run_single_threaded(axpy, body, alpha, x.ctypes.data, 1, y.ctypes.data, 1)
    elif body:
        axpy(body, alpha, _address(x), 1, _address(y), 1)
    if body < n:  # (the tail through one padded block: module NOTE)
        _saxpy.padded_tail(axpy, y.reshape(-1)[body:], x.reshape(-1)[body:], alpha, _state["block"])
    return True


def _address(a: np.ndarray) -> int:
    """The address of a C-contiguous array's first element. NOTE: through ctypes' buffer protocol where the array
    is writable and not empty (~1 us; ``ndarray.ctypes.data`` builds a ``_ctypes`` object, ~3-4 us, which at 200
    elements cost a daxpy call more than its arithmetic)."""
    if a.flags.writeable and a.size:
        return ctypes.addressof(ctypes.c_char.from_buffer(a))
    return a.ctypes.data
