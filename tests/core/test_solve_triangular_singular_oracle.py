"""A triangular solve with a zero on the diagonal, against PyTorch.

PyTorch's ``linalg.solve_triangular`` (and ``lu_solve``, which ends in one) is BLAS's trsm: it never checks the
diagonal, so a zero there gives inf and nan instead of an error. kornia's RANSAC relies on it: it solves the DLT
system of every minimal sample with ``lu_factor_ex``/``lu_solve`` and drops the models of degenerate samples. core
raised "the input matrix is singular" there.
"""

import numpy as np
import pytest

import core

A = [[1.0, 2.0, 3.0], [0.0, 0.0, 1.0], [0.0, 0.0, 2.0]]
B = [[1.0, 0.0], [1.0, 0.0], [2.0, 4.0]]


def _same(got, expected):
    """The same inf and nan entries; the finite ones to float32 rounding (a batch that holds a singular matrix is
    substituted row by row, trsm's order of operations but not its blocking)."""
    np.testing.assert_allclose(got.detach().numpy(), expected.detach().numpy(), rtol=1e-6, equal_nan=True)
    assert str(got.dtype) == str(expected.dtype) and tuple(got.shape) == tuple(expected.shape)


@pytest.mark.parametrize("form", ["upper", "lower", "right", "unitriangular", "batched"])
def test_zero_diagonal_gives_pytorchs_inf_and_nan(torch, form):
    def run(lib):
        a, b = lib.tensor(A), lib.tensor(B)
        if form == "upper":
            return lib.linalg.solve_triangular(a, b, upper=True)
        if form == "lower":
            return lib.linalg.solve_triangular(a.mT, b, upper=False)
        if form == "right":
            return lib.linalg.solve_triangular(a, b.mT, upper=True, left=False)
        if form == "unitriangular":  # the diagonal is not read: no zero divides
            return lib.linalg.solve_triangular(a, b, upper=True, unitriangular=True)
        return lib.linalg.solve_triangular(lib.stack([a, a + lib.eye(3)]), b, upper=True)

    _same(run(core), run(torch))


def test_lu_solve_of_a_singular_factorisation(torch):
    def run(lib):
        lu, pivots, info = lib.linalg.lu_factor_ex(lib.tensor([[1.0, 2.0], [2.0, 4.0]], dtype=lib.float64))
        return info, lib.linalg.lu_solve(lu, pivots, lib.ones(2, 1, dtype=lib.float64))

    (info_c, x_c), (info_t, x_t) = run(core), run(torch)
    assert info_c.item() == info_t.item()
    _same(x_c, x_t)


def test_gradient_still_flows_where_the_solution_is_finite(torch):
    def run(lib):
        a = lib.tensor([[2.0, 1.0], [0.0, 0.0]], requires_grad=True)
        b = lib.tensor([[0.0], [0.0]], requires_grad=True)
        x = lib.linalg.solve_triangular(a, b, upper=True)
        x[1:].nan_to_num().sum().backward()
        return x, a.grad is not None, b.grad is not None

    (x_c, *flags_c), (x_t, *flags_t) = run(core), run(torch)
    _same(x_c, x_t)
    assert flags_c == flags_t


def test_a_regular_triangular_system_is_unchanged(torch):
    rng = np.random.default_rng(0)
    a = np.triu(rng.standard_normal((4, 4))) + 4 * np.eye(4)
    b = rng.standard_normal((4, 3))
    got = core.linalg.solve_triangular(core.tensor(a), core.tensor(b), upper=True)
    expected = torch.linalg.solve_triangular(torch.tensor(a), torch.tensor(b), upper=True)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)
