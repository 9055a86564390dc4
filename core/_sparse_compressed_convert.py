"""Conversions to sparse compressed layouts (``Tensor.to_sparse_csr()``, ``to_sparse(layout=..., blocksize=...)``...)
with PyTorch's argument checks, and the constructors ``torch.sparse_compressed_tensor`` and
``torch.sparse_csr_tensor``/``csc``/``bsr``/``bsc`` with PyTorch's argument names and validation.
``core._sparse_compressed`` re-exports them.
"""

from __future__ import annotations

import numpy as np

from core._backend import to_numpy_array
from core._sparse_compressed import (
    LAYOUTS,
    SparseCompressedTensor,
    _blocked_order,
    _blocked_shape,
    _gather,
    _sc_positions,
    layout_enum,
)
from core._sparse_compressed_autograd import _from_values
from core._sparse_compressed_checks import infer_size, invariant_checks_enabled, validate, validate_indices
from core._tensor import Tensor
from core.autograd._transform_guard import set_requires_grad


# ----- conversions --------------------------------------------------------------------------------------------
def _pattern(arr: np.ndarray, layout, block, dense_dim):
    """Compressed and plain indices of the nonzero blocks of a dense array, in PyTorch's order."""
    blocked, nb = _blocked_shape(arr.shape, block, dense_dim)
    tiles = np.transpose(arr.reshape(blocked), _blocked_order(nb, dense_dim)) != 0
    mask = tiles.reshape(tiles.shape[:nb + 2] + (-1,)).any(-1)
    flat = mask.reshape((-1,) + mask.shape[-2:])
    comps, plains = [], []
    for m in flat:
        m = m if layout.rows else m.T
        major, minor = np.nonzero(m)
        comps.append(np.concatenate(([0], np.cumsum(np.bincount(major, minlength=m.shape[0])))).astype(np.int64))
        plains.append(minor.astype(np.int64))
    counts = {len(p) for p in plains}
    if len(counts) > 1:
        raise RuntimeError("Expect the same number of specified elements per batch.")
    nnz = counts.pop() if counts else 0
    compressed = np.stack(comps).reshape(mask.shape[:nb] + (-1,)) if comps else np.zeros(mask.shape[:nb] + (1,),
                                                                                         np.int64)
    plain = np.stack(plains).reshape(mask.shape[:nb] + (nnz,)) if plains else np.zeros(mask.shape[:nb] + (0,),
                                                                                        np.int64)
    return compressed, plain


def _check(funcname, t, layout_to, blocksize, dense_dim):
    """PyTorch's ``_to_sparse_check_arguments`` for a conversion to a compressed layout."""
    frm, to = layout_enum(t.layout), layout_to.enum
    if isinstance(t, SparseCompressedTensor) or frm == "Sparse":
        if dense_dim is not None:
            raise RuntimeError(f"{funcname}: conversion from {frm} to {to} with dense_dim argument given is not "
                               "supported")
    if frm == "Sparse" and t.sparse_dim() != 2:
        raise RuntimeError(f"{funcname}: conversion from {frm} to {to} for input tensors with sparse_dim()!=2 is not "
                           "supported")
    if blocksize is not None:
        if len(blocksize) != 2:
            raise RuntimeError(f"{funcname}: blocksize needs to be a tuple of size 2, but got {len(blocksize)}")
        if blocksize[0] <= 0 or blocksize[1] <= 0:
            raise RuntimeError(f"{funcname}: blocksize needs to be positive, but got [{blocksize[0]}, {blocksize[1]}]")
        if not layout_to.blocked:
            raise RuntimeError(f"{funcname}: conversion from {frm} to {to} with blocksize argument given is not "
                               "supported")
        dd = dense_dim or 0 if not isinstance(t, SparseCompressedTensor) else t.dense_dim()
        rows, cols = t.shape[-(dd + 2)], t.shape[-(dd + 1)]
        if rows % blocksize[0] or cols % blocksize[1]:
            raise RuntimeError(f"{funcname}: tensor sparse size ({rows},{cols}) must be divisible by given "
                               f"blocksize ({blocksize[0]},{blocksize[1]})")
    elif layout_to.blocked:
        raise RuntimeError(f"{funcname}: conversion from {frm} to {to} without blocksize argument given is not "
                           "supported")
    if dense_dim is not None and not 0 <= dense_dim <= t.dim() - 2:
        raise RuntimeError(f"{funcname}: dense_dim argument must be in [0,{t.dim() - 2}] range, but {dense_dim} is "
                           "given")
    if t.dim() < 2:
        raise IndexError(f"select(): index 1 out of range for tensor of size [{t.dim() and t.shape[0]}, 1] at "
                         "dimension 1" if t.dim() else "Dimension specified as -2 but tensor has no dimensions")


def convert(t: Tensor, layout, blocksize=None, dense_dim=None, *, sparse_dim=None, funcname="to_sparse"):
    """``t.to_sparse(layout=...)`` and ``to_sparse_csr/csc/bsr/bsc``: a copy in ``layout``."""
    from core._sparse_coo import sparse_coo, to_sparse  # COO is a sibling module

    if layout is None or layout is sparse_coo:
        if isinstance(t, SparseCompressedTensor):
            return to_sparse(t.detach().to_dense(), sparse_dim if sparse_dim is not None else 2)
        return to_sparse(t, sparse_dim)
    if layout not in LAYOUTS:
        raise RuntimeError(f"{funcname}: {layout_enum(t.layout)} to {layout!r} conversion not supported")
    if isinstance(blocksize, int):
        blocksize = (blocksize, blocksize)
    blocksize = None if blocksize is None else tuple(int(b) for b in blocksize)
    if isinstance(t, SparseCompressedTensor):
        funcname = funcname.replace("dense_", "")  # (PyTorch's sparse_compressed_to_* checks name the method)
    if t.layout is sparse_coo:
        funcname = funcname.replace("dense_", "coo_")
    _check(funcname, t, layout, blocksize, dense_dim)
    if t.layout is sparse_coo:  # a hybrid COO tensor's dense dimensions stay dense (a values row per entry)
        dense_dim = t.dense_dim()
    if isinstance(t, SparseCompressedTensor):
        if t.layout is layout and (blocksize is None or blocksize == t._sc_block):
            return t
        if t._sc_layout.blocked and blocksize is not None and blocksize != t._sc_block:
            raise RuntimeError(f"{funcname}: conversion from {t._sc_layout.enum} to {layout.enum} with blocksize "
                               f"changed from [{t._sc_block[0]}, {t._sc_block[1]}] to [{blocksize[0]}, "
                               f"{blocksize[1]}] is not supported")
        dense_dim = t.dense_dim()
    block = blocksize or (1, 1)
    dense_dim = dense_dim or 0
    source = t.to_dense() if isinstance(t, SparseCompressedTensor) or t.layout is sparse_coo else t
    compressed, plain = _pattern(to_numpy_array(source.detach()._data), layout, block, dense_dim)
    positions = _sc_positions(layout, compressed, plain, block, dense_dim, source.shape)
    values = _gather(source, *positions)
    return _from_values(layout, compressed, plain, values, source.shape)


def sparse_compressed_tensor(compressed_indices, plain_indices, values, size=None, *, dtype=None, layout=None,
                             device=None, pin_memory=False, requires_grad=False, check_invariants=None):
    """``torch.sparse_compressed_tensor``: a CSR/CSC/BSR/BSC tensor from its indices and values (checked as PyTorch
    checks them; the index contents only with ``check_invariants=True``)."""
    from core._factories import tensor  # factories import Tensor

    if layout not in LAYOUTS:
        raise RuntimeError(f"sparse_compressed_tensor expected sparse compressed tensor layout but got "
                           f"{layout_enum(layout) if layout is not None else 'none'}")
    ci = compressed_indices if isinstance(compressed_indices, Tensor) else tensor(compressed_indices)
    pi = plain_indices if isinstance(plain_indices, Tensor) else tensor(plain_indices)
    vals = values if isinstance(values, Tensor) else tensor(values)
    if dtype is not None:
        vals = vals.to(dtype)
    c_arr, p_arr = to_numpy_array(ci.detach()._data), to_numpy_array(pi.detach()._data)
    shape = tuple(int(s) for s in size) if size is not None else infer_size(layout, c_arr, p_arr, vals)
    validate(layout, c_arr, p_arr, vals, shape, ci.dtype, pi.dtype)
    if check_invariants if check_invariants is not None else invariant_checks_enabled():
        validate_indices(layout, c_arr, p_arr, vals, shape)
    out = _from_values(layout, c_arr.copy(), p_arr.copy(), vals, shape)
    if requires_grad:
        set_requires_grad(out)
    return out


def _constructor(layout):
    """``torch.sparse_<layout>_tensor``, whose index arguments have the layout's names (``crow_indices=``,
    ``col_indices=`` for CSR; ``ccol_indices=``, ``row_indices=`` for CSC), positional or by keyword."""
    a, b = layout.index_names
    options = ("dtype", "device", "pin_memory", "requires_grad", "check_invariants")

    def construct(*args, **kwargs):
        name = f"{layout.name}_tensor()"
        if len(args) > 4:
            raise TypeError(f"{name} takes from 3 to 4 positional arguments but {len(args)} were given")
        bound = dict(zip((a, b, "values", "size"), args))
        for key in (a, b, "values", "size"):
            if key in kwargs:
                if key in bound:
                    raise TypeError(f"{name} got multiple values for argument '{key}'")
                bound[key] = kwargs.pop(key)
        unknown = [key for key in kwargs if key not in options]
        if unknown:
            raise TypeError(f"{name} got an unexpected keyword argument '{unknown[0]}'")
        missing = [key for key in (a, b, "values") if key not in bound]
        if missing:
            raise TypeError(f"{name} missing required argument '{missing[0]}'")
        return sparse_compressed_tensor(bound[a], bound[b], bound["values"], bound.get("size"), layout=layout,
                                        **kwargs)

    construct.__name__ = construct.__qualname__ = f"{layout.name}_tensor"
    construct.__doc__ = f"``torch.{layout.name}_tensor({a}, {b}, values, size=None, ...)``: a {layout.enum} tensor."
    return construct


sparse_csr_tensor, sparse_csc_tensor, sparse_bsr_tensor, sparse_bsc_tensor = (_constructor(lay) for lay in LAYOUTS)
