"""The products of rows as PyTorch's CPU ``prod`` kernel multiplies them, for float16/32/64 and bfloat16.

``prod`` is ``binary_kernel_reduce_vec`` built for AVX2 (32-byte vectors: ``LANES`` elements of each dtype): over
a contiguous row it keeps four vector accumulators, multiplies each block of ``4 * LANES`` elements into them,
then multiplies the accumulators as ``(a0 * a1) * (a2 * a3)``, the result's lanes left to right, and the last
``n % (4 * LANES)`` elements one by one; every product is rounded to the row's dtype (a half type's vector
multiply rounds each product to the half type). NumPy's ``prod`` multiplies left to right: 60 of 64 float32
row products of 300 elements differed in the last bit.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

__all__ = ["LANES", "row_products"]

LANES = {np.dtype(np.float64): 4, np.dtype(np.float32): 8, np.dtype(np.float16): 16,
         np.dtype(ml_dtypes.bfloat16): 16}
GRAIN = 32768  # elements above which one product over everything is split among PyTorch's threads


def row_products(x: np.ndarray) -> np.ndarray:
    """The product of each row of a 2-d array (its last axis), as the kernel multiplies a contiguous row."""
    lanes = LANES[x.dtype]
    block, n = 4 * lanes, x.shape[-1]
    count = n // block
    out = np.ones(x.shape[:-1], x.dtype)
    if count:
        if x.dtype.char in "fd":  # NOTE: NumPy's float32/64 multiply.reduce over a middle axis goes block by block
            acc = np.multiply.reduce(x[:, :count * block].reshape(x.shape[0], count, block), axis=1)
        else:  # (a half type's reduce could keep a float32 accumulator: one rounded product per block instead)
            acc = x[:, :block].copy()
            for i in range(1, count):
                acc *= x[:, i * block:(i + 1) * block]
        quarters = [acc[:, j * lanes:(j + 1) * lanes] for j in range(4)]
        acc = (quarters[0] * quarters[1]) * (quarters[2] * quarters[3])
        total = acc[:, 0].copy()
        for j in range(1, lanes):
            total *= acc[:, j]
        out *= total
    for i in range(count * block, n):
        out *= x[:, i]
    return out
