"""linalg.matrix_exp of a complex matrix scales it by the norm of its entries' moduli, as a scaling-and-squaring
method needs: core took the real parts' norm (NumPy dropped the imaginary parts with a ComplexWarning), squared too
few times, and a matrix with large imaginary entries came out 1e-9 away from torch's in double precision."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

RNG = np.random.default_rng(6)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_matrix_exp_of_mostly_imaginary_matrix_matches_torch(dtype, torch):
    a = (RNG.standard_normal((4, 4)) * 0.2 + 3j * RNG.standard_normal((4, 4))).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        ours = core.linalg.matrix_exp(core.tensor(a))
    theirs = torch.linalg.matrix_exp(torch.tensor(a))
    assert_same(ours, theirs, rtol=1e-12 if dtype == "complex128" else 1e-5, atol=1e-13 if dtype == "complex128"
                else 1e-5)
