"""Sparse COO tensors (``torch.sparse_coo``): ``Tensor.to_sparse()``, ``torch.sparse_coo_tensor``, ``torch.spmm``.

A sparse tensor here keeps PyTorch's COO description (``_indices()``: sparse_dim x nnz int64, ``_values()``: nnz
entries, duplicates allowed until ``coalesce()``) and prints as PyTorch prints it. For computing, it also holds the
dense array those entries make, so every op accepts it and gives what PyTorch's sparse kernels give as a dense
result (``sparse @ dense``, ``dense + sparse``). The ops PyTorch keeps sparse (products, sums of two COO tensors,
the unary maps of the entries, ``sparse.softmax``) live in ``core._sparse_coo_ops``; the methods PyTorch has no
sparse kernel for (``sparse.exp()``) raise its NotImplementedError, other ops give a dense tensor. A tensor made by
``sparse_coo_tensor`` from ``values`` that need grad records ``SparseCooTensorWithDimsAndTensorsBackward0``, and the
ops on it (which compute with its dense array) send that node a gradient, of which each value gets the entry at its
index (peft's SHiRA adapter trains its values so: ``dense_weight += sparse_delta``); ``sparse * 2``, ``2 * sparse``,
``sparse / 2`` and ``-sparse`` (the methods ``mul``/``div``/``neg`` and the functions ``torch.mul``/``div``/``neg``
too) stay sparse and record torch's node. A sparse leaf's gradient through ``to_dense``, ``values()`` and
``torch.sparse.sum`` is a COO tensor over its entries, as torch's. ``values()`` hands out the entries themselves: a
write through it moves the version counter, and the dense mirror is rebuilt from the entries when next read
(``core._sparse_mirror``).

This module holds the layout, the tensor class and ``_make``; making COO tensors (``sparse_coo_tensor``,
``to_sparse``, ``stack``, ``sparse_mask``, ``spmm``) is in ``core._sparse_coo_make`` and their autograd nodes in
``core._sparse_coo_autograd``, both imported at the end of this module, which re-exports what others import here.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _printing
from core._backend import to_numpy_array
from core._sparse_mirror import DENSE_SLOT, DenseMirror, same
from core._tensor import Tensor, _Layout, _object_new, new_tensor
from core.autograd.grad_mode import is_grad_enabled, no_grad

__all__ = ["sparse_coo", "sparse_coo_tensor", "to_sparse", "spmm", "dsmm"]


class _SparseCooLayout(_Layout):
    """``torch.sparse_coo``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "torch.sparse_coo"

    def __reduce__(self):
        return "sparse_coo"


sparse_coo = _SparseCooLayout()

_UNCOALESCED = "Cannot get {} on an uncoalesced tensor, please call .coalesce() first"


class SparseCooTensor(Tensor):
    """A COO tensor: indices and values, plus their dense array for the ops (see the module's docstring)."""

    layout = sparse_coo
    is_sparse = True

    _data = DenseMirror("_sp_synced", "_sp_sync")
    _sp_synced = 0
    _sp_snapshot = None

    @property
    def _sp_values(self):
        """The entries (``nnz`` x dense dims), brought in step with the dense mirror first (``_sp_sync``)."""
        if self._vc[0] != self._sp_synced:
            self._sp_sync()
        return self._sp_vals

    @_sp_values.setter
    def _sp_values(self, values) -> None:
        self._sp_vals = values

    def _indices(self) -> Tensor:
        return new_tensor(self._sp_indices.copy())

    def _values(self) -> Tensor:
        """The values themselves, not a copy (torch's alias: a write into it changes this tensor)."""
        return self._sp_values_alias()

    def _sp_values_alias(self, base=None) -> Tensor:
        """A tensor over the values array sharing this tensor's version counter, so that a write through it reaches
        the dense mirror (``DenseMirror``); ``base`` makes it a view of this tensor, as ``values()`` is."""
        out = _object_new(Tensor)
        out._data = out._root = self._sp_values  # (brought in step first)
        out._vc = self._vc
        if base is not None:
            out._base = base
        return out

    def _sp_sync(self) -> None:
        """Brings the dense mirror and the values back in step after a write (the version counter moved): values
        written through ``values()``/``_values()`` give the dense array anew (in place); an in-place op on this
        tensor itself wrote the dense array, whose entries a coalesced tensor's values then take."""
        if self._vc[0] == self._sp_synced and self._sp_snapshot is not None:
            return
        dense = DENSE_SLOT.__get__(self)
        values, indices = self._sp_vals, tuple(self._sp_indices)
        snapshot = self._sp_snapshot
        if snapshot is not None and not same(values, snapshot):
            dense[...] = 0
            if self._sp_indices.shape[1]:
                np.add.at(dense, indices, values)
        elif snapshot is not None and self._sp_coalesced and self._sp_indices.shape[1]:
            entries = dense[indices]
            if not same(entries, values):
                values[...] = entries
                dense[...] = 0  # (what was written off the entries, a -0.0 among them, is not this tensor's)
                np.add.at(dense, indices, values)
        self._sp_snapshot, self._sp_synced = values.copy(), self._vc[0]

    def indices(self) -> Tensor:
        if not self._sp_coalesced:
            raise RuntimeError(_UNCOALESCED.format("indices"))
        return self._indices()

    def values(self) -> Tensor:
        if not self._sp_coalesced:
            raise RuntimeError(_UNCOALESCED.format("values"))
        if self.requires_grad and is_grad_enabled():
            return _Values.apply(self)
        return self._sp_values_alias(base=self)

    def _nnz(self) -> int:
        return self._sp_indices.shape[1]

    def sparse_dim(self) -> int:
        return self._sp_indices.shape[0]

    def dense_dim(self) -> int:
        return self._sp_values.ndim - 1

    def is_coalesced(self) -> bool:
        return self._sp_coalesced

    def _coalesced_(self, coalesced: bool) -> SparseCooTensor:
        """Marks the entries coalesced (or not) without touching them, in place: the caller vouches for their order
        (PyTorch Geometric does for the COO matrices it built from sorted edge lists). On a non-leaf that needs grad
        it records torch's node, whose backward raises (the op has no derivative)."""
        if self.requires_grad and is_grad_enabled():
            if self.grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
            return _MarkCoalesced.apply(self, coalesced=bool(coalesced))
        self._sp_coalesced = bool(coalesced)
        return self

    def coalesce(self) -> SparseCooTensor:
        """Duplicates summed, entries in row-major order of their indices."""
        if self._sp_coalesced:
            return self
        if self.requires_grad and is_grad_enabled():
            return _Coalesce.apply(self)
        return self._sp_coalesce()

    def _sp_coalesce(self) -> SparseCooTensor:
        """``coalesce()``'s arrays, without a graph (a name under ``_sp_``, which ``dir()`` hides as torch has none)."""
        shape = self._data.shape[:self.sparse_dim()]
        flat = np.ravel_multi_index(tuple(self._sp_indices), shape) if self._nnz() else np.zeros(0, np.int64)
        keys, where = np.unique(flat, return_inverse=True)
        values = np.zeros((len(keys),) + self._sp_values.shape[1:], dtype=self._sp_values.dtype)
        np.add.at(values, where.reshape(-1), self._sp_values)
        indices = np.stack(np.unravel_index(keys, shape)).astype(np.int64).reshape(len(shape), len(keys))
        return _make(indices, values, self._data.shape, coalesced=True)

    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        out = _CooToDense.apply(self) if self.requires_grad and is_grad_enabled() else new_tensor(self._data.copy())
        return out if dtype is None else out.to(dtype)

    def to_sparse(self, *args, **kwargs) -> SparseCooTensor:
        return self

    def to(self, *args, **kwargs) -> SparseCooTensor:
        """``s.to(float64)``, ``s.double()``, ``s.type(...)``: a COO tensor of the entries cast (the indices kept), of
        one that needs grad with torch's ``ToCopyBackward0``. The arguments are read, and refused, as a dense
        tensor's ``to`` reads them, on a 0-d stand-in of this dtype."""
        probe = new_tensor(np.zeros((), dtype=self._sp_values.dtype))
        moved = Tensor.to(probe, *args, **kwargs)
        if moved is probe:  # nothing to change
            return self
        if self.requires_grad and is_grad_enabled() and (moved.is_floating_point() or moved.is_complex()):
            return _SparseToCopy.apply(self, dtype=moved.dtype)
        return _SparseToCopy._cast(self, moved.dtype)

    def transpose(self, dim0: int, dim1: int) -> SparseCooTensor:
        """Two sparse dims swapped: the index rows swap, the entries keep their order (uncoalesced, as PyTorch's);
        of a tensor that needs grad with torch's TransposeBackward0, the gradient transposed back."""
        d0, d1 = dim0 % self.dim(), dim1 % self.dim()
        if max(d0, d1) >= self.sparse_dim():
            return super().transpose(dim0, dim1)
        if self.requires_grad and is_grad_enabled():
            return _ops.transpose(self, dim0, dim1)
        order = list(range(self.sparse_dim()))
        order[d0], order[d1] = d1, d0
        shape = list(self._data.shape)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        return _make(self._sp_indices[order], self._sp_values, shape, coalesced=False)

    def t(self) -> SparseCooTensor:
        if self.dim() != 2:
            return super().t()
        if self.requires_grad and is_grad_enabled():
            return _ops.transpose(self, 0, 1, node=_ops.SparseT)
        return self.transpose(0, 1)

    def select(self, dim: int, index: int):
        """A COO tensor of the entries at ``index`` along ``dim`` (PyTorch's ``select_sparse``): a sparse dim drops
        its index row and keeps the matching entries in order, a dense dim selects in the values; the result is
        marked coalesced only with fewer than two entries. With autograd recording, the dense route (as before)."""
        if self.requires_grad and is_grad_enabled():
            return super().select(dim, index)
        shape = self._data.shape
        if not shape:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        dim = dim + len(shape) if dim < 0 else dim
        if not 0 <= dim < len(shape):
            raise IndexError(f"Dimension out of range (expected to be in range of [{-len(shape)}, {len(shape) - 1}],"
                             f" but got {dim})")
        if not -shape[dim] <= index < shape[dim]:
            raise IndexError(f"select(): index {index} out of range for tensor of size {list(shape)} at dimension "
                             f"{dim}")
        index = index + shape[dim] if index < 0 else index
        indices, values, sparse = self._sp_indices, self._sp_values, self._sp_indices.shape[0]
        if dim < sparse:
            keep = indices[dim] == index
            indices, values = np.delete(indices[:, keep], dim, axis=0), values[keep]
        else:
            indices, values = indices.copy(), np.take(values, index, axis=dim - sparse + 1)
        return _make(indices, np.ascontiguousarray(values), shape[:dim] + shape[dim + 1:], False)

    def unbind(self, dim: int = 0) -> tuple:
        if self.requires_grad and is_grad_enabled():
            return super().unbind(dim)
        return tuple(self.select(dim, i) for i in range(self._data.shape[dim]))

    def __getitem__(self, key):
        if type(key) is int:  # (an int picks a row, as select; other indexing as before)
            return self.select(0, key)
        return super().__getitem__(key)

    def narrow_copy(self, dim: int, start: int, length: int) -> SparseCooTensor:
        """The entries within ``[start, start + length)`` of ``dim`` (a sparse dim filters the entries and shifts
        their indices, a dense dim narrows the values), as PyTorch's ``narrow_copy_sparse``."""
        if not 0 <= dim < self.dim():
            raise RuntimeError(f"Dimension {dim} out of range. Expecting 0 <= dim < {self.dim()}.")
        d = dim
        size = self._data.shape[d]
        if not (0 <= start and 0 <= length and start + length <= size):
            raise RuntimeError(f"Invalid range to narrow. range(start, start+length) must be a subset of "
                               f"range(0, {size}).")
        shape = list(self._data.shape)
        shape[d] = length
        if d < self.sparse_dim():
            keep = (self._sp_indices[d] >= start) & (self._sp_indices[d] < start + length)
            indices = self._sp_indices[:, keep].copy()
            indices[d] -= start
            return _make(indices, self._sp_values[keep].copy(), shape, self._sp_coalesced)
        vd = d - self.sparse_dim() + 1
        values = np.take(self._sp_values, np.arange(start, start + length), axis=vd)
        return _make(self._sp_indices.copy(), values, shape, self._sp_coalesced)

    def _scaled(self, fn, node=None, by=None) -> SparseCooTensor:
        """The entries mapped by ``fn`` (a scalar product, quotient or negation), the indices kept; where this
        tensor needs grad (and the scalar does not) the ``node`` Function records torch's node for it."""
        if node is not None and self.requires_grad and is_grad_enabled() and not getattr(by, "requires_grad", False):
            return node.apply(self, fn=fn)
        values = fn(self._values())
        return _make(self._sp_indices, to_numpy_array(values._data), self._data.shape, self._sp_coalesced)

    def __mul__(self, other):
        """``s * 2`` scales the entries; ``s * t`` with a tensor is the sparse product (``core._sparse_coo_ops.mul``,
        a COO result as torch's) unless ``t`` would grow ``s`` by broadcasting (the dense op)."""
        if is_scalar_factor(other):
            return self._scaled(lambda v: v * other, _SparseMul, other)
        out = _ops.mul(self, other) if isinstance(other, Tensor) else None
        return super().__mul__(other) if out is None else out

    def __rmul__(self, other):
        if is_scalar_factor(other):
            return self._scaled(lambda v: other * v, _SparseMul, other)
        out = _ops.mul(other, self) if isinstance(other, Tensor) else None
        return super().__rmul__(other) if out is None else out

    def __truediv__(self, other):
        if is_scalar_factor(other):
            return self._scaled(lambda v: v / other, _SparseDiv, other)
        refuse_tensor_divisor(other)
        return super().__truediv__(other)

    def __neg__(self):
        return self._scaled(lambda v: -v, _SparseNeg)

    def __add__(self, other):
        """``s1 + s2`` of two COO tensors: torch's merge of the two entry lists, a COO result (with AddBackward0
        where one needs grad); a dense tensor or a number is torch's error (``dense + s`` is the dense sum)."""
        return self.add(other)

    def __sub__(self, other):
        return self.sub(other)

    def add(self, other, *, alpha=1):
        if _ops.takes_sum(other):
            return _ops.add(self, other, alpha)
        return super().add(other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        if _ops.takes_sum(other):
            return _ops.add(self, other, alpha, name="sub")
        return super().sub(other, alpha=alpha)

    def add_(self, other, *, alpha=1):
        """In place: another COO tensor's entries merged in (``s1 + s2``'s entries become this tensor's, its new
        indices too); a dense tensor or a number is torch's error, as for ``s + 1``."""
        _ops.refuse_dense_sum(other)
        if isinstance(other, SparseCooTensor) and not (self.requires_grad and is_grad_enabled()):
            with no_grad():
                return self._sp_take(_ops.add(self, other, alpha))
        return super().add_(other, alpha=alpha)

    def sub_(self, other, *, alpha=1):
        _ops.refuse_dense_sum(other)
        if isinstance(other, SparseCooTensor) and not (self.requires_grad and is_grad_enabled()):
            with no_grad():
                return self._sp_take(_ops.add(self, other, alpha, name="sub"))
        return super().sub_(other, alpha=alpha)

    def _sp_take(self, other: SparseCooTensor) -> SparseCooTensor:
        """This tensor becomes ``other``'s entries (an in-place result with new indices), its version moved."""
        self._sp_indices, self._sp_vals, self._sp_coalesced = other._sp_indices, other._sp_vals, other._sp_coalesced
        dense = DENSE_SLOT.__get__(other)
        self._root = dense
        DENSE_SLOT.__set__(self, dense)
        self._vc[0] += 1
        self._sp_snapshot, self._sp_synced = self._sp_vals.copy(), self._vc[0]
        return self

    __iadd__, __isub__ = add_, sub_

    def mul(self, other):
        """``s.mul(2)``, ``s.multiply(t)``: sparse as ``s * 2`` and ``s * t``."""
        return self.__mul__(other)

    def div(self, other, *, rounding_mode=None):
        """``s.div(2)``, ``s.divide``, ``s.true_divide``: sparse as ``s / 2``, with a rounding mode too (torch's
        ``DivBackward2``, whose gradient is an empty COO tensor); a dense divisor takes the dense op."""
        if rounding_mode is None and is_scalar_factor(other):
            return self.__truediv__(other)
        if rounding_mode in ("floor", "trunc") and is_scalar_factor(other):
            return self._scaled(lambda v: v.div(other, rounding_mode=rounding_mode), _SparseDivRounding, other)
        refuse_tensor_divisor(other)
        return super().div(other, rounding_mode=rounding_mode)

    def true_divide(self, other):
        return self.div(other)

    def neg(self):
        return self.__neg__()

    multiply, divide, negative, subtract = mul, div, neg, sub

    def pow(self, exponent):
        """``s.pow(p)``, ``s ** p`` with a number: the entries raised, sparse (torch's error for ``p == 0``)."""
        out = _ops.pow(self, exponent)
        return super().pow(exponent) if out is None else out

    __pow__ = pow

    def square(self):
        return _ops.unary(self, "square", lambda v: v.square(), "PowBackward0", lambda v, out: v * 2)

    def detach(self) -> SparseCooTensor:
        """A sparse tensor over the same entries, out of the graph (sharing the version counter as torch's does, so a
        write through either reaches the other's dense mirror)."""
        out = _make(self._sp_indices, self._sp_values, self._data.shape, self._sp_coalesced)
        out._vc = self._vc
        out._sp_synced = self._vc[0]
        return out

    def clone(self, *, memory_format=None) -> SparseCooTensor:
        return _make(self._sp_indices.copy(), self._sp_values.copy(), self._data.shape, self._sp_coalesced)

    def __deepcopy__(self, memo):
        return memo.setdefault(id(self), self.clone())

    def __reduce_ex__(self, protocol):  # torch.save / pickle keep it sparse (weights_only loads allow it)
        return (_rebuild_sparse, (self._sp_indices.copy(), self._sp_values.copy(), tuple(self._data.shape),
                                  self._sp_coalesced))

    def __repr__(self) -> str:
        return _sparse_repr(self)

    __str__ = __repr__


def refuse_tensor_divisor(other) -> None:
    """torch's error for ``s / t`` with a tensor ``t`` of one dim or more (dense or sparse): no sparse kernel."""
    if isinstance(other, Tensor) and other.dim() > 0:
        raise RuntimeError(f"Sparse division requires a scalar or zero-dim dense tensor divisor (got shape "
                           f"{list(other.shape)} for divisor)")


def is_scalar_factor(x) -> bool:
    """A number or a 0-d dense tensor: what ``s * x`` scales the entries by, the result staying sparse."""
    return isinstance(x, (int, float, bool)) or (isinstance(x, Tensor) and not x.is_sparse and x.dim() == 0
                                                 and not x.requires_grad)  # (one that needs grad: the dense op's graph)


def _make(indices: np.ndarray, values: np.ndarray, size, coalesced: bool) -> SparseCooTensor:
    dense = np.zeros(tuple(size), dtype=values.dtype)
    if indices.shape[1]:
        np.add.at(dense, tuple(indices), values)
    t = _object_new(SparseCooTensor)
    t._data = t._root = dense
    t._vc = [0]
    t._sp_indices, t._sp_values, t._sp_coalesced = indices, values, coalesced or indices.shape[1] < 2
    t._sp_snapshot = values.copy()
    return t


def _rebuild_sparse(indices, values, size, coalesced) -> SparseCooTensor:
    return _make(indices, values, size, coalesced)


def _sparse_repr(t: SparseCooTensor) -> str:
    """PyTorch's layout: ``tensor(indices=tensor(...),\\n       values=tensor(...),\\n       size=..., nnz=...``."""
    indent = len("tensor(")
    suffixes = [f"size={tuple(t.shape)}", f"nnz={t._nnz()}"]
    if t.dtype not in (_dtype.get_default_dtype(), _dtype.int64, _dtype.bool):
        suffixes.append(f"dtype={t.dtype!r}")
    parts = []
    for name, arr in (("indices", t._sp_indices), ("values", t._sp_values)):
        prefix = f"{name}=tensor("
        text = _printing._tensor_str(arr, indent + len(prefix))
        if arr.size == 0:
            text += f", size={tuple(arr.shape)}"
        parts.append(prefix + text + ")")
    suffixes.append(f"layout={t.layout!r}")
    body = "tensor(" + (",\n" + " " * indent).join(parts) + ",\n" + " " * indent + suffixes[0]  # always a new line
    return _printing._add_suffixes(body, suffixes[1:], indent)


# making COO tensors and their autograd nodes build on the class and _make above: imported after them
from core import _sparse_coo_ops as _ops  # noqa: E402  (its ops build their results with _make from here)
from core._sparse_coo_autograd import (  # noqa: E402
    _Coalesce,
    _CooToDense,
    _MarkCoalesced,
    _SparseDiv,
    _SparseDivRounding,
    _SparseMul,
    _SparseNeg,
    _SparseToCopy,
    _Values,
)
from core._sparse_coo_make import dsmm, sparse_coo_tensor, spmm, to_sparse  # noqa: E402
from core._sparse_coo_make import sparse_mask as sparse_mask  # noqa: E402  (core.ops reads these two here)
from core._sparse_coo_make import stack as stack  # noqa: E402

for _name in _ops.UNARY:
    setattr(SparseCooTensor, _name, _ops.unary_method(_name))
for _name, _op in _ops.ALIASES.items():
    setattr(SparseCooTensor, _name, _ops.unary_method(_op))
for _name, _op in [*((n, n) for n in _ops.UNARY), *_ops.ALIASES.items(), ("neg", "neg"), ("negative", "neg")]:
    if _name not in ("signbit", "isnan", "isinf", "isposinf", "isneginf"):  # (no in-place forms)
        setattr(SparseCooTensor, _name + "_", _ops.inplace_method(_name, _op))
for _name in _ops.NO_KERNEL:
    setattr(SparseCooTensor, _name, _ops.no_kernel_method(_name))
