"""``core.sparse``: ``torch.sparse``'s functions on core's COO tensors (``core._sparse_coo``), and its legacy typed
constructors (``torch.sparse.FloatTensor(indices, values, size)``, which older GCN code uses)."""

from core import _dtype
from core import _sparse_compressed_checks as _checks
from core import _sparse_coo_ops as _coo_ops
from core._sparse_coo import SparseCooTensor as _SparseCooTensor
from core._sparse_coo import sparse_coo_tensor as _sparse_coo_tensor
from core._sparse_coo import spmm as _spmm
from core._sparse_coo import to_sparse as _to_sparse
from core._sparse_coo_autograd import sparse_sum as _sparse_sum
from core._tensor import strided as _strided
from core.autograd import grad_mode as _grad_mode

__all__ = ["mm", "sum", "softmax", "log_softmax", "check_sparse_tensor_invariants", "FloatTensor", "DoubleTensor",
           "LongTensor", "IntTensor", "ShortTensor", "CharTensor", "ByteTensor", "HalfTensor"]


def mm(mat1, mat2, reduce="sum"):
    """``torch.sparse.mm``: a sparse matrix times a dense one (a dense result, as PyTorch's for these inputs; a CSR
    matrix's gradient keeps its pattern, as PyTorch's). ``reduce`` other than "sum" combines each row's products
    by "mean", "amax" or "amin" instead (a CSR matrix only, as PyTorch's CPU kernel)."""
    from core._sparse_compressed import sparse_csr
    from core._sparse_compressed_autograd import sparse_mm

    if reduce != "sum":
        return _mm_reduce(mat1, mat2, reduce)[0]
    if mat1.layout is sparse_csr and mat2.layout is _strided and mat1.dim() == mat2.dim() == 2:
        return sparse_mm(mat1, mat2)
    if (isinstance(mat1, _SparseCooTensor) and mat2.layout is _strided and _grad_mode.is_grad_enabled()
            and (mat1.requires_grad or mat2.requires_grad)):
        return _coo_ops.sparse_mm(mat1, mat2)  # torch's SparseAddmmBackward0: a COO gradient for mat1
    return _spmm(mat1, mat2)


def softmax(input, dim, *, dtype=None):  # PyTorch's names
    """``torch.sparse.softmax``: along ``dim`` over the specified entries only (the others count as -inf), a COO
    result (``core._sparse_coo_graph_ops.sparse_softmax``)."""
    return _coo_ops.sparse_softmax(input, dim, dtype)


def log_softmax(input, dim, *, dtype=None):
    """``torch.sparse.log_softmax``: ``softmax``'s logarithm, over the specified entries only."""
    return _coo_ops.sparse_softmax(input, dim, dtype, log=True)


def _mm_reduce(mat1, mat2, reduce):
    """ATen's ``_sparse_mm_reduce_impl``: ``mat1 @ mat2`` with each output row reduced over its stored products by
    ``reduce`` (an empty row gives 0), and for "amax"/"amin" with a gradient to record the position among the stored
    values each output took (``nnz`` where the row is empty; an empty index tensor otherwise)."""
    import core
    from core._sparse_compressed import sparse_csr

    if mat1.layout is not sparse_csr:
        raise NotImplementedError(f"Could not run 'aten::_sparse_mm_reduce_impl' with arguments from the "
                                  f"'{'SparseCPU' if mat1.layout is not _strided else 'CPU'}' backend.")
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)  # (PyTorch's reductions take both spellings)
    if reduce == "prod":
        raise RuntimeError(f"sparse_mm_reduce: reduce type of {reduce} has not been enabled.")
    if reduce not in ("sum", "mean", "amax", "amin"):
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    crow, col, values = mat1.crow_indices(), mat1.col_indices(), mat1.values()
    rows = core.repeat_interleave(core.arange(mat1.shape[0]), crow[1:] - crow[:-1])
    products = values.unsqueeze(-1) * mat2.index_select(0, col)
    index = rows.unsqueeze(-1).expand_as(products)
    out = core.zeros(mat1.shape[0], mat2.shape[1], dtype=products.dtype)
    out = out.scatter_reduce(0, index, products, reduce, include_self=False)
    needs_grad = core.is_grad_enabled() and (values.requires_grad or mat2.requires_grad)
    if reduce not in ("amax", "amin") or not needs_grad:  # PyTorch keeps the positions for its backward only
        return out, core.empty(0, dtype=core.int64)
    chosen = (products == out.index_select(0, rows)).detach()
    positions = core.arange(values.shape[0]).unsqueeze(-1).expand_as(products)
    arg = core.full(out.shape, values.shape[0], dtype=core.int64)
    arg = arg.scatter_reduce(0, index, core.where(chosen, positions, values.shape[0]), "amin", include_self=True)
    padded = core.cat([products, products.new_zeros(1, products.shape[1])])  # (the empty rows' position is nnz)
    return padded.gather(0, arg), arg  # the gradient goes to the chosen product only, as PyTorch's backward


def sum(input, dim=None, dtype=None):  # PyTorch's name
    """``torch.sparse.sum``: a dense 0-d sum of all entries, or a sum over ``dim`` that stays sparse in the sparse
    dims left (entries summing to exactly 0 are dropped here, where PyTorch keeps them); of a COO tensor that needs
    grad with torch's node and a COO gradient (``core._sparse_coo_autograd.sparse_sum``)."""
    dense = input.to_dense() if isinstance(input, _SparseCooTensor) else input
    if dtype is not None:
        dense = dense.to(dtype)
    if dim is None:
        return _sparse_sum(input, None, 0, dtype) if isinstance(input, _SparseCooTensor) else dense.sum()
    dims = [d % dense.dim() for d in ((dim,) if isinstance(dim, int) else dim)]
    sparse_dim = input.sparse_dim() if isinstance(input, _SparseCooTensor) else dense.dim()
    left = sparse_dim - len([d for d in dims if d < sparse_dim])
    if isinstance(input, _SparseCooTensor):
        return _sparse_sum(input, dims, left, dtype)
    out = dense.sum(dims)
    return _to_sparse(out, left) if left else out


class check_sparse_tensor_invariants:
    """``torch.sparse.check_sparse_tensor_invariants``: turns the index checks of the sparse compressed constructors
    on (off by default), as a context manager (``with check_sparse_tensor_invariants():``), a decorator, or through
    ``enable()``/``disable()``; a constructor's ``check_invariants=`` argument overrides it."""

    @staticmethod
    def is_enabled() -> bool:
        return _checks._checks["enabled"]

    @staticmethod
    def enable() -> None:
        _checks.set_invariant_checks(True)

    @staticmethod
    def disable() -> None:
        _checks.set_invariant_checks(False)

    def __init__(self, enable=True):
        self.state = enable
        self.saved_state = None

    def __enter__(self):
        if self.saved_state is not None:
            raise RuntimeError("This context manager instance is already activated. Use a different context manager "
                               "instance for context nesting.")
        self.saved_state = self.is_enabled()
        _checks.set_invariant_checks(self.state)

    def __exit__(self, type, value, traceback):  # PyTorch's parameter names
        _checks.set_invariant_checks(self.saved_state)
        self.saved_state = None

    def __call__(self, mth):
        def test_mth(*args, **kwargs):
            with type(self)(self.state):
                return mth(*args, **kwargs)

        return test_mth


def _legacy(dtype):
    def constructor(indices, values, size=None):
        return _sparse_coo_tensor(indices, values, size, dtype=dtype)

    constructor.__doc__ = f"``torch.sparse.{_dtype_name(dtype)}``: a legacy sparse constructor of that dtype."
    return constructor


def _dtype_name(dtype) -> str:
    names = {_dtype.float32: "FloatTensor", _dtype.float64: "DoubleTensor", _dtype.int64: "LongTensor",
             _dtype.int32: "IntTensor", _dtype.int16: "ShortTensor", _dtype.int8: "CharTensor",
             _dtype.uint8: "ByteTensor", _dtype.float16: "HalfTensor"}
    return names[dtype]


FloatTensor, DoubleTensor, LongTensor, IntTensor = (_legacy(d) for d in (_dtype.float32, _dtype.float64,
                                                                          _dtype.int64, _dtype.int32))
ShortTensor, CharTensor, ByteTensor, HalfTensor = (_legacy(d) for d in (_dtype.int16, _dtype.int8, _dtype.uint8,
                                                                         _dtype.float16))
