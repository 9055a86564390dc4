"""Sparse compressed tensors: ``torch.sparse_csr``, ``sparse_csc``, ``sparse_bsr`` and ``sparse_bsc``.

A compressed tensor keeps PyTorch's description: compressed indices (``crow_indices`` of a row layout,
``ccol_indices`` of a column layout: batch... x (rows or columns of blocks + 1)), plain indices (``col_indices`` /
``row_indices``: batch... x nnz) and ``values`` (batch... x nnz [x block rows x block columns] x dense...). As
``core._sparse_coo`` does, it also holds the dense array those entries make, so every op accepts it and gives the
dense result PyTorch's sparse kernels give (``csr @ dense``, ``torch.addmm``, ``sum()``). Ops whose PyTorch result
is compressed (``* scalar``, ``neg``, ``transpose`` of like dims) give a compressed tensor here too.

Autograd: a compressed tensor made from ``values`` that require grad is recorded as PyTorch records it
(``SparseCompressedTensorBackward0``), and its gradient is the incoming gradient read at the specified entries
(PyTorch's masked gradient); a compressed leaf that requires grad gets the dense gradient of the ops using it.

This module holds the layouts, the tensor class, where the entries are, building, transposing, saving and
printing; the autograd nodes are in ``core._sparse_compressed_autograd`` and the conversions and constructors in
``core._sparse_compressed_convert``, both imported at the end of this module, which re-exports what others import.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _printing
from core._sparse_mirror import DENSE_SLOT, DenseMirror, same
from core._tensor import Tensor, _Layout, _object_new, strided
from core._warn_once import warn_once
from core.autograd.grad_mode import is_grad_enabled

__all__ = ["sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "sparse_compressed_tensor", "sparse_csr_tensor",
           "sparse_csc_tensor", "sparse_bsr_tensor", "sparse_bsc_tensor"]


class _CompressedLayout(_Layout):
    """``torch.sparse_csr`` and its three siblings: which dim is compressed, and whether entries are blocks."""

    __slots__ = ("name", "rows", "blocked", "enum")

    def __init__(self, name: str, rows: bool, blocked: bool, enum: str):
        self.name, self.rows, self.blocked, self.enum = name, rows, blocked, enum

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name

    @property
    def index_names(self) -> tuple[str, str]:
        return ("crow_indices", "col_indices") if self.rows else ("ccol_indices", "row_indices")


sparse_csr = _CompressedLayout("sparse_csr", True, False, "SparseCsr")
sparse_csc = _CompressedLayout("sparse_csc", False, False, "SparseCsc")
sparse_bsr = _CompressedLayout("sparse_bsr", True, True, "SparseBsr")
sparse_bsc = _CompressedLayout("sparse_bsc", False, True, "SparseBsc")
LAYOUTS = (sparse_csr, sparse_csc, sparse_bsr, sparse_bsc)
_TRANSPOSED = {sparse_csr: sparse_csc, sparse_csc: sparse_csr, sparse_bsr: sparse_bsc, sparse_bsc: sparse_bsr}


def layout_enum(layout) -> str:
    """PyTorch's C++ name of a layout (``Strided``, ``Sparse``, ``SparseCsr``...), as its messages print it."""
    return getattr(layout, "enum", None) or ("Sparse" if repr(layout) == "torch.sparse_coo" else "Strided")


class SparseCompressedTensor(Tensor):
    """A CSR/CSC/BSR/BSC tensor: indices and values, plus their dense array for the ops (see the module)."""

    is_sparse = False

    _data = DenseMirror("_sc_synced", "_sc_sync")
    _sc_synced = 0
    _sc_snapshot = None

    @property
    def _sc_values(self):
        """The entries, brought in step with the dense mirror first (``_sc_sync``)."""
        if self._vc[0] != self._sc_synced:
            self._sc_sync()
        return self._sc_vals

    @_sc_values.setter
    def _sc_values(self, values) -> None:
        self._sc_vals = values

    def _sc_sync(self) -> None:
        """Brings the dense mirror and the entries back in step after a write (the version counter moved): values or
        indices written through ``values()``/``crow_indices()``... give the dense array anew (in place); an in-place
        op on this tensor itself (``mul_``) wrote the dense array, whose entries the values then take."""
        arrays = (self._sc_vals, self._sc_compressed, self._sc_plain)
        snapshot, self._sc_synced = self._sc_snapshot, self._vc[0]
        dense = DENSE_SLOT.__get__(self)
        if snapshot is not None and all(same(a, b) for a, b in zip(arrays, snapshot)):
            entries = _gather(dense, *self._sc_positions())
            if same(entries, self._sc_vals):
                return
            self._sc_vals[...] = entries
        _fill(dense, self._sc_layout, self._sc_compressed, self._sc_plain, self._sc_vals)
        self._sc_snapshot = tuple(a.copy() for a in arrays)

    def _sc_alias(self, array: np.ndarray, base=None) -> Tensor:
        """A tensor over one of this tensor's arrays sharing its version counter, so that a write through it reaches
        the dense mirror (torch's ``values()`` is a view, its index getters share their storage)."""
        out = _object_new(Tensor)
        out._data = out._root = array
        out._vc = self._vc
        if base is not None:
            out._base = base
        return out

    @property
    def layout(self):
        return self._sc_layout

    @property
    def is_sparse_csr(self) -> bool:
        return self._sc_layout is sparse_csr

    def _sc_batch_ndim(self) -> int:
        return self._sc_plain.ndim - 1

    def _nnz(self) -> int:
        return self._sc_plain.shape[-1]

    def sparse_dim(self) -> int:
        return 2

    def dense_dim(self) -> int:
        return self._sc_values.ndim - self._sc_batch_ndim() - 1 - (2 if self._sc_layout.blocked else 0)

    def _sc_index(self, which: int, name: str) -> Tensor:
        want_rows = name in ("crow_indices", "col_indices")
        if want_rows != self._sc_layout.rows:
            kind = "row" if want_rows else "column"
            raise RuntimeError(f"{name} expected sparse {kind} compressed tensor layout but got "
                               f"{self._sc_layout.enum}")
        return self._sc_alias((self._sc_compressed, self._sc_plain)[which])

    def crow_indices(self) -> Tensor:
        return self._sc_index(0, "crow_indices")

    def col_indices(self) -> Tensor:
        return self._sc_index(1, "col_indices")

    def ccol_indices(self) -> Tensor:
        return self._sc_index(0, "ccol_indices")

    def row_indices(self) -> Tensor:
        return self._sc_index(1, "row_indices")

    def values(self) -> Tensor:
        """The specified entries, a view as torch's (with autograd, read from this tensor so gradients reach its
        sources)."""
        if self.requires_grad and is_grad_enabled():
            return _Values.apply(self)
        return self._sc_alias(self._sc_values, base=self)

    def _sc_positions(self):
        return _sc_positions(self._sc_layout, self._sc_compressed, self._sc_plain, self._sc_block, self.dense_dim(),
                          self._data.shape)

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        out = _CompressedToDense.apply(self)
        return out if dtype is None else out.to(dtype)

    def _to_dense(self, dtype=None, masked_grad=None) -> Tensor:
        return self.to_dense(dtype)

    def detach(self) -> SparseCompressedTensor:
        """The same arrays out of the graph, sharing the version counter as torch's (a write through either reaches
        the other's dense mirror)."""
        out = _build(self._sc_layout, self._sc_compressed, self._sc_plain, self._sc_values, self._data.shape)
        out._vc = self._vc
        out._sc_synced = self._vc[0]
        return out

    def clone(self, *, memory_format=None) -> SparseCompressedTensor:
        if self.requires_grad:
            return _from_values(self._sc_layout, self._sc_compressed, self._sc_plain, self.values(), self.shape)
        return _build(self._sc_layout, self._sc_compressed.copy(), self._sc_plain.copy(), self._sc_values.copy(),
                      self._data.shape)

    def __deepcopy__(self, memo):
        return memo.setdefault(id(self), self.clone().detach().requires_grad_(self.requires_grad))

    def _sc_with_values(self, values: Tensor, layout=None, compressed=None, plain=None, shape=None):
        layout = layout or self._sc_layout
        compressed = self._sc_compressed if compressed is None else compressed
        plain = self._sc_plain if plain is None else plain
        return _from_values(layout, compressed, plain, values, self.shape if shape is None else shape)

    def __mul__(self, other):
        if _is_scalar(other):
            return self._sc_with_values(self.values() * other)
        return super().__mul__(other)

    def __add__(self, other):
        """A compressed tensor of the same layout, indices and dtype adds its values (torch's sum keeps the layout;
        the autograd engine adds two gradients of one tensor so); anything else adds densely."""
        if isinstance(other, SparseCompressedTensor) and other._sc_layout is self._sc_layout and \
                other.dtype is self.dtype and tuple(other.shape) == tuple(self.shape) and \
                same(other._sc_compressed, self._sc_compressed) and same(other._sc_plain, self._sc_plain):
            return self._sc_with_values(self.values() + other.values())
        return super().__add__(other)

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._sc_with_values(other * self.values())
        return super().__rmul__(other)

    def mul(self, other):
        return self.__mul__(other)

    def __truediv__(self, other):
        raise RuntimeError(f"unsupported tensor layout: {self._sc_layout.enum}")

    div = __truediv__

    def __neg__(self):
        return self._sc_with_values(-self.values())

    neg = __neg__

    def sum(self, dim=None, keepdim=False, *, dtype=None):
        if dim is None:
            return self.to_dense().sum(dtype=dtype)
        if self._sc_layout is not sparse_csr:
            raise RuntimeError("Currently the only compressed sparse format supported for sum.dim_IntList is CSR, "
                               f"but got layout {self._sc_layout.enum}")
        if not keepdim:
            raise RuntimeError("reduction operations on CSR tensors with keepdim=False is unsupported")
        return self.to_dense().sum(dim, keepdim=True, dtype=dtype).to_sparse_csr()

    def transpose(self, dim0: int, dim1: int):
        """Two dims of one kind swapped (batch, sparse or dense), as PyTorch's ``transpose`` of these layouts."""
        return _transpose(self, dim0, dim1)

    def t(self):
        if self.dim() != 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.dim()}D")
        return _transpose(self, 0, 1)

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
        return convert(self, layout, blocksize, dense_dim, sparse_dim=sparse_dim, funcname="to_sparse")

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._sc_layout.name, self._sc_compressed.copy(), self._sc_plain.copy(),
                           self._sc_values.copy(), tuple(self._data.shape)))

    def __repr__(self, *, tensor_contents=None) -> str:
        return _repr(self)

    __str__ = __repr__


def _is_scalar(x) -> bool:
    return isinstance(x, (int, float, bool, complex)) or (isinstance(x, Tensor) and x.layout is strided
                                                          and x.dim() == 0)


def _rebuild(name, compressed, plain, values, shape):
    return _build({lay.name: lay for lay in LAYOUTS}[name], compressed, plain, values, shape)


# ----- where the entries are -----------------------------------------------------------------------------------
def _expand(compressed: np.ndarray, nnz: int) -> np.ndarray:
    """The compressed index of every entry (batch... x nnz), from the compressed indices (``crow_indices``)."""
    flat = compressed.reshape(-1, compressed.shape[-1]).astype(np.int64)
    out = np.empty((flat.shape[0], nnz), np.int64)
    for b, row in enumerate(flat):
        counts = np.diff(row)
        out[b] = np.repeat(np.arange(len(counts)), np.maximum(counts, 0))[:nnz]
    return out.reshape(compressed.shape[:-1] + (nnz,))


def _sc_positions(layout, compressed, plain, block, dense_dim, shape):
    """``(index, block, dense_dim, shape, blocked)``: the advanced index of each entry's block in the blocked view
    ``(batch..., rows of blocks, columns of blocks, block rows, block columns, dense...)``."""
    nnz = plain.shape[-1]
    comp = _expand(compressed, nnz)
    plain = plain.astype(np.int64)
    rows, cols = (comp, plain) if layout.rows else (plain, comp)
    batch = np.indices(plain.shape, sparse=True)[:-1]
    return tuple(batch) + (rows, cols), block, dense_dim, tuple(shape), layout.blocked


def _blocked_order(nb: int, nd: int) -> list:
    """The axes of ``(batch, R/bh, bh, C/bw, bw, dense)`` as ``(batch, R/bh, C/bw, bh, bw, dense)``."""
    return list(range(nb)) + [nb, nb + 2, nb + 1, nb + 3] + list(range(nb + 4, nb + 4 + nd))


def _blocked_shape(shape, block, dense_dim):
    nb = len(shape) - 2 - dense_dim
    r, c = shape[nb], shape[nb + 1]
    bh, bw = block
    return tuple(shape[:nb]) + (r // bh, bh, c // bw, bw) + tuple(shape[nb + 2:]), nb


def _gather(x, index, block, dense_dim, shape, blocked):
    """The values at ``index`` of a dense ``x`` (a core tensor, differentiable, or a NumPy array)."""
    tiled, nb = _blocked_shape(shape, block, dense_dim)
    order = _blocked_order(nb, dense_dim)
    if isinstance(x, Tensor):
        if isinstance(x, SparseCompressedTensor):
            x = x.to_dense()
        from core._factories import tensor  # factories import Tensor

        v = x.reshape(tiled).permute(order)[tuple(tensor(i) for i in index)]
    else:
        v = np.transpose(x.reshape(tiled), order)[index]
    if blocked:
        return v
    return v.reshape(tuple(v.shape[:nb + 1]) + tuple(v.shape[nb + 3:]))


# ----- construction -------------------------------------------------------------------------------------------
def _build(layout, compressed, plain, values, shape) -> SparseCompressedTensor:
    """A compressed tensor without autograd history over NumPy indices and values."""
    values = np.asarray(values)
    nb = plain.ndim - 1
    block = tuple(values.shape[nb + 1:nb + 3]) if layout.blocked else (1, 1)
    dense = np.zeros(tuple(shape), values.dtype)
    _fill(dense, layout, compressed, plain, values)
    warn_once("beta", f"Sparse {layout.enum[6:].upper()} tensor support is in beta state. If you miss a functionality "
                      "in the sparse tensor support, please submit a feature request to "
                      "https://github.com/pytorch/pytorch/issues.")
    t = _object_new(SparseCompressedTensor)
    t._data = t._root = dense
    t._vc = [0]
    t._sc_layout, t._sc_compressed, t._sc_plain, t._sc_values, t._sc_block = layout, compressed, plain, values, block
    t._sc_snapshot = (values.copy(), compressed.copy(), plain.copy())
    return t


def _fill(dense: np.ndarray, layout, compressed, plain, values) -> None:
    """``dense`` (the tensor's shape) set in place to what the entries make."""
    nb = plain.ndim - 1
    block = tuple(values.shape[nb + 1:nb + 3]) if layout.blocked else (1, 1)
    dense_dim = values.ndim - nb - 1 - (2 if layout.blocked else 0)
    index = _sc_positions(layout, compressed, plain, block, dense_dim, dense.shape)[0]
    flat = values if layout.blocked else values.reshape(values.shape[:nb + 1] + (1, 1) + values.shape[nb + 1:])
    tiled, _ = _blocked_shape(dense.shape, block, dense_dim)
    dense[...] = 0
    if plain.shape[-1]:
        np.add.at(np.transpose(dense.reshape(tiled), _blocked_order(nb, dense_dim)), index, flat)


def _transpose(t: SparseCompressedTensor, dim0: int, dim1: int):
    n = t.dim()
    d0, d1 = dim0 % n, dim1 % n  # (PyTorch's range error comes from the dense path for bad dims)
    if d0 == d1:
        return t
    nb, nd = t._sc_batch_ndim(), t.dense_dim()
    if nd:
        raise RuntimeError("transpose(): hybrid sparse compressed tensors with dense dimensions are not supported")
    kind = ["Batch"] * nb + ["Sparse"] * 2
    if kind[d0] != kind[d1]:
        raise RuntimeError(f"transpose(): can only transpose dimensions of the same type (Batch, Sparse, Dense), "
                           f"got {d0}({kind[d0]}) and {d1}({kind[d1]})")
    shape = list(t.shape)
    shape[d0], shape[d1] = shape[d1], shape[d0]
    values = t.values()
    if kind[d0] == "Batch":
        return t._sc_with_values(values.transpose(d0, d1), compressed=np.swapaxes(t._sc_compressed, d0, d1).copy(),
                              plain=np.swapaxes(t._sc_plain, d0, d1).copy(), shape=shape)
    if t._sc_layout.blocked:
        values = values.transpose(nb + 1, nb + 2)
    return t._sc_with_values(values, layout=_TRANSPOSED[t._sc_layout], shape=shape)


# the autograd nodes and the conversions build on the above: imported after it
from core._sparse_compressed_autograd import _CompressedToDense, _from_values, _Values  # noqa: E402
from core._sparse_compressed_autograd import _ToDense as _ToDense  # noqa: E402  (core._sparse_coo's base)
from core._sparse_compressed_convert import (  # noqa: E402
    convert,
    sparse_bsc_tensor,
    sparse_bsr_tensor,
    sparse_compressed_tensor,
    sparse_csc_tensor,
    sparse_csr_tensor,
)


# ----- core.save ----------------------------------------------------------------------------------------------
def encode(t: SparseCompressedTensor, key: str, arrays: dict) -> dict:
    """``core.save``'s entry: the three members as arrays under ``key``, the layout and size as data."""
    arrays[key + "c"], arrays[key + "p"] = t._sc_compressed, t._sc_plain
    arrays[key + "v"] = np.ascontiguousarray(t._sc_values)
    return {"sparse_compressed": key, "layout": t._sc_layout.name, "size": list(t.shape)}


def decode(node: dict, arrays: dict) -> SparseCompressedTensor:
    """What ``encode`` wrote, checked as the constructor checks its arguments."""
    key = node["sparse_compressed"]
    layout = {lay.name: lay for lay in LAYOUTS}.get(node["layout"])
    if layout is None:
        raise ValueError(f"unknown sparse compressed layout {str(node['layout'])[:40]!r}")
    return sparse_compressed_tensor(arrays[key + "c"], arrays[key + "p"], arrays[key + "v"], node["size"],
                                    layout=layout, check_invariants=True)


# ----- printing -----------------------------------------------------------------------------------------------
def _inner(name: str, arr: np.ndarray, indent: int) -> str:
    """One member as PyTorch prints it inside: its elements only (``size=`` when empty, never ``dtype=``)."""
    prefix = f"{name}=tensor("
    text = _printing._tensor_str(arr, indent + len(prefix))
    return prefix + text + (f", size={tuple(arr.shape)}" if arr.size == 0 else "") + ")"


def _repr(t: SparseCompressedTensor) -> str:
    """PyTorch's layout: ``tensor(crow_indices=tensor(...),\\n       col_indices=...,\\n       values=...``, then
    ``size=``, ``nnz=``, ``dtype=``, ``layout=`` and ``grad_fn=`` wrapped at the line width."""
    indent = len("tensor(")
    a, b = t._sc_layout.index_names
    parts = [_inner(a, t._sc_compressed, indent), _inner(b, t._sc_plain, indent), _inner("values", t._sc_values,
                                                                                         indent)]
    suffixes = [f"size={tuple(t.shape)}", f"nnz={t._nnz()}"]
    if t.dtype not in (_dtype.get_default_dtype(), _dtype.int64, _dtype.bool):
        suffixes.append(f"dtype={t.dtype!r}")
    suffixes.append(f"layout={t.layout!r}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    body = "tensor(" + (",\n" + " " * indent).join(parts)
    return _printing._add_suffixes(body, suffixes, indent)
