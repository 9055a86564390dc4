"""Matrix products over K = 1 (outer products written as ``mm``): torch's signs of zero, which NumPy's BLAS does not
keep. ``core.ops.linalg``'s ``Mm`` and its no-grad matmul path ask ``_signed_outer`` before their GEMM routes."""

from __future__ import annotations

import numpy as np

from core._small_gemm import mkl_gemm


def _signed_outer(x, y):
    """``x @ y`` for 2-d float NumPy operands over K = 1 with more than one row and column (a batch-of-one Linear's
    weight gradient, ``g.T @ x``), else None: torch's mm (MKL's GEMM, beta = 0) writes each product itself, so a -0.0
    product (a negative input times a ReLU's zero gradient) stays -0.0, where NumPy's BLAS adds it to +0.0.

    NOTE: measured against torch 2.13 (float32 and float64, either operand contiguous or transposed, 2x2 to 200x300):
    every element the signed product. With one row or one column (MKL's gemv) torch's zeros are NumPy's, and its bmm
    of outer products gives +0.0 (a per-sample gradient under vmap): neither comes here."""
    if x.shape[1] != 1 or x.shape[0] < 2 or y.shape[1] < 2 or type(x) is not np.ndarray or type(y) is not np.ndarray \
            or x.dtype is not y.dtype or x.dtype not in _FLOATS or y.shape[0] != 1:
        return None
    return np.multiply(x, y)


def _mm_gemm(x, y):
    """An mm's product in torch's order: ``_signed_outer`` over K = 1, else ``mkl_gemm`` (None where not known)."""
    out = _signed_outer(x, y)
    return mkl_gemm(x, y) if out is None else out


_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
