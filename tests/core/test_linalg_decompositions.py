"""Matrix decompositions against PyTorch: svd, cholesky, eigh, qr, and what builds on them (pinv, cond...)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import core
from tests.core.oracle import check, check_error, check_grads

RNG = np.random.default_rng(1)


def arr(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


# ----- singular values ------------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4), (2, 3, 4)])
def test_svd_matches_torch_up_to_signs_with_gradients(torch, shape):
    check_grads(lambda lib, a: lib.linalg.svdvals(a), [arr(*shape)], torch)
    for part in range(3):  # U * U and Vh * Vh do not depend on the sign of each singular vector
        check_grads(lambda lib, a, p=part: (lambda x: x * x)(lib.linalg.svd(a, full_matrices=False)[p]), [arr(*shape)],
                    torch)
    out = core.linalg.svd(core.tensor(arr(*shape)))
    expected = torch.linalg.svd(torch.tensor(arr(*shape)))
    assert [tuple(t.shape) for t in out] == [tuple(t.shape) for t in expected]
    assert type(core.linalg.svdvals(core.tensor(arr(*shape), requires_grad=True)).grad_fn).__name__ == \
        "LinalgSvdBackward0"


@pytest.mark.parametrize("ord", ["nuc", 2, -2])
@pytest.mark.parametrize(("dim", "keepdim"), [((-2, -1), False), ((0, 2), True)])
def test_spectral_matrix_norms_match_torch(torch, ord, dim, keepdim):
    check_grads(lambda lib, a: lib.linalg.matrix_norm(a, ord, dim, keepdim), [arr(2, 3, 4)], torch)
    check_grads(lambda lib, a: lib.linalg.norm(a, ord), [arr(3, 4)], torch)


def test_legacy_svd_returns_v_like_torch(torch):
    check(lambda lib, a: tuple(x * x for x in lib.svd(a)), [arr(4, 3)], torch)


@pytest.mark.parametrize("fn", [lambda a: core.linalg.svdvals(a),
                                lambda a: (lambda u: u * u)(core.linalg.svd(a, full_matrices=False).U)])
def test_svd_passes_gradcheck_and_gradgradcheck(fn):
    a = core.tensor(arr(4, 3), requires_grad=True)
    assert core.autograd.gradcheck(fn, (a,))
    assert core.autograd.gradgradcheck(fn, (a,))


# ----- cholesky, eigh, pinv, matrix_rank, inv_ex ------------------------------------------------------

def _spd(*shape):
    m = arr(*shape)
    return m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])


@pytest.mark.parametrize(("fn", "array"), [
    (lambda lib, a: lib.linalg.cholesky(a), _spd(3, 3)),
    (lambda lib, a: lib.linalg.cholesky(a, upper=True), _spd(2, 3, 3)),
    (lambda lib, a: lib.linalg.eigvalsh(a), _spd(3, 3)),
    (lambda lib, a: (lambda v: v * v)(lib.linalg.eigh(a).eigenvectors), _spd(2, 3, 3)),
    (lambda lib, a: lib.linalg.eigh(a, UPLO="U").eigenvalues, arr(3, 3)),
    (lambda lib, a: lib.linalg.pinv(a), arr(4, 3)),
    (lambda lib, a: lib.linalg.pinv(a), arr(2, 3, 5)),
])
def test_decompositions_match_torch_with_gradients(torch, fn, array):
    check_grads(fn, [array], torch)


def _with_singular_values(rows, values):
    """A rows x len(values) matrix whose singular values are ``values`` (well apart, so the gradients are stable)."""
    u = np.linalg.qr(arr(rows, len(values)))[0]
    v = np.linalg.qr(arr(len(values), len(values)))[0]
    return (u * np.array(values)) @ v.T


_LOW_RANK = _with_singular_values(4, [3.0, 1.0, 0.05])  # rcond=0.1 drops the third


@pytest.mark.parametrize("fn", [
    lambda lib, a: lib.linalg.pinv(a, rcond=1e-4),  # torch's older overload (Captum's influence tests)
    lambda lib, a: lib.linalg.pinv(a, 0.1),
    lambda lib, a: lib.linalg.pinv(a, lib.tensor(0.1, dtype=a.dtype)),
    lambda lib, a: lib.linalg.pinv(a @ a.mT, 0.1, True),
    lambda lib, a: lib.linalg.pinv(a @ a.mT, rcond=0.1, hermitian=True),
])
def test_pinv_rcond_is_a_relative_tolerance_as_torchs(torch, fn):
    check_grads(fn, [_LOW_RANK], torch)


def test_pinv_rcond_does_not_mix_with_atol_or_rtol_as_torchs(torch):
    for kwargs in ({"rcond": 1e-4, "rtol": 0.1}, {"rcond": 1e-4, "atol": 0.1}):
        check_error(lambda lib, a, kwargs=kwargs: lib.linalg.pinv(a, **kwargs), [_LOW_RANK], torch,
                    match="received an invalid combination of arguments")


def test_matrix_rank_and_inv_ex_match_torch(torch):
    check(lambda lib, a: lib.linalg.matrix_rank(a), [np.array([[1.0, 2.0], [2.0, 4.0]])], torch)
    check(lambda lib, a: lib.linalg.matrix_rank(a), [arr(2, 4, 3)], torch)
    check(lambda lib, a: tuple(lib.linalg.inv_ex(a)), [_spd(3, 3)], torch)


def test_cholesky_of_a_non_positive_definite_matrix_raises_linalg_error(torch):
    check_error(lambda lib, a: lib.linalg.cholesky(a), [-np.eye(3)], torch, match="positive-definite")


@pytest.mark.parametrize("fn", [core.linalg.cholesky, core.linalg.eigvalsh,
                                lambda a: (lambda v: v * v)(core.linalg.eigh(a).eigenvectors)])
def test_symmetric_decompositions_pass_gradcheck_on_symmetric_inputs(fn):
    a = core.tensor(arr(3, 3), requires_grad=True)
    sym = lambda x: fn(x @ x.mT + 3 * core.eye(3, dtype=core.float64))  # noqa: E731 - PyTorch's documented recipe
    assert core.autograd.gradcheck(sym, (a,))
    assert core.autograd.gradgradcheck(sym, (a,))


def _wc(*shape):
    return arr(*shape) + 3 * np.eye(shape[-1])


@pytest.mark.parametrize(("fn", "arrays"), [
    (lambda lib, a: lib.linalg.cond(a), [_wc(3, 3)]),
    (lambda lib, a: lib.linalg.cond(a, -2), [_wc(2, 3, 3)]),
    (lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=True), [_wc(3, 3), arr(3, 2)]),
    (lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=False, left=False), [_wc(3, 3), arr(2, 3)]),
    (lambda lib, a, b: lib.linalg.solve_triangular(a, b, upper=False, unitriangular=True), [_wc(3, 3), arr(3, 2)]),
    (lambda lib, a: lib.linalg.tensorinv(a, ind=2), [_wc(6, 6).reshape(2, 3, 3, 2)]),
    (lambda lib, a, b: lib.linalg.tensorsolve(a, b), [_wc(6, 6).reshape(2, 3, 6), arr(2, 3)]),
    (lambda lib, a, b: lib.linalg.tensorsolve(a, b, dims=(0,)), [_wc(6, 6).reshape(6, 2, 3), arr(2, 3)]),
    (lambda lib, a: lib.linalg.vander(a), [arr(4)]),
    (lambda lib, a: lib.linalg.vander(a, N=2), [arr(2, 3)]),
])
def test_linalg_composites_match_torch_with_gradients(torch, fn, arrays):
    check_grads(fn, arrays, torch)


@pytest.mark.parametrize("p", ["fro", "nuc", 1, -math.inf])
def test_cond_with_matrix_norms_matches_torch(torch, p):
    check(lambda lib, a: lib.linalg.cond(a, p), [_wc(2, 3, 3)], torch)


@pytest.mark.parametrize("fn", [
    lambda lib, a: lib.linalg.det(a), lambda lib, a: lib.linalg.inv(a), lambda lib, a: lib.linalg.svdvals(a),
    lambda lib, a: lib.linalg.cholesky(a), lambda lib, a: lib.linalg.eigh(a), lambda lib, a: lib.linalg.slogdet(a),
    lambda lib, a: lib.linalg.solve(a, a), lambda lib, a: lib.linalg.pinv(a), lambda lib, a: lib.linalg.pinv(a[0]),
])
def test_half_precision_matrix_functions_raise_like_torch(torch, fn):
    check_error(fn, [np.eye(3, dtype=np.float16)], torch)


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (3, 4), (2, 4, 3), (2, 3, 5)])
def test_qr_matches_torch_with_gradients(torch, shape):
    check_grads(lambda lib, a: lib.linalg.qr(a).Q, [arr(*shape)], torch)
    check_grads(lambda lib, a: lib.linalg.qr(a).R, [arr(*shape)], torch)
    check_grads(lambda lib, a: (lambda q, r: q.sum(-1, keepdim=True) * r.sum(-2, keepdim=True))(*lib.linalg.qr(a)),
                [arr(*shape)], torch)


def test_qr_modes_match_torch(torch):
    check(lambda lib, a: tuple(lib.linalg.qr(a, mode="complete")), [arr(4, 3)], torch)
    check(lambda lib, a: lib.linalg.qr(a, mode="r").R, [arr(4, 3)], torch)
    check_error(lambda lib, a: lib.linalg.qr(a.requires_grad_(), mode="r").R.sum().backward(), [arr(4, 3)], torch,
                match="mode='r'")


@pytest.mark.parametrize("shape", [(4, 3), (3, 5)])
def test_qr_passes_gradcheck_and_gradgradcheck(shape):
    a = core.tensor(arr(*shape), requires_grad=True)
    fn = lambda x: (lambda q, r: q.sum() + (r * r).sum())(*core.linalg.qr(x))  # noqa: E731
    assert core.autograd.gradcheck(fn, (a,))
    assert core.autograd.gradgradcheck(fn, (a,))
