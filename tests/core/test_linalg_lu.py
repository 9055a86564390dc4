"""linalg.lu_factor(_ex), lu, lu_unpack, lu_solve, solve_ex, cholesky_ex, matrix_exp, lstsq and the old torch.lu,
torch.lu_solve, torch.qr, torch.pinverse against torch: values, pivots, infos, dtypes, gradients and errors."""

import warnings

import numpy as np
import pytest

import core
from core import _warn_once
from tests.core.oracle import check, check_error, check_grads

RNG = np.random.default_rng(4)
A = RNG.standard_normal((4, 4))
BATCH = RNG.standard_normal((2, 3, 3))
B = RNG.standard_normal((4, 2))
TALL = RNG.standard_normal((6, 3))
SPD = A @ A.T + 4 * np.eye(4)


@pytest.mark.parametrize("fn", [
    lambda lib, a, b, t: lib.linalg.lu_factor(a),
    lambda lib, a, b, t: lib.linalg.lu_factor_ex(a.float()),
    lambda lib, a, b, t: lib.linalg.lu_factor(t),
    lambda lib, a, b, t: lib.linalg.lu_factor(t.mT),
    lambda lib, a, b, t: lib.linalg.lu(a),
    lambda lib, a, b, t: lib.linalg.lu(t),
    lambda lib, a, b, t: lib.lu_unpack(*lib.linalg.lu_factor(t.mT)),
    lambda lib, a, b, t: lib.linalg.lu_factor_ex(lib.zeros(3, 3, dtype=lib.float64)),
    lambda lib, a, b, t: lib.linalg.solve_ex(a, b),
    lambda lib, a, b, t: lib.linalg.solve_ex(a, b[:, 0]),
    lambda lib, a, b, t: lib.linalg.solve_ex(a, b.mT, left=False),
    lambda lib, a, b, t: lib.linalg.cholesky_ex(a @ a.mT + 4 * lib.eye(4, dtype=a.dtype)),
    lambda lib, a, b, t: lib.linalg.cholesky_ex(a @ a.mT + lib.eye(4, dtype=a.dtype), upper=True),
    lambda lib, a, b, t: lib.linalg.cholesky_ex(lib.diag(lib.tensor([1.0, 2.0, -1.0]))).info,
    lambda lib, a, b, t: lib.linalg.matrix_exp(a),
    lambda lib, a, b, t: lib.linalg.matrix_exp(a.float() * 0.01),
    lambda lib, a, b, t: lib.matrix_exp(10 * a),
    lambda lib, a, b, t: lib.linalg.lstsq(t, b[:, :1].repeat(2, 1)[:6]),
    lambda lib, a, b, t: lib.linalg.lstsq(t, b.repeat(2, 1)[:6], driver="gelsd"),
    lambda lib, a, b, t: lib.linalg.lstsq(t, b.repeat(2, 1)[:6, 0], driver="gelss"),
    lambda lib, a, b, t: lib.linalg.lstsq(t.mT, b[:3], driver="gels"),
    lambda lib, a, b, t: lib.pinverse(t),
    lambda lib, a, b, t: a.matrix_exp(),
])
def test_lu_family_matches_torch(torch, fn):
    check(fn, [A, B, TALL], torch, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("fn", [
    lambda lib, a, b: lib.linalg.lu_factor(a).LU,
    lambda lib, a, b: lib.linalg.lu(a).L,
    lambda lib, a, b: lib.linalg.lu(a).U,
    lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b),
    lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b, adjoint=True),
    lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b.mT, left=False),
    lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(a), b.mT, left=False, adjoint=True),
    lambda lib, a, b: lib.linalg.solve_ex(a, b).result,
    lambda lib, a, b: lib.linalg.matrix_exp(a),
    lambda lib, a, b: lib.linalg.matrix_exp(0.1 * a),
    lambda lib, a, b: lib.linalg.lstsq(a[:, :3], b).solution,
])
def test_lu_family_has_torch_gradients(torch, fn):
    check_grads(fn, [A, B], torch, rtol=1e-6, atol=1e-8)


def test_lu_factor_works_on_batches_like_torch(torch):
    check(lambda lib, a: lib.linalg.lu_factor_ex(a), [BATCH], torch, rtol=1e-6, atol=1e-8)
    check_grads(lambda lib, a: lib.linalg.lu_factor(a).LU, [BATCH], torch, rtol=1e-6, atol=1e-8)


def test_legacy_lu_warns_and_returns_torch_factors(torch):
    with pytest.warns(UserWarning, match="torch.lu is deprecated"):
        ours = core.lu(core.tensor(A), get_infos=True)
    theirs = torch.linalg.lu_factor_ex(torch.tensor(A))
    np.testing.assert_allclose(ours[0].numpy(), theirs.LU.numpy(), rtol=1e-6, atol=1e-8)
    assert ours[1].tolist() == theirs.pivots.tolist() and int(ours[2]) == 0
    with pytest.warns(UserWarning, match="torch.lu_solve is deprecated"):
        check(lambda lib, a, b: lib.lu_solve(b, *lib.linalg.lu_factor(a)), [A, B], torch, rtol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda lib, t: lib.qr(t),
    lambda lib, t: lib.qr(t, some=False),
    lambda lib, t: t.qr(),
])
def test_legacy_qr_warns_and_matches_torch(torch, fn, monkeypatch):
    monkeypatch.setattr(_warn_once, "_warned", set())  # torch warns once per process: here a fresh one
    with pytest.warns(UserWarning, match="torch.qr is deprecated in favor of torch.linalg.qr"):
        ours = fn(core, core.tensor(TALL))
    with warnings.catch_warnings():  # torch warns once per process
        warnings.simplefilter("ignore")
        theirs = fn(torch, torch.tensor(TALL))
    assert type(ours).__name__ == "qr" and repr(ours).startswith("torch.return_types.qr(")
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(np.abs(o.numpy()), np.abs(t.numpy()), rtol=1e-6, atol=1e-8)


def test_singular_input_reports_info_like_torch(torch):
    check(lambda lib, b: lib.linalg.solve_ex(lib.zeros(2, 2, dtype=lib.float64), b[:2, 0]).info, [B], torch)
    check(lambda lib, a: lib.linalg.cholesky_ex(-a @ a.mT).info, [A], torch)


@pytest.mark.parametrize(("fn", "match"), [
    (lambda lib, a: lib.linalg.lu_factor(lib.zeros(2, 2, dtype=lib.float64)), r"U\[1,1\] is zero"),
    (lambda lib, a: lib.linalg.solve_ex(lib.zeros(2, 2, dtype=lib.float64), a[:2, 0], check_errors=True),
     "input matrix is singular"),
    (lambda lib, a: lib.linalg.cholesky_ex(-lib.eye(3), check_errors=True), "leading minor of order 1"),
    (lambda lib, a: lib.linalg.lu_factor(a[0]), "at least 2 dimensions"),
    (lambda lib, a: lib.linalg.matrix_exp(a[:, :3]), None),
    (lambda lib, a: lib.linalg.lstsq(a, a, driver="foo"), "driver"),
])
def test_lu_family_refuses_what_torch_refuses(torch, fn, match):
    check_error(fn, [A], torch, match=match)
