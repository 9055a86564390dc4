"""Float32 LU, det and slogdet as PyTorch's CPU kernels round them, for matrices MKL factors unblocked (5 to 16
wide: bit for bit; 3 and 4 wide mostly): the column scaled by the pivot's reciprocal, the trailing update as fused
multiply-adds (on an AMD CPU, as MKL there: each product rounded, then subtracted), and det and slogdet from the
LU of A^T (LAPACK reads the row-major matrix as column-major) with U's diagonal multiplied, or its logs added, in
order. Glow-style flows (WaveGlow's invertible 1x1 convolutions) add ``logdet(W)`` to their loss once per flow and
step."""

import numpy as np
import pytest

import core
from tests.core.oracle import to_numpy

RNG = np.random.default_rng(0)


def _both(fn, a, torch):
    return [to_numpy(fn(lib, lib.tensor(a))) for lib in (core, torch)]


@pytest.mark.parametrize("n", [5, 8, 12, 16])
def test_float32_lu_factor_det_and_slogdet_are_torchs_bits(torch, n):
    for _trial in range(5):
        a = RNG.standard_normal((3, n, n)).astype(np.float32)
        fns = (lambda lib, x: lib.linalg.lu_factor(x).LU, lambda lib, x: lib.linalg.det(x),
               lambda lib, x: lib.linalg.slogdet(x).logabsdet, lambda lib, x: lib.linalg.slogdet(x).sign,
               lambda lib, x: lib.logdet(x.abs() + n * lib.eye(n)))  # a positive determinant
        for fn in fns:
            ours, theirs = _both(fn, a, torch)
            assert np.array_equal(ours, theirs)  # (logs: MKL's vector log, core._mkl_vml's on an AMD CPU)


@pytest.mark.parametrize("n", [2, 3, 4, 20])
def test_other_sizes_agree_to_rounding(torch, n):
    a = RNG.standard_normal((4, n, n)).astype(np.float32)
    for fn in (lambda lib, x: lib.linalg.det(x), lambda lib, x: lib.linalg.slogdet(x).logabsdet):
        ours, theirs = _both(fn, a, torch)
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_det_gradient_and_float64_are_unchanged(torch):
    a = RNG.standard_normal((6, 6))
    for dtype in (np.float32, np.float64):
        grads = []
        for lib in (core, torch):
            x = lib.tensor(a.astype(dtype), requires_grad=True)
            lib.linalg.det(x).backward()
            grads.append(to_numpy(x.grad))
        np.testing.assert_allclose(grads[0], grads[1], rtol=1e-4 if dtype == np.float32 else 1e-10)
