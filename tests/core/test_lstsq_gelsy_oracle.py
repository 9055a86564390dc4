"""linalg.lstsq's default CPU driver is LAPACK's gelsy, as in PyTorch: a rank-deficient A gets gelsy's rank and its
solution at that rank (QR in column order, the rank decided at the first small diagonal), not the pseudo-inverse's.
pykan fits B-spline coefficients so on grids where some basis functions see no sample: PyTorch gives a zero solution
where the first basis function sees none, core (through the pseudo-inverse) gave values. Full-rank systems agree to
float rounding (MKL and OpenBLAS may differ in the last bits); the gradient is the pseudo-inverse's in both."""

import pytest
import torch

import core


def _batch(lib, dtype):
    """Five 7x4 systems: full rank, a zero first column, a zero third column, a column twice another, a column
    1e-7 of its size. (The full-rank one comes first: PyTorch hands gelsy a pivot array it does not clear, which
    gelsy fills with a permutation for the next batch element; from there on no column pivots.)"""
    gen = lib.Generator().manual_seed(0)
    A = lib.randn(5, 7, 4, generator=gen, dtype=dtype)
    B = lib.randn(5, 7, 2, generator=gen, dtype=dtype)
    A[1, :, 0] = 0
    A[2, :, 2] = 0
    A[3, :, 3] = A[3, :, 1] * 2
    A[4, :, 1] = 1e-7 * A[4, :, 1]
    return A, B


def _low_rank(lib, dtype, m, n, r, k):
    gen = lib.Generator().manual_seed(3)
    A = lib.randn(m, r, generator=gen, dtype=dtype) @ lib.randn(r, n, generator=gen, dtype=dtype)
    return A, lib.randn(m, k, generator=gen, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_rank_deficient_batch_gets_gelsy_rank_and_zeros(dtype):
    ours = core.linalg.lstsq(*_batch(core, getattr(core, dtype)))
    theirs = torch.linalg.lstsq(*_batch(torch, getattr(torch, dtype)))
    assert ours.rank.tolist() == theirs.rank.tolist()
    assert (ours.solution.numpy() == 0).tolist() == (theirs.solution.numpy() == 0).tolist()
    tol = 1e-5 if dtype == "float32" else 1e-10
    assert ours.solution.numpy().flatten().tolist() == pytest.approx(theirs.solution.numpy().flatten().tolist(),
                                                                     rel=tol, abs=tol)


@pytest.mark.parametrize("shape", [(6, 5, 2, 1), (5, 7, 3, 2), (8, 8, 4, 3), (4, 6, 4, 1)])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_low_rank_matrices_get_gelsy_rank_and_minimum_norm_solution(shape, dtype):
    ours = core.linalg.lstsq(*_low_rank(core, getattr(core, dtype), *shape))
    theirs = torch.linalg.lstsq(*_low_rank(torch, getattr(torch, dtype), *shape))
    assert ours.rank.item() == theirs.rank.item()
    tol = 1e-4 if dtype == "float32" else 1e-10
    assert ours.solution.numpy().flatten().tolist() == pytest.approx(theirs.solution.numpy().flatten().tolist(),
                                                                     rel=tol, abs=tol)


@pytest.mark.parametrize("driver", [None, "gelsy", "gelsd", "gelss", "gels"])
def test_full_rank_batch_and_gradient(driver):
    def run(lib):
        gen = lib.Generator().manual_seed(7)
        A = lib.randn(2, 7, 4, generator=gen, dtype=lib.float64).requires_grad_(True)
        B = lib.randn(2, 7, 2, generator=gen, dtype=lib.float64).requires_grad_(True)
        result = lib.linalg.lstsq(A, B, driver=driver)
        result.solution.pow(2).sum().backward()
        return result.solution.detach().numpy(), result.rank.numpy(), A.grad.numpy(), B.grad.numpy()

    for ours, theirs in zip(run(core), run(torch)):
        assert ours.flatten().tolist() == pytest.approx(theirs.flatten().tolist(), rel=1e-10, abs=1e-12)


def test_explicit_rcond_decides_the_rank():
    def run(lib):
        A, B = _low_rank(lib, lib.float64, 6, 5, 5, 1)
        A[:, 4] = A[:, 3] * (1 + 1e-9)
        return lib.linalg.lstsq(A, B, rcond=1e-6)

    ours, theirs = run(core), run(torch)
    assert ours.rank.item() == theirs.rank.item() == 4
    assert ours.solution.numpy() == pytest.approx(theirs.solution.numpy(), rel=1e-8, abs=1e-10)
