"""``linalg.ldl_factor``, ``ldl_factor_ex`` and ``ldl_solve``: LAPACK's Bunch-Kaufman LDL^T, step for step.

PyTorch calls LAPACK's ``?sytrf`` on the lower triangle, which for matrices up to its block size (64) is the
unblocked ``?sytf2``; this is that algorithm (1x1 and 2x2 pivots chosen with alpha = (1 + sqrt(17)) / 8, the
magnitude of a complex entry being |re| + |im| as LAPACK's ``cabs1``), and ``ldl_solve`` is ``?sytrs``. ``LD``
holds L's multipliers below the diagonal and D on it (a 2x2 block's off-diagonal on the subdiagonal), the upper
triangle zeroed; ``pivots`` are LAPACK's 1-based ``ipiv`` (negative for a 2x2 block). No gradients (PyTorch has
none either). Hermitian complex matrices (``?hetrf``) are not supported.
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype
from core._backend import to_numpy_array
from core._tensor import Tensor, new_tensor
from core.ops.reduction import named_repr, return_types

__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

_ALPHA = (1.0 + math.sqrt(17.0)) / 8.0


def _abs1(x):
    return abs(x.real) + abs(x.imag) if np.iscomplexobj(x) else abs(x)


def _first_max(v) -> int:
    """LAPACK's ``i?amax``: the first index of the largest magnitude."""
    return int(np.argmax(_abs1(v)))


def _sytf2(a):
    """Factor one matrix in place (lower); ``(ipiv, info)``."""
    n = a.shape[0]
    ipiv = np.zeros(n, dtype=np.int32)
    info, k = 0, 0
    while k < n:
        kstep = 1
        absakk = _abs1(a[k, k])
        if k < n - 1:
            imax = k + 1 + _first_max(a[k + 1:, k])
            colmax = _abs1(a[imax, k])
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or math.isnan(absakk):
            if info == 0:
                info = k + 1
            kp = k
        else:
            if absakk >= _ALPHA * colmax:
                kp = k
            else:
                jmax = k + _first_max(a[imax, k:imax])
                rowmax = _abs1(a[imax, jmax])
                if imax < n - 1:
                    jmax = imax + 1 + _first_max(a[imax + 1:, imax])
                    rowmax = max(rowmax, _abs1(a[jmax, imax]))
                if absakk >= _ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif _abs1(a[imax, imax]) >= _ALPHA * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:  # interchange rows and columns kk and kp of the trailing lower triangle
                a[kp + 1:, kk], a[kp + 1:, kp] = a[kp + 1:, kp].copy(), a[kp + 1:, kk].copy()
                tmp = a[kk + 1:kp, kk].copy()
                a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
                a[kp, kk + 1:kp] = tmp
                a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if kstep == 1:
                if k < n - 1:
                    d11 = 1.0 / a[k, k]
                    x = a[k + 1:, k].copy()
                    for j in range(k + 1, n):  # ?syr: the lower triangle of A22 -= d11 x x^T
                        a[j:, j] = a[j:, j] + x[j - k - 1:] * (-d11 * x[j - k - 1])
                    a[k + 1:, k] = x * d11
            elif k < n - 2:
                d21 = a[k + 1, k]
                d11 = a[k + 1, k + 1] / d21
                d22 = a[k, k] / d21
                t = 1.0 / (d11 * d22 - 1.0)
                d21 = t / d21
                for j in range(k + 2, n):
                    wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                    wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                    a[j:, j] = a[j:, j] - a[j:, k] * wk - a[j:, k + 1] * wkp1
                    a[j, k], a[j, k + 1] = wk, wkp1
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return ipiv, info


def _sytrs(a, ipiv, b):
    """Solve L D L^T X = B in place (``?sytrs``, lower)."""
    n = a.shape[0]
    k = 0
    while k < n:  # L D X = B
        if ipiv[k] > 0:
            kp = ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            b[k + 1:] -= np.outer(a[k + 1:, k], b[k])
            b[k] = b[k] / a[k, k]
            k += 1
        else:
            kp = -ipiv[k] - 1
            if kp != k + 1:
                b[[k + 1, kp]] = b[[kp, k + 1]]
            if k < n - 2:
                b[k + 2:] -= np.outer(a[k + 2:, k], b[k])
                b[k + 2:] -= np.outer(a[k + 2:, k + 1], b[k + 1])
            akm1k = a[k + 1, k]
            akm1 = a[k, k] / akm1k
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1.0
            bkm1, bk = b[k] / akm1k, b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T X = B
        if ipiv[k] > 0:
            if k < n - 1:
                b[k] -= a[k + 1:, k] @ b[k + 1:]
            kp = ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            if k < n - 1:
                b[k] -= a[k + 1:, k] @ b[k + 1:]
                b[k - 1] -= a[k + 1:, k - 1] @ b[k + 1:]
            kp = -ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            k -= 2
    return b


class ldl_factor_ex_result(tuple):  # torch.return_types.linalg_ldl_factor_ex
    __slots__ = ()
    LD = property(lambda self: self[0])
    pivots = property(lambda self: self[1])
    info = property(lambda self: self[2])
    __repr__ = __str__ = named_repr("linalg_ldl_factor_ex", ("LD", "pivots", "info"))


class ldl_factor_result(tuple):  # torch.return_types.linalg_ldl_factor
    __slots__ = ()
    LD = property(lambda self: self[0])
    pivots = property(lambda self: self[1])
    __repr__ = __str__ = named_repr("linalg_ldl_factor", ("LD", "pivots"))


return_types.linalg_ldl_factor_ex, return_types.linalg_ldl_factor = ldl_factor_ex_result, ldl_factor_result


def _check(name, A) -> None:
    if not isinstance(A, Tensor):
        raise TypeError(f"{name}(): argument 'A' (position 1) must be Tensor, not {type(A).__name__}")
    if A.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if A.dtype not in (_dtype.float32, _dtype.float64, _dtype.complex64, _dtype.complex128):
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {A.dtype}")


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """``(LD, pivots, info)``: the compact Bunch-Kaufman factorization of the lower triangle of ``A``."""
    _check("torch.linalg.ldl_factor_ex", A)
    if hermitian and A.is_complex():
        raise NotImplementedError("core's ldl_factor has no Hermitian complex factorization (LAPACK's ?hetrf)")
    arr = np.array(to_numpy_array(A.detach()._data), copy=True)
    flat = np.tril(arr.reshape((math.prod(arr.shape[:-2]),) + arr.shape[-2:]))  # (not -1: a 0x0 has no size)
    pivots = np.zeros(flat.shape[:2], dtype=np.int32)
    infos = np.zeros(flat.shape[0], dtype=np.int32)
    for i, mat in enumerate(flat):
        pivots[i], infos[i] = _sytf2(mat)
    if check_errors and infos.any():
        raise RuntimeError(_unknown("torch.linalg.ldl_factor_ex", infos))
    LD = new_tensor(np.tril(flat).reshape(arr.shape)).to(A.device)
    return ldl_factor_ex_result((LD, new_tensor(pivots.reshape(arr.shape[:-1])).to(A.device),
                                 new_tensor(infos.reshape(arr.shape[:-2])).to(A.device)))


def _unknown(name, infos) -> str:
    """PyTorch's words for a zero pivot (its checker has no case for ?sytrf's info > 0)."""
    return (f'false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp":1642, '
            f"please report a bug to PyTorch. {name}: Unknown error code: {int(infos[infos > 0][0])}.")


def ldl_factor(A, *, hermitian=False, out=None):
    _check("torch.linalg.ldl_factor", A)
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    infos = to_numpy_array(info._data).reshape(-1)
    if infos.any():
        raise RuntimeError(_unknown("torch.linalg.ldl_factor", infos))
    return ldl_factor_result((LD, pivots))


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """X with A X = B from ``ldl_factor``'s ``(LD, pivots)`` (``?sytrs``), batched and broadcast."""
    if hermitian and LD.is_complex():
        raise NotImplementedError("core's ldl_solve has no Hermitian complex solve (LAPACK's ?hetrs)")
    ld, piv, b = (to_numpy_array(t.detach()._data) for t in (LD, pivots, B))
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    count = math.prod(batch)  # (not -1 below: a 0x0 matrix has no size to infer it from)
    ld = np.broadcast_to(ld, batch + ld.shape[-2:]).reshape((count,) + ld.shape[-2:])
    piv = np.broadcast_to(piv, batch + piv.shape[-1:]).reshape((count,) + piv.shape[-1:])
    out_shape = batch + b.shape[-2:]
    rhs = np.array(np.broadcast_to(b, out_shape).reshape((count,) + b.shape[-2:]), dtype=np.result_type(ld, b))
    for i in range(rhs.shape[0]):
        _sytrs(ld[i], piv[i], rhs[i])
    return new_tensor(rhs.reshape(out_shape)).to(B.device)
