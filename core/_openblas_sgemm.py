"""NumPy's OpenBLAS ``cblas_sgemm`` called directly, so that ``core._openblas_chains`` adds its blocks of k inside
the GEMM: ``c += a[:, s:e] @ b[s:e]`` for each block, into one kept buffer, with the operands' strides as leading
dimensions and their transposes as flags (no copies, no product arrays, no separate adds).

Why the bits are NumPy's: OpenBLAS's Haswell kernel (``sgemm_kernel_8x4_haswell_2.c``) ends every tile with
``vfmadd213ps (C), alpha, acc``, i.e. ``acc * alpha + C`` rounded once. With alpha = 1 that is ``C + acc``, the
value NumPy's ``acc += part`` gave; with beta = 0 OpenBLAS first zeroes C (its beta operation) and the tile adds
``acc`` to +0, which is ``acc`` (an accumulator started at +0 is never -0), the value of NumPy's own product (NumPy
calls the same ``cblas_sgemm`` with beta = 0). The blocks here are at most 192 k long, under OpenBLAS's k-panel, so
each call is one pass of the kernel as NumPy's was. ``core._openblas_chains.chains_hold()`` checks the result
against the exact chains once a process, so a BLAS that behaves otherwise keeps NumPy's GEMM.

NOTE: the hot path of a Linear's products on the AMD Zen 3 (a 784-input layer's forward is five calls, one a block
of k): the symbol is looked up once, the argument types are set once, each call passes plain Python ints, and the
kept buffers' addresses are read through ctypes (a call ~2.5 µs, against ~1.5 for NumPy's whole small matmul).
"""

from __future__ import annotations

import ctypes

from core import _blas_threads

__all__ = ["available", "add_blocks"]

# only the ILP64 names, whose integer width (int64) is certain from the name (NumPy's wheels: scipy_openblas64)
_SYMBOLS = ("scipy_cblas_sgemm64_", "cblas_sgemm64_")
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_F32 = 4  # bytes of a float32
_state: dict = {"ready": False, "sgemm": None}


def _find():
    """``cblas_sgemm`` of NumPy's OpenBLAS with its argument types set, or None."""
    i32, i64, f32, ptr = ctypes.c_int, ctypes.c_int64, ctypes.c_float, ctypes.c_void_p
    for lib in _blas_threads.openblas_libraries():
        for name in _SYMBOLS:
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = None
                fn.argtypes = [i32, i32, i32, i64, i64, i64, f32, ptr, i64, ptr, i64, f32, ptr, i64]
                return fn
    return None


def available() -> bool:
    """True when NumPy's OpenBLAS exposes an ILP64 ``cblas_sgemm`` (found once)."""
    if not _state["ready"]:
        _state["sgemm"], _state["ready"] = _find(), True
    return _state["sgemm"] is not None


def _layout(p, k_axis: int):
    """(transpose flag, leading dimension, bytes from one k to the next) of a 2-d float32 view for a row-major
    ``cblas_sgemm``, ``k_axis`` its axis of k (1 for ``a``, 0 for ``b``); None where neither axis is unit-stride."""
    s0, s1 = p.strides
    if s1 == _F32 and s0 >= _F32 * max(1, p.shape[1]) and s0 % _F32 == 0:
        return _NO_TRANS, s0 // _F32, (_F32 if k_axis == 1 else s0)
    if s0 == _F32 and s1 >= _F32 * max(1, p.shape[0]) and s1 % _F32 == 0:
        return _TRANS, s1 // _F32, (s1 if k_axis == 1 else _F32)
    return None


def _address(p) -> int:
    """The address of a float32 view's first element. NOTE: ``__array_interface__`` builds a dict (~1.5 µs); a
    writable C- or F-contiguous array (the kept buffers here) is read through ctypes' view of its buffer (~0.5 µs)."""
    if p.flags.writeable and p.size:
        if p.flags.c_contiguous:
            return _addressof(_char_over(p))
        if p.flags.f_contiguous:
            return _addressof(_char_over(p.T))
    return p.__array_interface__["data"][0]


_addressof, _char_over = ctypes.addressof, ctypes.c_char.from_buffer


def add_blocks(a, b, c, blocks, beta: float) -> bool:
    """For each block ``(start, stop)`` of k in order: ``c = a[:, start:stop] @ b[start:stop] + beta c`` (beta for
    the first block, 1 for the rest), on the calling thread's BLAS settings. ``a`` (M, K), ``b`` (K, N) float32 views
    with a unit stride on one axis, ``c`` (M, N) a writable float32 array with contiguous rows that does not overlap
    them. False, with nothing done, where the BLAS or a layout does not fit (the caller then takes NumPy's matmul)."""
    sgemm = _state["sgemm"]
    if sgemm is None and (_state["ready"] or not available()):
        return False
    sgemm = _state["sgemm"]
    la, lb = _layout(a, 1), _layout(b, 0)
    if la is None or lb is None or c.strides[1] != _F32 or not c.flags.writeable:
        return False
    (ta, lda, step_a), (tb, ldb, step_b) = la, lb
    pa, pb, pc, ldc = _address(a), _address(b), _address(c), c.strides[0] // _F32
    m, n = c.shape
    for start, stop in blocks:
        sgemm(_ROW_MAJOR, ta, tb, m, n, stop - start, 1.0, pa + start * step_a, lda, pb + start * step_b, ldb,
              beta, pc, ldc)
        beta = 1.0
    return True
