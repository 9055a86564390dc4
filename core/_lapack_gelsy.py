"""LAPACK's ``?gelsy`` (least squares by a complete orthogonal factorisation) on NumPy arrays: ``torch.linalg.lstsq``'s
CPU driver.

PyTorch's CPU ``linalg.lstsq`` defaults to ``gelsy``: it factors A by QR, decides the rank where the triangular
factor's condition estimate passes ``1 / rcond`` (by default ``rcond = eps * max(m, n)``) and returns the
minimum-norm solution at that rank. For a rank-deficient A that is not the pseudo-inverse's solution (which cuts
singular values instead): pykan's spline fits on grids with empty intervals got coefficients where PyTorch gives
zeros. NumPy has no ``gelsy``, so, as ``core._daxpy`` finds ``daxpy``, we call ``LAPACKE_?gelsy`` of the OpenBLAS
NumPy loaded (ILP64: ``lapack_int`` is int64). ``available()`` is False where none is found; ``core.ops.linalg_lu``
then keeps the pseudo-inverse.

NOTE: gelsy's pivot array ``jpvt`` is an input (a nonzero entry fixes that column in its place before the pivoted
columns). PyTorch allocates it without clearing it and reuses it along the batch, so after the first matrix (whose
output permutation is all nonzero) no column pivots: the QR is in column order and the rank stops at the first
column that adds too little (a zero first column gives rank 0 and a zero solution). Its first matrix gets whatever
the memory held (in a fresh process, nonzero: the same). core fixes every column, always. MKL (PyTorch's LAPACK)
and OpenBLAS may round a solution apart in the last bits; the rank and the zeros agree.
"""

from __future__ import annotations

import ctypes

import numpy as np

from core import _blas_threads

__all__ = ["available", "gelsy", "supports"]

_COL_MAJOR = 102
_LETTER = {np.dtype(np.float32): "s", np.dtype(np.float64): "d", np.dtype(np.complex64): "c",
           np.dtype(np.complex128): "z"}
_RCOND = {"s": ctypes.c_float, "c": ctypes.c_float, "d": ctypes.c_double, "z": ctypes.c_double}
_state: dict = {"funcs": None}


def _find() -> dict:
    """``LAPACKE_?gelsy`` of NumPy's OpenBLAS by type letter (none where it is not found)."""
    for lib in _blas_threads.openblas_libraries():
        funcs = {}
        for letter, rcond in _RCOND.items():
            fn = getattr(lib, f"scipy_LAPACKE_{letter}gelsy64_", None) or getattr(lib, f"LAPACKE_{letter}gelsy64_",
                                                                                  None)
            if fn is None:
                break
            fn.restype = ctypes.c_int64
            fn.argtypes = [ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                           ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, rcond, ctypes.c_void_p]
            funcs[letter] = fn
        else:
            return funcs
    return {}


def available() -> bool:
    if _state["funcs"] is None:
        _state["funcs"] = _find()
    return bool(_state["funcs"])


def supports(dtype) -> bool:
    """Whether ``gelsy`` takes arrays of ``dtype`` (float32/64, complex64/128)."""
    return np.dtype(dtype) in _LETTER


def gelsy(a: np.ndarray, b: np.ndarray, rcond: float):
    """``(solution, rank)`` of min ||A X - B|| for each matrix of a batch: ``a`` (..., m, n), ``b`` (..., m, k) of
    one dtype (float32/64, complex64/128) and batch shape; ``solution`` (..., n, k), ``rank`` int64 (...)."""
    if not available():
        raise RuntimeError("LAPACK's gelsy is not available")
    fn = _state["funcs"][_LETTER[a.dtype]]
    m, n = a.shape[-2:]
    k = b.shape[-1]
    batch = a.shape[:-2]
    flat_a = a.reshape((-1, m, n))
    flat_b = b.reshape((-1, m, k))
    rows = max(m, n, 1)
    out = np.zeros((flat_a.shape[0], n, k), a.dtype)
    ranks = np.zeros(flat_a.shape[0], np.int64)
    for i in range(flat_a.shape[0]):
        work_a = np.asfortranarray(flat_a[i]).copy(order="F")
        work_b = np.zeros((rows, k), a.dtype, order="F")
        work_b[:m] = flat_b[i]
        jpvt = np.ones(max(n, 1), np.int64)  # (every column fixed in its place: see the module docstring)
        rank = ctypes.c_int64(0)
        info = _blas_threads.run_single_threaded(
            fn, _COL_MAJOR, m, n, k, work_a.ctypes.data, max(m, 1), work_b.ctypes.data, rows, jpvt.ctypes.data,
            rcond, ctypes.addressof(rank))
        if info < 0:
            raise RuntimeError(f"LAPACKE gelsy: argument {-info} has an illegal value")
        out[i] = work_b[:n]
        ranks[i] = rank.value
    return out.reshape(batch + (n, k)), ranks.reshape(batch)
