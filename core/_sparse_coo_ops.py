"""Sparse COO arithmetic that stays sparse, as PyTorch's SparseCPU kernels: products with a dense or sparse tensor,
sums and differences of two COO tensors (with a graph too), the zero-preserving unary maps of the entries, and
``torch.sparse.softmax``/``log_softmax``/``mm``'s graphs.

Each op computes on the entries (``_sp_indices``/``_sp_values``) and records PyTorch's node where an input needs
grad. A sparse gradient that reaches a leaf is marked uncoalesced, as PyTorch's AccumulateGrad leaves the one it
takes over (it rebuilds it without the flag); an empty one (a step function's) stays coalesced, as torch's.
``transpose``, ``sparse_softmax`` and ``sparse_mm`` live in ``core._sparse_coo_graph_ops`` and are re-exported here.
"""

from __future__ import annotations

import math

import numpy as np

from core._backend import to_numpy_array
from core._sparse_coo import SparseCooTensor, _make, sparse_coo
from core._tensor import Tensor, new_tensor, strided
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled, no_grad

__all__ = ["mul", "add", "unary", "pow", "sparse_softmax", "sparse_mm", "transpose", "sparse_function", "nan_to_num",
           "nan_to_num_"]


def _coalesced(t: SparseCooTensor) -> SparseCooTensor:
    return t if t._sp_coalesced else t._sp_coalesce()


def _values(t: SparseCooTensor) -> Tensor:
    return new_tensor(t._sp_values)


def _uncoalesced(t):
    """A sparse gradient as a leaf receives it from PyTorch's AccumulateGrad: not marked coalesced (unless empty)."""
    if getattr(t, "is_sparse", False) and t._nnz() > 1:
        t._sp_coalesced = False
    return t


def _in_order(t: SparseCooTensor) -> bool:
    keys = _keys(t)
    return bool(np.all(keys[1:] > keys[:-1]))


def _flagged(g):
    """An incoming COO gradient marked coalesced where its entries are (each index once, in order): torch's
    gradient of ``to_dense`` is, and its products take the coalesced route then (core marks that gradient
    uncoalesced, as a leaf receives it)."""
    if getattr(g, "is_sparse", False) and not g._sp_coalesced and _in_order(g):
        return _make(g._sp_indices, g._sp_values, g.shape, coalesced=True)
    return g


def _needs_graph(*tensors) -> bool:
    return is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in tensors)


# ----- products ------------------------------------------------------------------------------------------------------

def _mul_values(a, b):
    """The product of two entry-value arrays (or a value array and the dense factor's entries), in core's dtype."""
    return to_numpy_array((new_tensor(a) * new_tensor(b))._data)


def _sparse_times_dense(s: SparseCooTensor, d: Tensor, dense_first: bool) -> SparseCooTensor | None:
    """``s * d`` with ``d`` broadcast to ``s``'s shape: the entries of ``s`` times ``d`` there, ``s``'s indices (order
    and coalesced flag kept); None when ``d`` does not broadcast to ``s``'s shape (PyTorch's result would grow)."""
    arr = np.asarray(to_numpy_array(d.detach()._data))
    try:
        full = np.broadcast_to(arr, s.shape)
    except ValueError:
        return None
    at = full[tuple(s._sp_indices)]
    values = _mul_values(at, s._sp_values) if dense_first else _mul_values(s._sp_values, at)
    return _make(s._sp_indices, values, s.shape, s._sp_coalesced)


def _sparse_times_sparse(a: SparseCooTensor, b: SparseCooTensor) -> SparseCooTensor:
    """``a * b`` of two COO tensors of one shape, as PyTorch's intersection kernel: both coalesced, the entries
    both hold (a coalesced result); else the entries of the uncoalesced one (``a`` if both are), in its order, times
    the other's (coalesced) entry at the same index, those the other lacks left out."""
    if a._sp_coalesced and b._sp_coalesced:
        keys_a, keys_b = _keys(a), _keys(b)
        keys, ia, ib = np.intersect1d(keys_a, keys_b, assume_unique=True, return_indices=True)
        values = _mul_values(a._sp_values[ia], b._sp_values[ib])
        shape = a.shape[:a.sparse_dim()]
        indices = np.stack(np.unravel_index(keys, shape)).astype(np.int64).reshape(len(shape), len(keys))
        return _make(indices, values, a.shape, coalesced=True)
    source, other = (a, _coalesced(b)) if not a._sp_coalesced else (b, a)
    keys, other_keys = _keys(source), _keys(other)
    where = np.searchsorted(other_keys, keys)
    hit = where < len(other_keys)
    hit[hit] = other_keys[where[hit]] == keys[hit]
    source_values, other_values = source._sp_values[hit], other._sp_values[where[hit]]
    values = (_mul_values(source_values, other_values) if source is a
              else _mul_values(other_values, source_values))
    return _make(source._sp_indices[:, hit], values, a.shape, coalesced=False)


def _keys(t: SparseCooTensor) -> np.ndarray:
    """Each entry's index as one row-major number over the sparse dims."""
    if not t._nnz():
        return np.zeros(0, np.int64)
    return np.ravel_multi_index(tuple(t._sp_indices), tuple(t.shape[:t.sparse_dim()]))


def _product(a, b):
    """``a * b`` where one of them may be sparse (a gradient and a saved input in a backward too); None where the
    sparse kernels do not apply (the dense op's broadcast would grow the sparse operand)."""
    a_sparse, b_sparse = isinstance(a, SparseCooTensor), isinstance(b, SparseCooTensor)
    if a_sparse and b_sparse:
        return _sparse_times_sparse(a, b)
    if a_sparse:
        return _sparse_times_dense(a, b, dense_first=False)
    if b_sparse:
        return _sparse_times_dense(b, a, dense_first=True)
    return a * b


def mul(a, b):
    """``s * t``, ``t * s``, ``torch.mul(s, t)`` of a COO tensor and a tensor (dense or COO): a COO result, with
    PyTorch's ``MulBackward0`` where an operand needs grad; None for the dense op (a dense operand that would grow
    the sparse one by broadcasting)."""
    if isinstance(a, SparseCooTensor) and isinstance(b, SparseCooTensor) and a.shape != b.shape:
        return None
    sparse, dense = (a, b) if isinstance(a, SparseCooTensor) else (b, a)
    if not isinstance(dense, SparseCooTensor):
        if dense.layout is not strided:  # (a compressed layout: the dense route's errors)
            return None
        try:
            np.broadcast_shapes(tuple(dense.shape), tuple(sparse.shape))
            if np.broadcast_shapes(tuple(dense.shape), tuple(sparse.shape)) != tuple(sparse.shape):
                return None
        except ValueError:
            return None
    if _needs_graph(a, b):
        return _SparseMulTensors.apply(a, b)
    return _product(a, b)


def _to_dtype(g, dtype):
    return g if g is None or g.dtype == dtype else g.to(dtype)


def _sum_to(g, shape):
    """A gradient summed down to a broadcast operand's shape, as PyTorch's ``sum_to``: a sparse one keeps its layout
    where only sizes of 1 were broadcast (the entries that share the other indices add up), and a sparse one that
    must lose dims is PyTorch's error (its ``view`` has no sparse kernel)."""
    if tuple(g.shape) == tuple(shape):
        return g
    if not g.is_sparse:
        return g.sum_to_size(*shape) if len(shape) else g.sum()
    if len(shape) != g.dim():
        raise _no_sparse_kernel("view")
    dims = [d for d, n in enumerate(shape) if n == 1 and g.shape[d] != 1]
    if any(d >= g.sparse_dim() for d in dims):  # (a dense dim of a hybrid gradient: summed as a dense one)
        return g.to_dense().sum_to_size(*shape)
    indices = g._sp_indices.copy()
    indices[dims] = 0
    return _make(indices, g._sp_values, shape, coalesced=False)._sp_coalesce()


class _SparseMulTensors(Function):
    """A product with a COO operand: each operand's gradient is the incoming one times the other operand, by the
    same sparse product (a COO gradient with the entries both hold; a dense one where the incoming gradient and the
    other operand are dense), as PyTorch's ``mul_tensor_backward``."""

    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        ctx.args = (a.dtype, tuple(a.shape), b.dtype, tuple(b.shape))
        return _product(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        a_dtype, a_shape, b_dtype, b_shape = ctx.args
        ga = gb = None
        g = _flagged(g)
        with no_grad():
            if ctx.needs_input_grad[0]:
                ga = _uncoalesced(_sum_to(_to_dtype(_product(g, b.detach()), a_dtype), a_shape))
            if ctx.needs_input_grad[1]:
                gb = _uncoalesced(_sum_to(_to_dtype(_product(g, a.detach()), b_dtype), b_shape))
        return ga, gb


# ----- sums and differences ------------------------------------------------------------------------------------------

_ADD_DENSE = "add(sparse, dense) is not supported. Use add(dense, sparse) instead."  # (sub's too)


def takes_sum(other) -> bool:
    """What ``s + other`` answers here: a COO tensor (the merge), or a dense tensor or a number (torch's error)."""
    return isinstance(other, (int, float, bool, complex)) or (
        isinstance(other, Tensor) and other.layout in (sparse_coo, strided))


def refuse_dense_sum(other) -> None:
    """torch's error for adding a dense tensor or a number into a COO tensor (it only adds sparse into dense)."""
    if not isinstance(other, SparseCooTensor) and takes_sum(other):
        raise RuntimeError(_ADD_DENSE)


def add(a: SparseCooTensor, b, alpha=1, name: str = "add"):
    """``s1 + s2``, ``s1 - s2``, ``s1.add(s2, alpha=...)`` of two COO tensors: PyTorch's merge of their entry lists,
    a COO result, with its ``AddBackward0``/``SubBackward0`` where one needs grad (``alpha`` is negated for a
    difference); a dense or number ``b`` is PyTorch's RuntimeError (it only adds a sparse tensor into a dense one)."""
    if not isinstance(b, SparseCooTensor):
        raise RuntimeError(_ADD_DENSE)
    if a.shape != b.shape:
        raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but {list(a.shape)} != "
                           f"{list(b.shape)}")  # (sub's too)
    scale = -alpha if name == "sub" else alpha
    if _needs_graph(a, b):
        return (_SparseSub if name == "sub" else _SparseAdd).apply(a, b, scale=scale)
    return _merge(a, b, scale)


def _merge(a: SparseCooTensor, b: SparseCooTensor, alpha) -> SparseCooTensor:
    from core.autograd.sparse_grad import sparse_add  # (it imports _make from core._sparse_coo, as this module)

    if alpha != 1:
        b = _make(b._sp_indices, to_numpy_array((_values(b) * alpha)._data), b.shape, b._sp_coalesced)
    return sparse_add(a, b)


class _SparseAdd(Function):
    """``s1 + alpha * s2`` with a graph: ``s1`` gets the incoming gradient and ``s2`` it times ``alpha``. With
    ``alpha`` 1 PyTorch hands both the same tensor, so the first leaf takes a copy (that keeps the coalesced flag)."""

    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, *, scale):
        out = _merge(a, b, scale)
        ctx.args = (scale, a.dtype, b.dtype)
        return out

    @staticmethod
    def backward(ctx, g):
        scale, a_dtype, b_dtype = ctx.args
        gb = g if scale == 1 else g * scale if g.is_sparse else g.mul(scale)
        ga = g
        if gb is g and g.is_sparse:  # the same tensor for both: the first leaf takes a copy, with the flag (torch's
            ga = _make(g._sp_indices.copy(), g._sp_values.copy(), g.shape, _in_order(g))  # as _flagged says)
        return _to_dtype(ga, a_dtype), _to_dtype(gb, b_dtype)


class _SparseSub(_SparseAdd):
    node_name = "SubBackward0"


# ----- unary maps of the entries ------------------------------------------------------------------------------------

def _no_sparse_kernel(op: str) -> NotImplementedError:
    return NotImplementedError(f"Could not run 'aten::{op}' with arguments from the 'SparseCPU' backend. This could "
                               "be because the operator doesn't exist for this backend, or was omitted during the "
                               "selective/custom build process (if using custom build).")


def _backward_fails(error):
    def derivative(v, out):
        raise error()
    return derivative


_ADD_SPARSE_DENSE = _backward_fails(lambda: RuntimeError(_ADD_DENSE))


def _const(c):
    return lambda v, out: c


# op -> (PyTorch's node, the derivative of the entries: None for a step function (an empty gradient), a function of
# the input and output values, or one that raises the error PyTorch's backward raises for a sparse gradient)
UNARY = {
    "abs": ("AbsBackward0", lambda v, out: v.sgn()),
    "frac": ("FracBackward0", _const(1.0)),
    "log1p": ("Log1PBackward0", lambda v, out: (v + 1).reciprocal()),
    "relu": ("ReluBackward0", lambda v, out: (out > 0).to(out.dtype)),
    "deg2rad": ("Deg2RadBackward0", _const(math.pi / 180)),
    "rad2deg": ("Rad2DegBackward0", _const(180 / math.pi)),
    "sign": ("SignBackward0", None), "floor": ("FloorBackward0", None), "ceil": ("CeilBackward0", None),
    "round": ("RoundBackward0", None), "trunc": ("TruncBackward0", None),
    "sgn": ("SgnBackward0", _backward_fails(lambda: _no_sparse_kernel("_efficientzerotensor"))),
    "sqrt": ("SqrtBackward0", _backward_fails(lambda: RuntimeError(
        "Sparse division requires a scalar or zero-dim dense tensor divisor"))),
    "sin": ("SinBackward0", _backward_fails(lambda: _no_sparse_kernel("cos"))),
    "sinh": ("SinhBackward0", _backward_fails(lambda: _no_sparse_kernel("cosh"))),
    "tanh": ("TanhBackward0", _backward_fails(lambda: _no_sparse_kernel("tanh_backward"))),
    "erf": ("ErfBackward0", _backward_fails(lambda: _no_sparse_kernel("exp"))),
    "erfinv": ("ErfinvBackward0", _backward_fails(lambda: _no_sparse_kernel("exp"))),
    "atanh": ("AtanhBackward0", _backward_fails(lambda: RuntimeError(
        "memory format option is only supported by strided tensors"))),
    "tan": ("TanBackward0", _ADD_SPARSE_DENSE), "asin": ("AsinBackward0", _ADD_SPARSE_DENSE),
    "atan": ("AtanBackward0", _ADD_SPARSE_DENSE), "asinh": ("AsinhBackward0", _ADD_SPARSE_DENSE),
    "expm1": ("Expm1Backward0", _ADD_SPARSE_DENSE),
    "signbit": (None, None), "isnan": (None, None), "isinf": (None, None), "isposinf": (None, None),
    "isneginf": (None, None),
}

# PyTorch's alias methods of ``UNARY``'s ops (``s.arcsin()`` is ``s.asin()``: sparse too)
ALIASES = {"absolute": "abs", "arcsin": "asin", "arcsinh": "asinh", "arctan": "atan", "arctanh": "atanh",
           "fix": "trunc"}


# the methods whose op PyTorch has no SparseCPU kernel for (its NotImplementedError names the aten op: arccos's is
# acos); the functions (torch.exp(s)) call them (``sparse_function``)
NO_KERNEL = {name + suffix: aten + suffix for name, aten in (
    ("exp", "exp"), ("exp2", "exp2"), ("cos", "cos"), ("cosh", "cosh"), ("acos", "acos"), ("arccos", "acos"),
    ("acosh", "acosh"), ("arccosh", "acosh"), ("log", "log"), ("log2", "log2"), ("log10", "log10"),
    ("sigmoid", "sigmoid"), ("logit", "logit"), ("rsqrt", "rsqrt"), ("reciprocal", "reciprocal"), ("erfc", "erfc"),
    ("lgamma", "lgamma"), ("digamma", "digamma"), ("i0", "i0"), ("sinc", "sinc")) for suffix in ("", "_")}
NO_KERNEL["square_"] = "pow_.Scalar"  # (torch's square_ is pow_(2), which has no sparse kernel)
NO_KERNEL["isfinite"] = "ne.Scalar"  # (torch's isfinite is ``x == x`` and ``abs(x) != inf``: ne has no sparse kernel)
NO_KERNEL.update({"angle": "angle", "logical_not": "logical_not.out", "bitwise_not": "bitwise_not",
                  "logical_not_": "logical_not.out", "bitwise_not_": "bitwise_not_"})


def sparse_function(name: str, input, *args):
    """``torch.exp(s)``, ``torch.abs(s)``, ``torch.pow(s, 2)``...: for a COO tensor, its method ``s.exp()`` (sparse,
    or PyTorch's NotImplementedError where it has no sparse kernel), as PyTorch's dispatcher sends the function and the
    method to one SparseCPU kernel; None for any other tensor. The functions ask only when ``type(input) is not
    Tensor`` (a dense tensor pays that identity test, no isinstance)."""
    if isinstance(input, SparseCooTensor):
        method = SparseCooTensor.__dict__.get(name)
        if method is not None:
            return method(input, *args)
    return None


def no_kernel_method(name: str):
    """The ``SparseCooTensor`` method ``name`` of ``NO_KERNEL``: PyTorch's dispatcher error for a COO tensor."""
    def method(self, *args, **kwargs):
        raise _no_sparse_kernel(NO_KERNEL[name])
    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``s.{name}()``: PyTorch has no sparse COO kernel for it (NotImplementedError)."
    return method


def unary_method(op: str):
    """The ``SparseCooTensor`` method for ``UNARY``'s ``op``."""
    def method(self):
        return unary(self, op)
    method.__name__ = method.__qualname__ = op
    method.__doc__ = f"``s.{op}()``: ``{op}`` of the entries, a COO tensor (``core._sparse_coo_ops.unary``)."
    return method


def inplace_method(op: str, aten: str):
    """The ``SparseCooTensor`` method ``s.abs_()`` (``op + "_"``) of ``UNARY``'s ops and ``neg``: the entries
    overwritten by ``op`` of them, as torch's in-place sparse kernels, which refuse an uncoalesced tensor
    ("``aten``_ requires coalesced input"; ``neg_`` takes one). Where a graph records it or the result's dtype
    differs (``sqrt_`` of integers), the dense in-place op runs as before."""
    name = op + "_"

    def method(self, *args, **kwargs):
        if args or kwargs or (self.requires_grad and is_grad_enabled()):
            return getattr(Tensor, name)(self, *args, **kwargs)
        if not self._sp_coalesced and op not in ("neg", "negative"):
            raise RuntimeError(f"{aten}_ requires coalesced input")
        values = self._sp_values
        out = to_numpy_array(getattr(new_tensor(values), op)()._data)
        if out.dtype != values.dtype:
            return getattr(Tensor, name)(self)
        values[...] = out
        self._vc[0] += 1  # (the dense mirror is rebuilt from the entries when next read)
        return self

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``s.{name}()``: ``{op}`` of the entries, in place (``core._sparse_coo_ops.inplace_method``)."
    return method


def unary(t: SparseCooTensor, op: str, fn=None, node: str | None = None, derivative=None) -> SparseCooTensor:
    """``s.abs()``, ``s.sqrt()``, ``s.floor()``...: ``op`` of the entries (coalesced first, as PyTorch's kernels),
    the indices kept; of a tensor that needs grad with PyTorch's node (``UNARY``)."""
    if node is None and derivative is None:
        node, derivative = UNARY[op]
    fn = fn or (lambda v: getattr(v, op)())
    c = _coalesced(t)
    if node is not None and t.requires_grad and is_grad_enabled():
        return _node_class(node).apply(t, fn=fn, derivative=derivative)
    return _make(c._sp_indices, to_numpy_array(fn(_values(c))._data), t.shape, True)


def _no_csr_kernel(op: str) -> NotImplementedError:
    return NotImplementedError(f"Could not run 'aten::{op}' with arguments from the 'SparseCsrCPU' backend. This "
                               "could be because the operator doesn't exist for this backend, or was omitted during "
                               "the selective/custom build process (if using custom build).")


# (torch's nan_to_num backward masks the gradient with ``x != x``-style tests, which have no sparse kernel)
_NAN_TO_NUM_GRAD = _backward_fails(lambda: _no_sparse_kernel("ne.Scalar"))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, out=None):
    """``torch.nan_to_num`` of a sparse input or into a sparse ``out``, as PyTorch's kernels: a COO tensor's
    entries mapped (coalesced first), a COO ``out`` taking the result; a compressed (CSR/CSC/BSR/BSC) tensor has no
    kernel. None for dense tensors, which take the dense op."""
    sparse_in, sparse_out = isinstance(input, SparseCooTensor), isinstance(out, SparseCooTensor)
    for t in (input, out):
        if isinstance(t, Tensor) and t.layout is not strided and not isinstance(t, SparseCooTensor):
            raise _no_csr_kernel("nan_to_num.out")
    if not (sparse_in or sparse_out):
        return None
    if out is not None and not (sparse_in and sparse_out):
        raise RuntimeError("Expected self.is_sparse() && result.is_sparse() to be true, but got false.  (Could this "
                           "error message be improved?  If so, please report an enhancement request to PyTorch.)")
    result = unary(input, "nan_to_num", fn=lambda v: v.nan_to_num(nan, posinf, neginf), node="NanToNumBackward0",
                   derivative=_NAN_TO_NUM_GRAD)
    return result if out is None else out._sp_take(result)


def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
    """``s.nan_to_num_()`` of a COO tensor: its entries replaced, which torch's kernel refuses uncoalesced; a
    compressed tensor has no kernel. None for dense tensors and a graph's (the dense in-place op's checks)."""
    if isinstance(self, Tensor) and self.layout is not strided and not isinstance(self, SparseCooTensor):
        raise _no_csr_kernel("nan_to_num.out")
    if not isinstance(self, SparseCooTensor) or (self.requires_grad and is_grad_enabled()):
        return None
    if not self._sp_coalesced:
        raise RuntimeError("nan_to_num_ requires coalesced input")
    values = self._sp_values
    values[...] = to_numpy_array(new_tensor(values).nan_to_num(nan, posinf, neginf)._data)
    self._vc[0] += 1  # (the dense mirror is rebuilt from the entries when next read)
    return self


_NODES: dict = {}


def _node_class(name: str):
    if name not in _NODES:
        _NODES[name] = type(f"_Sparse{name}", (_SparseUnary,), {"node_name": name})
    return _NODES[name]


class _SparseUnary(Function):
    """A map of a COO tensor's entries: the gradient is the incoming one at the entries times the derivative there
    (a sparse product), none for a step function, or the error PyTorch's sparse backward raises."""

    @staticmethod
    def forward(ctx, t, *, fn, derivative):
        c = _coalesced(t)
        values = _values(c)
        out = fn(values)
        ctx.args = (c._sp_indices, values, out, derivative, t.shape, t.dtype)
        return _make(c._sp_indices, to_numpy_array(out._data), t.shape, True)

    @staticmethod
    def backward(ctx, g):
        indices, values, out, derivative, shape, dtype = ctx.args
        if derivative is None:  # zeros_like of the gradient: no entries
            if not g.is_sparse:
                return g.new_zeros(g.shape)
            return _make(g._sp_indices[:, :0], g._sp_values[:0], shape, True)
        with no_grad():
            coef = derivative(values, out)
            if not isinstance(coef, Tensor):
                coef = values.new_full(values.shape, coef)
            factor = _make(indices, to_numpy_array(coef._data), shape, True)
            return _uncoalesced(_to_dtype(_product(g, factor), dtype))


def pow(t: SparseCooTensor, exponent) -> SparseCooTensor | None:
    """``s.pow(p)``, ``s ** p``, ``s.square()`` with a number ``p``: the entries raised (PyTorch's ``PowBackward0``);
    a zeroth power is PyTorch's error (the result would be dense); None for a tensor exponent (the dense op)."""
    if isinstance(exponent, Tensor) or not isinstance(exponent, (int, float)):
        return None
    if exponent == 0:
        raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would make the result tensor "
                           "dense")
    return unary(t, "pow", lambda v: v.pow(exponent), "PowBackward0",
                 lambda v, out: v.pow(exponent - 1) * exponent)


# transpose, softmax and mm with their graphs build on the helpers above: imported after them
from core._sparse_coo_graph_ops import SparseT as SparseT  # noqa: E402  (core._sparse_coo's t())
from core._sparse_coo_graph_ops import sparse_mm, sparse_softmax, transpose  # noqa: E402
