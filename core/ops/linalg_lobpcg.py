"""``torch.lobpcg``: a few extreme eigenpairs of a symmetric (generalized) eigenproblem, as PyTorch's ``_lobpcg.py``.

Locally Optimal Block Preconditioned Conjugate Gradient (Knyazev 2001) with the robust variant of Duersch et
al. 2018 (``method="ortho"``, the default) or the basic one (``method="basic"``). The iteration is PyTorch's step
for step, written with core's ops: the random start ``X`` comes from ``core.randn`` (PyTorch's numbers after the
same ``manual_seed``), so eigenvalues agree with PyTorch's to rounding and eigenvectors span the same subspaces.
When ``A`` needs a gradient, ``A`` is symmetrised and the eigenpairs go through ``LOBPCGAutogradFunction``, whose
backward is PyTorch's symmetric eigenproblem backward (``core/ops/linalg_lobpcg_backward.py``).
"""

from __future__ import annotations

import core
from core.autograd.function import Function
from core.ops.linalg_lobpcg_backward import symeig_backward

__all__ = ["lobpcg"]

_EPS = {"float32": 1.2e-07, "float64": 2.23e-16}


def _matmul(A, B):
    """``A @ B`` where a missing ``A`` (or ``B`` matrix of the problem) is the identity; sparse ``A`` allowed."""
    if A is None:
        return B
    return core.sparse.mm(A, B) if A.is_sparse else core.matmul(A, B)


def _qform(A, S):
    """``S^T A S``."""
    return core.matmul(S.mT, _matmul(A, S))


def _symeig(A, largest=False):
    """Eigenpairs of symmetric ``A`` (upper triangle), largest first when ``largest``."""
    E, Z = core.linalg.eigh(A, UPLO="U")
    return (core.flip(E, dims=(-1,)), core.flip(Z, dims=(-1,))) if largest else (E, Z)


def _floating_dtype(A):
    return A.dtype if A.dtype in (core.float16, core.float32, core.float64) else core.float32


class LOBPCG:
    """One run of the iteration: the worker a ``tracker`` receives after every step (as PyTorch's).

    ``X``/``E`` hold the current eigenvector and eigenvalue approximations, ``R`` the residuals, ``S`` the
    search basis; ``ivars``/``fvars``/``bvars``/``tvars`` the iteration's counters, norms, flags and tensors
    (a tracker may set ``bvars["force_stop"] = True``).
    """

    def __init__(self, A, B, X, iK, iparams, fparams, bparams, method, tracker):
        self.A, self.B, self.iK = A, B, iK
        self.iparams, self.fparams, self.bparams = iparams, fparams, bparams
        self.method, self.tracker = method, tracker
        m, n = iparams["m"], iparams["n"]
        self.X = X
        self.E = core.zeros((n,), dtype=X.dtype, device=X.device)
        self.R = core.zeros((m, n), dtype=X.dtype, device=X.device)
        self.S = core.zeros((m, 3 * n), dtype=X.dtype, device=X.device)
        self.tvars, self.ivars, self.fvars, self.bvars = {}, {"istep": 0}, {"_": 0.0}, {"_": False}

    def __str__(self):
        names = ("iparams", "fparams", "bparams", "ivars", "fvars", "bvars", "tvars", "A", "B", "iK", "X", "E")
        return "LOBPCG:\n" + "".join(f"  {name}={getattr(self, name)}\n" for name in names)

    def update(self):
        """One step: the norms on the first, then the ortho or basic update."""
        if self.ivars["istep"] == 0:
            X_norm = float(core.norm(self.X))
            self.fvars["X_norm"] = X_norm
            self.fvars["A_norm"] = float(core.norm(_matmul(self.A, self.X))) / X_norm
            self.fvars["B_norm"] = float(core.norm(_matmul(self.B, self.X))) / X_norm
            self.ivars["iterations_left"] = self.iparams["niter"]
            self.ivars["converged_count"] = 0
            self.ivars["converged_end"] = 0
        self._update_ortho() if self.method == "ortho" else self._update_basic()
        self.ivars["iterations_left"] -= 1
        self.ivars["istep"] += 1

    def update_residual(self):
        self.R = _matmul(self.A, self.X) - _matmul(self.B, self.X) * self.E

    def update_converged_count(self):
        """The leading eigenpairs whose backward-stable relative residual is below ``tol`` (Duersch 4.3)."""
        A_norm, B_norm = self.fvars["A_norm"], self.fvars["B_norm"]
        E, X, R = self.E, self.X, self.R
        rerr = core.linalg.vector_norm(R, 2, (0,)) / (
            core.linalg.vector_norm(X, 2, (0,)) * (A_norm + core.abs(E[: X.shape[-1]]) * B_norm))
        count = 0
        for converged in (rerr < self.fparams["tol"]).tolist():
            if not converged:
                break
            count += 1
        if count < self.ivars["converged_count"]:
            raise AssertionError(f"the number of converged eigenpairs (was {self.ivars['converged_count']}, "
                                 f"got {count}) cannot decrease")
        self.ivars["converged_count"] = count
        self.tvars["rerr"] = rerr
        return count

    def stop_iteration(self):
        return (self.bvars.get("force_stop", False) or self.ivars["iterations_left"] == 0
                or self.ivars["converged_count"] >= self.iparams["k"])

    def run(self):
        self.update()
        if self.tracker is not None:
            self.tracker(self)
        while not self.stop_iteration():
            self.update()
            if self.tracker is not None:
                self.tracker(self)

    def _first_step(self, replace_x: bool):
        """Rayleigh-Ritz on the start ``X``, then ``S = [X, W]`` with ``W`` from the residuals."""
        n, largest = self.iparams["n"], self.bparams["largest"]
        Ri = self._get_rayleigh_ritz_transform(self.X)
        E, Z = _symeig(_qform(_qform(self.A, self.X), Ri), largest)
        if replace_x:  # ortho: X is replaced, E stays 0 until the next step (as PyTorch's)
            self.X = core.matmul(self.X, core.matmul(Ri, Z))
        else:
            self.X[:] = core.matmul(self.X, core.matmul(Ri, Z))
            self.E[:] = E
        self.update_residual()
        self.update_converged_count()
        self.S[:, :n] = self.X
        W = self._get_ortho(self.R, self.X) if replace_x else _matmul(self.iK, self.R)
        self.ivars["converged_end"] = ns = n + W.shape[-1]
        self.S[:, n:ns] = W

    def _next_basis(self, P, W_of):
        """``S = [X, P, W]`` after the eigenpairs of a step are set."""
        n, np_ = self.iparams["n"], P.shape[-1]
        self.update_residual()
        nc = self.update_converged_count()
        self.S[:, :n] = self.X
        self.S[:, n : n + np_] = P
        W = W_of(nc, np_)
        self.ivars["converged_end"] = ns = n + np_ + W.shape[-1]
        self.S[:, n + np_ : ns] = W

    def _update_basic(self):
        if self.ivars["istep"] == 0:
            return self._first_step(replace_x=False)
        ns, nc, n = self.ivars["converged_end"], self.ivars["converged_count"], self.iparams["n"]
        S_ = self.S[:, nc:ns]
        Ri = self._get_rayleigh_ritz_transform(S_)
        E_, Z = _symeig(_qform(_qform(self.A, S_), Ri), self.bparams["largest"])
        self.X[:, nc:] = core.matmul(S_, core.matmul(Ri, Z[:, : n - nc]))
        self.E[nc:] = E_[: n - nc]
        P = core.matmul(S_, core.matmul(Ri, Z[:, n : 2 * n - nc]))
        self._next_basis(P, lambda nc, np_: _matmul(self.iK, self.R[:, nc:]))

    def _update_ortho(self):
        if self.ivars["istep"] == 0:
            return self._first_step(replace_x=True)
        ns, nc, n = self.ivars["converged_end"], self.ivars["converged_count"], self.iparams["n"]
        S_ = self.S[:, nc:ns]
        E_, Z = _symeig(_qform(self.A, S_), self.bparams["largest"])
        self.X[:, nc:] = core.matmul(S_, Z[:, : n - nc])
        self.E[nc:] = E_[: n - nc]
        P = core.matmul(S_, core.matmul(Z[:, n - nc :], core.linalg.qr(Z[: n - nc, n - nc :].mT).Q))
        self._next_basis(P, lambda nc, np_: self._get_ortho(self.R[:, nc:], self.S[:, : n + np_]))

    def _get_rayleigh_ritz_transform(self, S):
        """``Ri`` that turns ``(S^T A S) C = (S^T B S) C E`` into a standard problem (``C = Ri Z``)."""
        SBS = _qform(self.B, S)
        d_row = SBS.diagonal(0, -2, -1) ** -0.5
        d_col = d_row.reshape(d_row.shape[0], 1)
        R = core.linalg.cholesky((SBS * d_row) * d_col, upper=True)
        return core.linalg.solve_triangular(R, d_row.diag_embed(), upper=True, left=False)

    def _get_svqb(self, U, drop: bool, tau: float):
        """B-orthonormal columns spanning ``U`` (Duersch's algorithm 4), dropping weak ones when ``drop``."""
        if U.numel() == 0:
            return U
        UBU = _qform(self.B, U)
        d = UBU.diagonal(0, -2, -1)
        nz = core.where(abs(d) != 0.0)[0]
        if len(nz) < len(d):
            U = U[:, nz]
            if U.numel() == 0:
                return U
            UBU = _qform(self.B, U)
            d = UBU.diagonal(0, -2, -1)
        d_col = (d**-0.5).reshape(d.shape[0], 1)
        E, Z = _symeig((UBU * d_col) * d_col.mT)
        t = tau * abs(E).max()
        if drop:
            keep = core.where(E > t)[0]
            E, Z, d_col = E[keep], Z[:, keep], d_col[keep]
        else:
            E[core.where(E < t)[0]] = t
        return core.matmul(U * d_col.mT, Z * E**-0.5)

    def _get_ortho(self, U, V):
        """B-orthonormal columns spanning ``U`` and B-orthogonal to ``V`` (Duersch's algorithms 3 and 6)."""
        tau_ortho, tau_drop = self.fparams["ortho_tol"], self.fparams["ortho_tol_drop"]
        tau_replace, use_drop = self.fparams["ortho_tol_replace"], self.bparams["ortho_use_drop"]
        for key in [key for key in self.fvars if key.startswith("ortho_") and key.endswith("_rerr")]:
            self.fvars.pop(key)
        self.ivars.pop("ortho_i", 0)
        self.ivars.pop("ortho_j", 0)
        BV_norm = core.norm(_matmul(self.B, V))
        BU = _matmul(self.B, U)
        VBU = core.matmul(V.mT, BU)
        i = j = 0
        for i in range(self.iparams["ortho_i_max"]):
            U = U - core.matmul(V, VBU)
            drop, tau_svqb = False, tau_drop
            for j in range(self.iparams["ortho_j_max"]):
                if use_drop:
                    U = self._get_svqb(U, drop, tau_svqb)
                    drop, tau_svqb = True, tau_replace
                else:
                    U = self._get_svqb(U, False, tau_replace)
                if U.numel() == 0:
                    self.ivars["ortho_i"], self.ivars["ortho_j"] = i, j
                    return U
                BU = _matmul(self.B, U)
                UBU = core.matmul(U.mT, BU)
                R = UBU - core.eye(UBU.shape[-1], device=UBU.device, dtype=UBU.dtype)
                rerr = float(core.norm(R)) * float(core.norm(BU) * core.norm(U)) ** -1
                self.fvars[f"ortho_UBUmI_rerr[{i}, {j}]"] = rerr
                if rerr < tau_ortho:
                    break
            VBU = core.matmul(V.mT, BU)
            rerr = float(core.norm(VBU)) * float(BV_norm * core.norm(U)) ** -1
            self.fvars[f"ortho_VBU_rerr[{i}]"] = rerr
            if rerr < tau_ortho:
                break
            if self.iparams["m"] < U.shape[-1] + V.shape[-1]:
                raise ValueError("Overdetermined shape of U:"
                                 f" #B-cols(={self.B.shape[-1]}) >= #U-cols(={U.shape[-1]}) + #V-cols(={V.shape[-1]})"
                                 " must hold")
        self.ivars["ortho_i"], self.ivars["ortho_j"] = i, j
        return U


def _parameters(A, k, X, n, niter, tol, largest, method, ortho_iparams, ortho_fparams, ortho_bparams):
    """PyTorch's defaults: ``(k, n, iparams, fparams, bparams, method)`` (and its ValueError for too small A)."""
    m = A.shape[-1]
    if tol is None:
        tol = _EPS[str(_floating_dtype(A)).split(".")[-1]] ** 0.5
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m})"
                         f" is smaller than 3 x the number of requested eigenpairs (={n})")
    method = "ortho" if method is None else method
    iparams = {"m": m, "n": n, "k": k, "niter": 1000 if niter is None else niter}
    fparams = {"tol": tol}
    bparams = {"largest": True if largest is None else largest}
    if method == "ortho":
        iparams.update(ortho_iparams or {})
        fparams.update(ortho_fparams or {})
        bparams.update(ortho_bparams or {})
        iparams.setdefault("ortho_i_max", 3)
        iparams.setdefault("ortho_j_max", 3)
        for name in ("ortho_tol", "ortho_tol_drop", "ortho_tol_replace"):
            fparams.setdefault(name, tol)
        bparams.setdefault("ortho_use_drop", False)
    return k, n, iparams, fparams, bparams, method


def _lobpcg(A, k, B, X, n, iK, niter, tol, largest, method, tracker, ortho_iparams, ortho_fparams, ortho_bparams):
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype, device, m = _floating_dtype(A), A.device, A.shape[-1]
    k, n, iparams, fparams, bparams, method = _parameters(A, k, X, n, niter, tol, largest, method, ortho_iparams,
                                                          ortho_fparams, ortho_bparams)
    batch = tuple(A.shape[:-2])
    count = 1
    for size in batch:
        count *= size
    bA = A.reshape((count, m, m))
    bB = B.reshape((count, m, m)) if B is not None else None
    bX = X.reshape((count,) + tuple(X.shape[-2:])) if X is not None else None
    eigenvalues, eigenvectors = [], []
    for i in range(count):
        X_ = core.randn((m, n), dtype=dtype, device=device) if bX is None else bX[i]
        if not (X_.dim() == 2 and tuple(X_.shape) == (m, n)):
            raise AssertionError(f"X shape mismatch: got {X_.shape}, expected {(m, n)}")
        if batch:
            iparams["batch_index"] = i
        worker = LOBPCG(bA[i], None if bB is None else bB[i], X_, iK, iparams, fparams, bparams, method, tracker)
        worker.run()
        eigenvalues.append(worker.E[:k])
        eigenvectors.append(worker.X[:, :k])
    if not batch:
        return eigenvalues[0], eigenvectors[0]
    return core.stack(eigenvalues).reshape(batch + (k,)), core.stack(eigenvectors).reshape(batch + (m, k))


class LOBPCGAutogradFunction(Function):
    """The eigenpairs as one node; backward is the symmetric eigenproblem's (B = I only, as PyTorch's)."""

    @staticmethod
    def forward(ctx, A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None, method=None,
                tracker=None, ortho_iparams=None, ortho_fparams=None, ortho_bparams=None):
        A = A if A.is_sparse else A.contiguous()
        if B is not None:
            B = B if B.is_sparse else B.contiguous()
        D, U = _lobpcg(A, k, B, X, n, iK, niter, tol, largest, method, tracker, ortho_iparams, ortho_fparams,
                       ortho_bparams)
        ctx.save_for_backward(A, B, D, U)
        ctx.largest = largest
        return D, U

    @staticmethod
    def backward(ctx, D_grad, U_grad):
        A, B, D, U = ctx._unpacked
        if A.is_sparse or (B is not None and B.is_sparse and ctx.needs_input_grad[2]):
            raise ValueError("lobpcg.backward does not support sparse input yet. Note that lobpcg.forward does though.")
        if A.is_complex() or (B is not None and B.is_complex()):
            raise ValueError("lobpcg.backward does not support complex input yet. "
                             "Note that lobpcg.forward does though.")
        if B is not None:
            raise ValueError("lobpcg.backward does not support backward with B != I yet.")
        largest = True if ctx.largest is None else ctx.largest
        D_grad = core.zeros_like(D) if D_grad is None else D_grad
        U_grad = core.zeros_like(U) if U_grad is None else U_grad
        return (symeig_backward(D_grad, U_grad, A, D, U, largest),) + (None,) * 13


def lobpcg(A, k=None, B=None, X=None, n=None, iK=None, niter=None, tol=None, largest=None, method=None,
           tracker=None, ortho_iparams=None, ortho_fparams=None, ortho_bparams=None):
    """The ``k`` largest (or smallest, ``largest=False``) eigenpairs of ``A X = B X E`` for symmetric positive
    definite ``A`` (and ``B``), as ``(E, X)``: eigenvalues (k,) and eigenvectors (m, k), batched over leading dims.

    ``X`` (m, n) starts the iteration (else ``randn``), ``iK`` preconditions it, ``niter`` caps the steps (1000;
    -1 runs until convergence), ``tol`` is the residual tolerance, ``method`` is "ortho" or "basic", and
    ``tracker(worker)`` is called after every step. Needs ``m >= 3 n``.
    """
    args = (k, None, X, n, iK, niter, tol, largest, method, tracker, ortho_iparams, ortho_fparams, ortho_bparams)
    if A.requires_grad or (B is not None and B.requires_grad):
        # NOTE: A's gradient need not be symmetric; symmetrising A first makes it so (as PyTorch does)
        A_sym = (A + A.mT) / 2
        B_sym = (B + B.mT) / 2 if B is not None else None
        return LOBPCGAutogradFunction.apply(A_sym, *args[:1], B_sym, *args[2:])
    return _lobpcg(A, args[0], B, *args[2:])
