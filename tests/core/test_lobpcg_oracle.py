"""``core.lobpcg`` against ``torch.lobpcg``: eigenvalues, eigenvector subspaces, gradients, trackers and errors."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import core
from tests.core.oracle import raised, to_numpy


def spd(m, seed, batch=()):
    """A symmetric positive definite matrix (float64) whose 4 smallest and 4 largest eigenvalues stand apart
    (1..4 and 40..70 around a cluster at 20..), so that lobpcg converges in a few dozen steps."""
    q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal(batch + (m, m)))
    eigenvalues = np.concatenate([[1, 2, 3, 4], 20 + np.arange(m - 8), [40, 50, 60, 70]])
    return (q * eigenvalues) @ np.swapaxes(q, -1, -2)


def both(torch, seed, fn):
    """``fn(lib)`` for core and torch after the same ``manual_seed`` (lobpcg's random start is randn)."""
    results = []
    for lib in (core, torch):
        lib.manual_seed(seed)
        results.append(fn(lib))
    return results


def assert_same_eigenpairs(ours, theirs, rtol):
    (E1, X1), (E2, X2) = ours, theirs
    assert str(E1.dtype).split(".")[-1] == str(E2.dtype).split(".")[-1]
    assert tuple(E1.shape) == tuple(E2.shape) and tuple(X1.shape) == tuple(X2.shape)
    scale = np.abs(to_numpy(E2)).max()
    np.testing.assert_allclose(to_numpy(E1), to_numpy(E2), rtol=0, atol=rtol * scale)
    # eigenvectors are unique up to sign: compare the projectors onto their spans
    P1, P2 = (to_numpy(X @ X.mT) for X in (X1, X2))
    np.testing.assert_allclose(P1, P2, rtol=0, atol=50 * rtol)


@pytest.mark.parametrize("dtype,rtol", [("float64", 1e-9), ("float32", 1e-4)])
@pytest.mark.parametrize("largest", [True, False, None])
@pytest.mark.parametrize("method", ["ortho", "basic"])
@pytest.mark.parametrize("k", [1, 3])
def test_eigenpairs_equal_torch(torch, dtype, rtol, largest, method, k):
    a = spd(24, k).astype(dtype)
    ours, theirs = both(torch, k, lambda lib: lib.lobpcg(lib.tensor(a), k=k, largest=largest, method=method))
    assert_same_eigenpairs(ours, theirs, rtol)


def test_start_block_wider_than_k_and_given_x_equal_torch(torch):
    a, x = spd(30, 5), np.random.default_rng(6).standard_normal((30, 4))
    ours, theirs = both(torch, 0, lambda lib: lib.lobpcg(lib.tensor(a), k=2, X=lib.tensor(x)))
    assert_same_eigenpairs(ours, theirs, 1e-9)
    ours, theirs = both(torch, 1, lambda lib: lib.lobpcg(lib.tensor(a), k=2, n=4, largest=False))
    assert_same_eigenpairs(ours, theirs, 1e-9)


@pytest.mark.parametrize("method", ["ortho", "basic"])
def test_generalized_problem_with_b_equals_torch(torch, method):
    a, b = spd(21, 7), spd(21, 8) / 21
    ours, theirs = both(torch, 2, lambda lib: lib.lobpcg(lib.tensor(a), k=2, B=lib.tensor(b), method=method))
    assert_same_eigenpairs(ours, theirs, 1e-9)


def test_basic_method_with_a_preconditioner_equals_torch(torch):
    a = spd(18, 9)
    ik = np.diag(1 / np.diag(a))
    ours, theirs = both(torch, 3, lambda lib: lib.lobpcg(lib.tensor(a), k=2, iK=lib.tensor(ik), method="basic",
                                                          largest=False))
    assert_same_eigenpairs(ours, theirs, 1e-9)


def test_batched_matrices_equal_torch(torch):
    a = spd(15, 10, batch=(2, 2))
    ours, theirs = both(torch, 4, lambda lib: lib.lobpcg(lib.tensor(a), k=2))
    assert tuple(ours[0].shape) == (2, 2, 2) and tuple(ours[1].shape) == (2, 2, 15, 2)
    for i in range(2):
        for j in range(2):
            assert_same_eigenpairs((ours[0][i, j], ours[1][i, j]), (theirs[0][i, j], theirs[1][i, j]), 1e-9)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_gradient_of_a_equals_torch(torch, largest, k):
    a = spd(12, 11) + 0.3 * np.random.default_rng(12).standard_normal((12, 12))  # not symmetric: lobpcg symmetrises
    w = np.random.default_rng(13).standard_normal((12, 12))

    def run(lib):
        A = lib.tensor(a, requires_grad=True)
        E, X = lib.lobpcg(A, k=k, largest=largest)
        loss = E.sum() + ((X @ X.mT) * lib.tensor(w)).sum()  # sign-free in the eigenvectors
        loss.backward()
        return E.grad_fn.name(), A.grad

    (name, ours), (torch_name, theirs) = both(torch, 5, run)
    assert name == torch_name
    np.testing.assert_allclose(to_numpy(ours), to_numpy(theirs), rtol=1e-6, atol=1e-6 * np.abs(to_numpy(theirs)).max())
    np.testing.assert_allclose(to_numpy(ours), to_numpy(ours).T)  # symmetric, so A - lr * A.grad stays symmetric


def test_eigenvalue_only_gradient_equals_torch(torch):
    a = spd(9, 14)

    def run(lib):
        A = lib.tensor(a, requires_grad=True)
        E, _ = lib.lobpcg(A, k=2, largest=False)
        (E * lib.tensor([1.0, 3.0], dtype=lib.float64)).sum().backward()
        return A.grad

    ours, theirs = both(torch, 6, run)
    np.testing.assert_allclose(to_numpy(ours), to_numpy(theirs), rtol=1e-7, atol=1e-9)


def test_tracker_sees_each_step_as_torch(torch):
    a = spd(24, 15)

    def run(lib):
        steps = []

        def tracker(worker):
            steps.append((worker.ivars["istep"], worker.ivars["converged_count"], worker.ivars["converged_end"]))

        lib.lobpcg(lib.tensor(a), k=2, tracker=tracker)
        return steps

    ours, theirs = both(torch, 7, run)
    assert ours == theirs and len(ours) > 1


def test_tracker_can_force_stop_and_niter_caps_the_steps(torch):
    a = spd(24, 16)

    def run(lib, **kwargs):
        steps = []

        def tracker(worker):
            steps.append(worker.ivars["istep"])
            if worker.ivars["istep"] == 2 and kwargs.get("stop"):
                worker.bvars["force_stop"] = True

        E, _ = lib.lobpcg(lib.tensor(a), k=2, tracker=tracker, niter=kwargs.get("niter"))
        return steps, to_numpy(E)

    for kwargs in ({"stop": True}, {"niter": 2}):
        (steps, E1), (torch_steps, E2) = both(torch, 8, partial(run, **kwargs))
        assert steps == torch_steps
        np.testing.assert_allclose(E1, E2, rtol=1e-8)


def test_errors_equal_torch(torch):
    a = spd(8, 17)
    for kwargs in ({"k": 3}, {"k": 1, "n": 3}):
        assert raised(partial(core.lobpcg, core.tensor(a), **kwargs)) == raised(
            partial(torch.lobpcg, torch.tensor(a), **kwargs))
    assert raised(partial(core.lobpcg, core.ones(4, 5))) == raised(partial(torch.lobpcg, torch.ones(4, 5)))
    assert raised(partial(core.lobpcg, core.tensor(a), B=core.eye(7, dtype=core.float64))) == raised(
        partial(torch.lobpcg, torch.tensor(a), B=torch.eye(7, dtype=torch.float64)))


def test_backward_with_b_raises_as_torch(torch):
    a, b = spd(9, 18), spd(9, 19)

    def run(lib):
        lib.manual_seed(0)
        A = lib.tensor(a, requires_grad=True)
        E, _ = lib.lobpcg(A, k=1, B=lib.tensor(b))
        return partial(E.sum().backward)

    assert raised(run(core)) == raised(run(torch))


def test_sparse_coo_a_equals_torch(torch):
    a = spd(15, 20)
    ours, theirs = both(torch, 9, lambda lib: lib.lobpcg(lib.tensor(a).to_sparse(), k=2))
    assert_same_eigenpairs(ours, theirs, 1e-9)


def test_ortho_parameters_equal_torch(torch):
    a = spd(24, 21)
    kwargs = {"ortho_iparams": {"ortho_i_max": 2}, "ortho_fparams": {"ortho_tol": 1e-10},
              "ortho_bparams": {"ortho_use_drop": True}}
    ours, theirs = both(torch, 10, lambda lib: lib.lobpcg(lib.tensor(a), k=2, largest=False, **kwargs))
    assert_same_eigenpairs(ours, theirs, 1e-9)
