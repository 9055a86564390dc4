"""LU with partial pivoting and what builds on it (``lu_factor(_ex)``, ``lu``, ``lu_unpack``, ``lu_solve``,
``solve_ex``), plus ``cholesky_ex``, ``matrix_exp``, ``lstsq`` and the legacy ``torch.qr`` / ``torch.lu``.

The factorisation is LAPACK's ``getrf`` rule (the first largest pivot in each column, 1-based ``int32``
pivots, ``info`` = the first zero pivot) run column by column in NumPy over the whole batch. Its backward
is PyTorch's ``linalg_lu_backward`` (square, wide and tall), written with differentiable core ops; the rest are
composites. ``matrix_exp`` is PyTorch's scheme (``core.ops.matrix_exp``).
"""

from __future__ import annotations

import math

import numpy as np

from core import _cpu, _dtype, _factories, _lapack_gelsy
from core._user_warning import warn_in_core
from core._warn_once import warn_once
from core.autograd.function import Function
from core.ops import lstsq_inf, rearranging
from core.ops._util import new_tensor, xp_of
from core.ops.joining import cat
from core.ops.linalg import matmul
from core.ops.linalg_decomp import cholesky, pinv, qr, solve_triangular
from core.ops.linalg_more import _check_float, _check_square, _LinAlgError, _mH, _mT, solve
from core.ops.reduction import _return_type

__all__ = ["lu_factor", "lu_factor_ex", "lu", "lu_unpack", "lu_solve", "solve_ex", "cholesky_ex", "matrix_exp",
           "lstsq", "legacy_qr", "legacy_lu", "legacy_lu_solve", "pinverse"]

_lu_factor = _return_type("linalg_lu_factor", "LU pivots")
_lu_factor_ex = _return_type("linalg_lu_factor_ex", "LU pivots info")
_lu = _return_type("linalg_lu", "P L U")
_lu_unpack = _return_type("lu_unpack", "P L U")
_solve_ex = _return_type("linalg_solve_ex", "result info")
_cholesky_ex = _return_type("linalg_cholesky_ex", "L info")
_lstsq = _return_type("linalg_lstsq", "solution residuals rank singular_values")
_qr = _return_type("qr", "Q R")


def _getrf(a):
    """Packed LU factors, 1-based pivots and info of a batch of (m, n) arrays (a copy is factorised)."""
    xp = xp_of(a)
    lu = a.copy()
    m, n = lu.shape[-2:]
    k = min(m, n)
    mkl_like = _mkl_like(a)
    fused = mkl_like and _cpu.mkl_fuses()  # NOTE: on an AMD CPU MKL's getf2 rounds the product, then subtracts
    batch = lu.shape[:-2]
    pivots = xp.zeros(batch + (k,), dtype=np.int32)
    info = xp.zeros(batch, dtype=np.int32)
    flat = lu.reshape((math.prod(batch), m, n))  # (not -1: a 0x0 matrix has no size to infer it from)
    rows = xp.arange(flat.shape[0])
    for j in range(k):
        p = j + xp.abs(flat[:, j:, j]).argmax(axis=-1)
        pivots.reshape(-1, k)[:, j] = p + 1
        top, chosen = flat[rows, j].copy(), flat[rows, p].copy()
        flat[rows, p], flat[rows, j] = top, chosen
        pivot = flat[:, j, j]
        zero = pivot == 0
        info.reshape(-1)[...] = xp.where((info.reshape(-1) == 0) & zero, j + 1, info.reshape(-1))
        scale = xp.where(zero, 1, pivot)
        if mkl_like and max(m, n) > 2:  # NOTE: MKL's unblocked getf2 scales by the pivot's reciprocal (2x2: divides)
            flat[:, j + 1:, j] *= (1 / scale)[:, None]
        else:
            flat[:, j + 1:, j] /= scale[:, None]
        if fused and flat.dtype == np.float64:  # fused multiply-adds in double: c - a*b rounded once
            flat[:, j + 1:, j + 1:] = _fms(flat[:, j + 1:, j + 1:], flat[:, j + 1:, j:j + 1], flat[:, j:j + 1, j + 1:])
        elif fused:  # and updates with fused multiply-adds: a float64 product and difference rounded once
            update = flat[:, j + 1:, j:j + 1].astype(np.float64) * flat[:, j:j + 1, j + 1:]
            flat[:, j + 1:, j + 1:] = flat[:, j + 1:, j + 1:] - update
        else:
            flat[:, j + 1:, j + 1:] -= flat[:, j + 1:, j:j + 1] * flat[:, j:j + 1, j + 1:]
    return lu, pivots, info


def _mkl_like(a) -> bool:
    """Whether ``_getrf`` reproduces PyTorch's CPU LU bit for bit: float32 and float64 NumPy matrices up to 16
    wide, which MKL factors unblocked (2 and from 5 to 16 always; sizes 3 and 4 mostly; wider ones go through its
    blocked kernels)."""
    return type(a) is np.ndarray and (a.dtype == np.float32 or a.dtype == np.float64) and 2 <= min(a.shape[-2:]) <= 16


_SPLIT = 134217729.0  # 2**27 + 1: Dekker's split of a double into two halves whose products are exact


def _fms(c, a, b):
    """``c - a * b`` as one fused multiply-add rounds it (double-double arithmetic: the product exact as a sum of two
    doubles by Dekker's split, the difference by Knuth's two-sum; a wrong last bit needs a near-tie, rare)."""
    p = a * b
    t = _SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = _SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl  # a * b = p + e exactly
    diff = c - p
    back = diff - c
    t = (c - (diff - back)) + (-p - back)  # c - p = diff + t exactly
    return diff + (t - e)


def _permutation(pivots, m, xp, dtype):
    """P with A = P L U from LAPACK's row swaps."""
    batch = pivots.shape[:-1]
    perm = xp.broadcast_to(xp.arange(m), batch + (m,)).copy().reshape(-1, m)
    piv = pivots.reshape(-1, pivots.shape[-1]) - 1
    rows = xp.arange(perm.shape[0])
    for i in range(piv.shape[1]):
        a, b = perm[rows, i].copy(), perm[rows, piv[:, i]].copy()
        perm[rows, i], perm[rows, piv[:, i]] = b, a
    eye = xp.eye(m, dtype=dtype)
    return xp.swapaxes(eye[perm], -1, -2).reshape(batch + (m, m))


class LinalgLuFactorEx(Function):
    node_name = "LinalgLuFactorExBackward0"

    @staticmethod
    def forward(ctx, a, *, found):
        lu_arr, pivots, info = _getrf(a._data)
        found.extend((pivots, info))
        ctx.pivots = pivots
        ctx.save_for_backward(new_tensor(lu_arr))
        return lu_arr

    @staticmethod
    def backward(ctx, g):
        # NOTE: PyTorch's lu_factor_ex_backward: gL = tril(g[..., :k], -1), gU = triu(g[..., :k, :]) through its
        # linalg_lu_backward; square: gA = P L^-H (tril(L^H gL, -1) + triu(gU U^H)) U^-H
        (packed,) = ctx._unpacked
        m, n = packed.shape[-2:]
        k = min(m, n)
        _, low, up = lu_unpack(packed, new_tensor(ctx.pivots))
        g_low, g_up = rearranging.tril(g[..., :, :k], -1), rearranging.triu(g[..., :k, :])
        perm = new_tensor(_permutation(ctx.pivots, m, xp_of(g._data), g._data.dtype))
        if m == n:
            phi = rearranging.tril(matmul(_mH(low), g_low), -1) + rearranging.triu(matmul(g_up, _mH(up)))
            x = solve_triangular(_mH(up), phi, upper=False, left=False)
            return matmul(perm, solve_triangular(_mH(low), x, upper=True, unitriangular=True))
        if m < n:  # wide: U = [U1 U2]; A1 = P L U1 is a square LU, A2 = P L U2
            phi = rearranging.tril(matmul(_mH(low), g_low) - matmul(g_up, _mH(up)), -1)
            x = solve_triangular(_mH(up[..., :, :k]), phi, upper=False, left=False)
            x = cat([x + g_up[..., :, :k], g_up[..., :, k:]], -1)
            return matmul(perm, solve_triangular(_mH(low), x, upper=True, unitriangular=True))
        # tall: L = [L1; L2]; A1 = P1 L1 U is a square LU, A2 = L2 U
        phi = rearranging.triu(matmul(g_up, _mH(up)) - matmul(_mH(low), g_low))
        x = solve_triangular(_mH(low[..., :k, :]), phi, upper=True, unitriangular=True)
        x = cat([x + g_low[..., :k, :], g_low[..., k:, :]], -2)
        return matmul(perm, solve_triangular(_mH(up), x, upper=False, left=False))


def _check_matrix(name, A):
    _check_float(name, A)
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")


def lu_factor_ex(A, *, pivot=True, check_errors=False):  # PyTorch's argument name
    """``(LU, pivots, info)``: packed factors of A = P L U, LAPACK's 1-based pivots, the first zero pivot."""
    _check_matrix("torch.linalg.lu_factor_ex", A)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    found = []
    packed = LinalgLuFactorEx.apply(A, found=found)
    pivots, info = (new_tensor(a) for a in found)
    if check_errors and bool((info > 0).any()):
        raise _LinAlgError(f"torch.linalg.lu_factor_ex: U[{int(info.max())},{int(info.max())}] is zero and using it "
                           f"on lu_solve would result in a division by zero.")
    return _lu_factor_ex(packed, pivots, info)


def lu_factor(A, *, pivot=True):
    """``(LU, pivots)``; a singular matrix raises, as in PyTorch."""
    packed, pivots, info = lu_factor_ex(A, pivot=pivot)
    if bool((info > 0).any()):
        k = int(info[info > 0][0]) if info.ndim else int(info)
        raise _LinAlgError(f"torch.linalg.lu_factor: U[{k},{k}] is zero and using it on lu_solve would result in a "
                           f"division by zero. If you still want to perform the factorization, consider calling "
                           f"linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")
    return _lu_factor(packed, pivots)


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` from packed factors: L unit lower (m, k), U upper (k, n), P from the row swaps."""
    m, n = LU_data.shape[-2:]
    k = min(m, n)
    low = up = perm = None
    if unpack_data:
        eye = _factories.eye(m, k, dtype=LU_data.dtype, device=LU_data.device)
        low = rearranging.tril(LU_data[..., :, :k], -1) + eye
        up = rearranging.triu(LU_data[..., :k, :])
    if unpack_pivots:
        perm = new_tensor(_permutation(LU_pivots._data.astype(np.int64), m, xp_of(LU_data._data),
                                       LU_data._data.dtype))
    empty = _factories.empty(0, dtype=LU_data.dtype, device=LU_data.device)
    return _lu_unpack(perm if perm is not None else empty, low if low is not None else empty,
                      up if up is not None else empty)


def lu(A, *, pivot=True):
    """``(P, L, U)`` with A = P L U."""
    _check_matrix("linalg.lu", A)
    packed, pivots, _ = lu_factor_ex(A, pivot=pivot)
    return _lu(*lu_unpack(packed, pivots))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """Solve A X = B (``left``) or X A = B with A = P L U given by ``lu_factor``; ``adjoint`` uses A^T."""
    if not left:
        return _mT(lu_solve(LU, pivots, _mT(B), adjoint=not adjoint))
    perm, low, up = lu_unpack(LU, pivots)
    if adjoint:
        x = solve_triangular(_mT(up), B, upper=False)
        x = solve_triangular(_mT(low), x, upper=True, unitriangular=True)
        return matmul(perm, x)
    x = solve_triangular(low, matmul(_mT(perm), B), upper=False, unitriangular=True)
    return solve_triangular(up, x, upper=True)


def solve_ex(A, B, *, left=True, check_errors=False):
    """``(result, info)``: ``solve`` that reports a singular matrix in ``info`` instead of raising."""
    _check_matrix("linalg.solve_ex", A)
    _check_square("linalg.solve_ex", A)
    info = new_tensor(_getrf(A._data)[2])
    singular = bool((info > 0).any())
    if singular and check_errors:
        raise _LinAlgError("torch.linalg.solve_ex: The solver failed because the input matrix is singular.")
    if not singular:
        return _solve_ex(solve(A, B, left=left), info)
    # NOTE: a singular system has no solution; like LAPACK, substitute anyway (giving inf/nan), with no gradient
    return _solve_ex(new_tensor(_substitute(A.detach(), B.detach(), left)), info)


def _substitute(A, B, left):
    """Solve through the LU factors by plain substitution, dividing by zero pivots (inf/nan) without raising."""
    vector = B.ndim == 1 or (B.ndim == A.ndim - 1 and tuple(B.shape) == tuple(A.shape[:-1]))
    a = np.asarray(A.cpu().numpy())
    b = np.asarray(B.cpu().numpy())
    b = b[..., None] if vector else (b if left else np.swapaxes(b, -1, -2))
    packed, pivots, _ = _getrf(a if left else np.swapaxes(a, -1, -2))
    perm = _permutation(pivots, a.shape[-1], np, a.dtype)
    y = np.swapaxes(perm, -1, -2) @ b
    n = a.shape[-1]
    with np.errstate(all="ignore"):
        for i in range(n):
            y[..., i, :] -= np.einsum("...j,...jk->...k", packed[..., i, :i], y[..., :i, :])
        for i in reversed(range(n)):
            y[..., i, :] -= np.einsum("...j,...jk->...k", packed[..., i, i + 1:], y[..., i + 1:, :])
            y[..., i, :] /= packed[..., i, i:i + 1]
    return y[..., 0] if vector else (y if left else np.swapaxes(y, -1, -2))


def cholesky_ex(A, *, upper=False, check_errors=False):
    """``(L, info)``: ``info`` is the order of the first leading minor that is not positive-definite."""
    _check_matrix("linalg.cholesky_ex", A)
    _check_square("linalg.cholesky_ex", A)
    try:
        return _cholesky_ex(cholesky(A, upper=upper), _factories.zeros(A.shape[:-2], dtype=_dtype.int32))
    except _LinAlgError:
        pass
    info = first_bad_minor(np.asarray(A.detach().cpu().numpy()))
    if check_errors:
        order = int(info[info > 0][0]) if info.ndim else int(info)
        raise _LinAlgError(f"linalg.cholesky_ex: The factorization could not be completed because the input is not "
                           f"positive-definite (the leading minor of order {order} is not positive-definite).")
    # NOTE: where the factorisation failed L holds LAPACK's partial factor, as PyTorch's (pytorch-minimize's
    # trust-exact reads its failed pivot and the row above it); the batch's other matrices get their factor
    a = np.asarray(A.detach().cpu().numpy())
    flat, bad = a.reshape((-1,) + a.shape[-2:]), np.asarray(info).reshape(-1)
    out = np.stack([_partial_cholesky(m, int(k)) for m, k in zip(flat, bad)]) if flat.size else flat.copy()
    L = new_tensor(out.reshape(a.shape)).to(A.device)
    factored = new_tensor(info == 0).to(A.device)
    if info.ndim and bool(factored.any()):
        L[factored] = cholesky(A[factored], upper=False)
    if upper:
        L = L.mH
    return _cholesky_ex(L.contiguous() if upper else L, new_tensor(info).to(A.device))


def _partial_cholesky(m, k: int):
    """LAPACK potrf's lower factor left where the pivot of order ``k`` (1-based) is not positive: the first k - 1
    columns factored, the failed pivot ``a_kk - |l_k|^2`` in place, the rest of the lower triangle as given, zeros
    above (PyTorch zeroes them). ``k`` 0: zeros (the caller puts the factor)."""
    out = np.zeros_like(m)
    if k == 0:
        return out
    out[:] = np.tril(m)
    for c in range(k):  # potf2's columns: the pivot, then the column below it scaled by the pivot's reciprocal
        pivot = m[c, c] - out[c, :c] @ out[c, :c]
        if c == k - 1:
            out[c, c] = pivot
            break
        out[c, c] = pivot = np.sqrt(pivot)
        out[c + 1:, c] = (m[c + 1:, c] - out[c + 1:, :c] @ out[c, :c]) * (1 / pivot)
    return out


def _has_cholesky(mat) -> bool:
    """Whether LAPACK's potrf factors ``mat``: a pivot that is not > 0, NaN included, fails it (NumPy raises, or
    under ``errstate(invalid='ignore')`` returns NaNs)."""
    try:
        factor = np.linalg.cholesky(mat)
    except np.linalg.LinAlgError:
        return False
    return not np.isnan(factor).any()


def first_bad_minor(a) -> np.ndarray:
    """Per matrix of a NumPy batch: the order of the first leading minor with no Cholesky factor (0: none).

    A bisection over the orders (a leading minor's factor is the start of every larger one's, so once one fails all
    larger ones do): log2(n) factorisations, not n (GPyTorch retries ``cholesky_ex`` on 1000x1000 kernels)."""
    flat = a.reshape((-1,) + a.shape[-2:])
    info = np.zeros(flat.shape[0], dtype=np.int32)
    for b, mat in enumerate(flat):
        n = mat.shape[-1]
        if n == 0 or _has_cholesky(mat):
            continue
        good, bad = 0, n  # the largest order known to factor, the smallest known not to
        while bad - good > 1:
            k = (good + bad) // 2
            good, bad = (k, bad) if _has_cholesky(mat[:k, :k]) else (good, k)
        info[b] = bad
    return info.reshape(a.shape[:-2])


def matrix_exp(A):
    """exp(A): PyTorch's optimised Taylor polynomials with scaling and squaring (``core.ops.matrix_exp``)."""
    _check_float("linalg.matrix_exp", A)
    _check_square("linalg.matrix_exp", A)
    if A.numel() == 0:
        return A.clone()
    from core.ops.matrix_exp import MatrixExp

    return MatrixExp.apply(A)


def lstsq(A, B, rcond=None, *, driver=None):
    """``(solution, residuals, rank, singular_values)`` of min ||A X - B||: gelsy's solution and rank for the default
    driver (``_gelsy``), else through the pseudo-inverse.

    As on PyTorch's CPU: ``rank`` for the gelsy/gelsd/gelss drivers, singular values for gelsd/gelss, and
    residuals (squared column norms) when m > n, A has full rank and the driver is not gelsy."""
    _check_matrix("torch.linalg.lstsq", A)
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss), "
                           f"but got {driver}")
    vector = B.ndim == A.ndim - 1
    rhs = B.unsqueeze(-1) if vector else B
    _refuse_nan("torch.linalg.lstsq", A, rhs, driver)
    lstsq_inf.refuse_inf("torch.linalg.lstsq", A, rhs, driver)
    m, n = A.shape[-2:]
    eps = np.finfo(A._data.dtype).eps
    rtol = rcond if rcond is not None else eps * max(m, n)
    solution = matmul(pinv(A, rtol=rtol), rhs)
    s = np.linalg.svd(np.asarray(A.detach().cpu().numpy()), compute_uv=False)
    rank = (s > rtol * s[..., :1]).sum(-1)
    exact = _gelsy(A, rhs, solution, rtol) if driver == "gelsy" and _lapack_gelsy.available() else None
    if exact is not None:
        solution, rank = exact
    from core.nn._fused_names import fused_name, ignored_output  # (core.nn builds on the ops)

    node = "LinalgLstsqBackward0"  # (PyTorch's one node for the solution and residuals, even empty ones)
    empty = _factories.empty(0, dtype=A.dtype.to_real(), device=A.device)  # (residuals, values: real, as torch's)
    if m > n and driver != "gelsy" and bool((rank == n).all()):
        residuals = fused_name((matmul(A, solution) - rhs).abs().square().sum(-2), node)
    else:
        residuals = ignored_output(empty, (A, B), node)
    solution, residuals = lstsq_inf.nan_for_inf_rhs(A, rhs, solution, residuals)
    rank_t = new_tensor(rank.astype(np.int64)) if driver != "gels" else _factories.empty(0, dtype=_dtype.int64)
    values = new_tensor(s.astype(empty._data.dtype)) if driver in ("gelsd", "gelss") else empty
    return _lstsq(fused_name(solution.squeeze(-1) if vector else solution, node), residuals, rank_t, values)


def _gelsy(A, rhs, solution, rcond):
    """``(solution, rank)`` as PyTorch's CPU driver gives them, or None for an empty or non-finite system (the
    pseudo-inverse's stay): LAPACK's gelsy (``core._lapack_gelsy``), whose rank decision and solution at that rank
    differ from the pseudo-inverse's where A is rank-deficient.

    NOTE: the values are gelsy's; the gradient is the pseudo-inverse product's (``solution``), as PyTorch's
    ``linalg_lstsq_backward`` is pinv's: ``(solution - solution.detach()) + values`` is exactly the values."""
    a = np.asarray(A.detach().cpu().numpy())
    b = np.asarray(rhs.detach().cpu().numpy())
    if not (a.size and b.size and np.isfinite(a).all() and np.isfinite(b).all()) or b.dtype != a.dtype \
            or not _lapack_gelsy.supports(a.dtype):
        return None
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    values, rank = _lapack_gelsy.gelsy(np.broadcast_to(a, batch + a.shape[-2:]),
                                       np.broadcast_to(b, batch + b.shape[-2:]), rcond)
    exact = new_tensor(values.astype(a.dtype, copy=False)).to(A.device)
    if solution.requires_grad:
        exact = (solution - solution.detach()) + exact
    rank = rank[(0,) * (len(batch) - (a.ndim - 2))]  # (the rank has A's batch shape: the first of a broadcast B's)
    return exact, rank[tuple(slice(0, 1) if size == 1 else slice(None) for size in a.shape[:-2])]


def _refuse_nan(name, A, rhs, driver) -> None:
    """PyTorch's CPU build hands lstsq to MKL's LAPACK, which refuses a NaN in A (argument 4 of ?gelsy/?gelsd/?gelss,
    5 of ?gels, whose first argument is TRANS) or in B (6, or 7) as an illegal value; PyTorch reports the first batch
    element refused, in its internal assert's words (efficient-kan's grid update fails so in torch)."""
    a = np.asarray(A.detach().cpu().numpy())
    b = np.asarray(rhs.detach().cpu().numpy())
    if not (np.isnan(a).any() or np.isnan(b).any()) or b.ndim > a.ndim or a.shape[-2] != b.shape[-2]:
        return  # (shapes PyTorch refuses first are left to the solve's own checks)
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        return
    a_nan = np.isnan(np.broadcast_to(a, batch + a.shape[-2:])).reshape(-1, a.shape[-2] * a.shape[-1]).any(-1)
    b_nan = np.isnan(np.broadcast_to(b, batch + b.shape[-2:])).reshape(-1, b.shape[-2] * b.shape[-1]).any(-1)
    index = int(np.argmax(a_nan | b_nan))
    argument = (4 if a_nan[index] else 6) + (driver == "gels")
    where = f"(Batch element {index}): " if math.prod(a.shape[:-2]) > 1 else ""  # (PyTorch's infos follow A's batch)
    raise RuntimeError(f'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
                       f'BatchLinearAlgebra.cpp":1613, please report a bug to PyTorch. {name}: {where}Argument '
                       f"{argument} has illegal value. Most certainly there is a bug in the implementation calling "
                       f"the backend library.")


def legacy_qr(input, some=True):
    """``torch.qr``: ``linalg.qr`` with ``some`` choosing the reduced or complete Q; deprecated as in PyTorch."""
    warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
              "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
              "Q, R = torch.qr(A, some)\nshould be replaced with\n"
              "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')")  # (PyTorch's TORCH_WARN_ONCE)
    q, r = qr(input, "reduced" if some else "complete")
    return _qr(q, r)


def legacy_lu(A, pivot=True, get_infos=False, out=None):
    """``torch.lu``: ``(LU, pivots)`` or with ``get_infos`` ``(LU, pivots, infos)``; deprecated as in PyTorch."""
    warn_once("lu", "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
              "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
              "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
              "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
              "torch.linalg.lu_factor_ex(A, compute_pivots)", warn_in_core)  # (TORCH_WARN_ONCE, under torch.functional)
    packed, pivots, info = lu_factor_ex(A, pivot=pivot, check_errors=not get_infos)
    return (packed, pivots, info) if get_infos else (packed, pivots)


def legacy_lu_solve(b, LU_data, LU_pivots):
    """``torch.lu_solve(b, LU, pivots)``: the old argument order of ``linalg.lu_solve``; deprecated as in PyTorch."""
    warn_once("lu_solve", "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
              "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
              "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\n"
              "X = torch.linalg.lu_solve(LU, pivots, B)")  # (PyTorch's TORCH_WARN_ONCE)
    return lu_solve(LU_data, LU_pivots, b)


def pinverse(input, rcond=1e-15):
    """``torch.pinverse``: ``linalg.pinv`` with ``rcond`` as its relative tolerance."""
    return pinv(input, rtol=rcond)
