"""The checks of ``torch.sparse_compressed_tensor`` and its CSR/CSC/BSR/BSC forms, as PyTorch's
``_validate_sparse_compressed_tensor_args_worker`` (shapes and dtypes) and ``_validate_compressed_sparse_indices``
(the index contents, when invariant checks are on) word them; and the size inferred when none is given."""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._warn_once import warn_once

__all__ = ["infer_size", "validate", "validate_indices", "invariant_checks_enabled", "set_invariant_checks"]

# torch.sparse.check_sparse_tensor_invariants' process-wide flag (off, as PyTorch's default), and whether a user set it
_checks = {"enabled": False, "explicit": False}
_IMPLICIT = ("Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur when operating "
             "on a sparse tensor which violates the invariants, but checks incur performance overhead. To silence this "
             "warning, explicitly opt in or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for "
             "guidance. ")


def invariant_checks_enabled() -> bool:
    """The flag; reading it while nobody set it warns once, as PyTorch's constructors do."""
    if not _checks["explicit"]:
        warn_once("implicit", _IMPLICIT)
    return _checks["enabled"]


def set_invariant_checks(enabled: bool) -> None:
    _checks["enabled"], _checks["explicit"] = bool(enabled), True




def infer_size(layout, c_arr, p_arr, vals):
    nb = c_arr.ndim - 1
    bh, bw = (vals.shape[nb + 1], vals.shape[nb + 2]) if layout.blocked and vals.dim() > nb + 2 else (1, 1)
    n_comp = c_arr.shape[-1] - 1 if c_arr.ndim else 0
    n_plain = int(p_arr.max()) + 1 if p_arr.size else 0
    rows, cols = (n_comp, n_plain) if layout.rows else (n_plain, n_comp)
    dense = tuple(vals.shape[nb + 1 + (2 if layout.blocked else 0):])
    return tuple(c_arr.shape[:-1]) + (rows * bh, cols * bw) + dense


def validate(layout, c_arr, p_arr, vals, shape, c_dtype, p_dtype):
    """PyTorch's ``_validate_sparse_compressed_tensor_args_worker``: shapes and dtypes."""
    cname, pname = layout.index_names
    cdim = "row" if layout.rows else "column"
    nb = c_arr.ndim - 1
    block_nd = 2 if layout.blocked else 0
    dense_nd = vals.dim() - nb - block_nd - 1
    if nb < 0:
        raise RuntimeError(f"{cname} must have dimensionality >= 1 but got {c_arr.ndim}")
    if c_arr.ndim != p_arr.ndim:
        raise RuntimeError(f"{cname} and {pname} dimensionalities must be equal but got {c_arr.ndim} and "
                           f"{p_arr.ndim}, respectively")
    if dense_nd < 0:
        raise RuntimeError(f"values must have dimensionality > sum of batch and block dimensionalities (={nb} + "
                           f"{block_nd}) but got {vals.dim()}")
    if len(shape) != nb + 2 + dense_nd:
        raise RuntimeError(f"tensor dimensionality must be sum of batch, base, and dense dimensionalities (={nb} + "
                           f"2 + {dense_nd}) but got {len(shape)}")
    block = [max(1, vals.shape[nb + 1]), max(1, vals.shape[nb + 2])] if layout.blocked else [1, 1]
    batch, cb, pb, vb = (list(shape[:nb]), list(c_arr.shape[:nb]), list(p_arr.shape[:nb]), list(vals.shape[:nb]))
    if not batch == cb == pb == vb:
        raise RuntimeError(f"all batch dimensions of {cname} (={cb}), {pname} (={pb}), and values (={vb}) must be "
                           f"equal to tensor batch dimensions (={batch})")
    for i in range(block_nd):
        if shape[nb + i] % block[i]:
            raise RuntimeError(f"tensor shape[{nb + i}] (={shape[nb + i]}) must be divisible with blocksize[{i}] "
                               f"(={block[i]}) as defined by values shape")
    nrows, ncols = shape[nb] // block[0], shape[nb + 1] // block[1]
    n_comp = nrows if layout.rows else ncols
    if c_arr.shape[-1] != n_comp + 1:
        raise RuntimeError(f"{cname}.shape[-1] must be equal to the number of {cdim}s + 1 (={n_comp + 1}), but got "
                           f"{c_arr.shape[-1]}")
    nnz = vals.shape[nb]
    if p_arr.shape[-1] != nnz:
        raise RuntimeError(f"{pname}.shape[-1] must be equal to nnz (={nnz}) as defined by values.shape[{nb}], but "
                           f"got {p_arr.shape[-1]}")
    if c_dtype is not p_dtype:
        raise RuntimeError(f"{cname} and {pname} must have the same dtype, bot got {_dtype.SCALAR_NAMES[c_dtype.name]}"
                           f" and {_dtype.SCALAR_NAMES[p_dtype.name]}, respectively")
    if c_dtype not in (_dtype.int32, _dtype.int64):
        raise RuntimeError(f"{cname} and {pname} dtype must be Int or Long, but got "
                           f"{_dtype.SCALAR_NAMES[c_dtype.name]}")


def validate_indices(layout, c_arr, p_arr, vals, shape):
    """PyTorch's ``_validate_compressed_sparse_indices`` (run when invariant checks are on)."""
    cname, pname = layout.index_names
    nb = c_arr.ndim - 1
    block = (vals.shape[nb + 1], vals.shape[nb + 2]) if layout.blocked else (1, 1)
    n_plain = shape[nb + 1] // block[1] if layout.rows else shape[nb] // block[0]
    plain_dim = "ncols" if layout.rows else "nrows"
    comp_dim = "nrows" if layout.rows else "ncols"
    nnz = p_arr.shape[-1]
    c = c_arr.reshape(-1, c_arr.shape[-1]).astype(np.int64)
    p = p_arr.reshape(-1, nnz).astype(np.int64)
    if (c[:, 0] != 0).any():
        raise RuntimeError(f"`{cname}[..., 0] == 0` is not satisfied.")
    if (c[:, -1] != nnz).any():
        raise RuntimeError(f"`{cname}[..., -1] == nnz` is not satisfied.")
    d = np.diff(c, axis=1)
    if ((d < 0) | (d > n_plain)).any():
        raise RuntimeError(f"`0 <= {cname}[..., 1:] - {cname}[..., :-1] <= {plain_dim}` is not satisfied.")
    if ((p < 0) | (p >= n_plain)).any():
        raise RuntimeError(f"`0 <= {pname} < {plain_dim}` is not satisfied.")
    for row_c, row_p in zip(c, p):
        for i in range(len(row_c) - 1):
            seg = row_p[row_c[i]:row_c[i + 1]]
            if (np.diff(seg) <= 0).any():
                raise RuntimeError(f"`{pname}[..., {cname}[..., i - 1]:{cname}[..., i]] for all i = 1, ..., "
                                   f"{comp_dim} are sorted and distinct along the last dimension values` is not "
                                   "satisfied.")
