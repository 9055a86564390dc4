"""``Tensor``'s methods of the other layouts (sparse, compressed, quantized) on a strided tensor: the conversions to
them, and PyTorch's errors where only such a tensor answers.

Split out of ``core/_tensor.py``, whose class body binds each of these by name (``core._tensor_method`` names them
``Tensor.<name>``); ``core._sparse_coo``, ``core._sparse_compressed`` and ``core._quantized`` subclass ``Tensor``
with the real ones.
"""

from __future__ import annotations

from core._tensor_method import method

__all__ = ["no_cpu_kernel"]


def _strided_layout_error(name: str, want: str):
    raise RuntimeError(f"{name} expected {want} layout but got Strided")


def no_cpu_kernel(op: str):
    """PyTorch's error for an op with no kernel for strided CPU tensors (a sparse, quantized or nested one)."""
    raise NotImplementedError(f"Could not run 'aten::{op}' with arguments from the 'CPU' backend. This could be "
                              "because the operator doesn't exist for this backend, or was omitted during the "
                              "selective/custom build process (if using custom build).")


@method
def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None):
    """A sparse copy: ``torch.sparse_coo`` (``core._sparse_coo``) by default, or the compressed ``layout``
    (``core._sparse_compressed``: ``sparse_csr``, ``sparse_csc``, ``sparse_bsr``, ``sparse_bsc``)."""
    from core._sparse_compressed import convert  # it subclasses Tensor

    return convert(self, layout, blocksize, dense_dim, sparse_dim=sparse_dim, funcname="dense_to_sparse")


@method
def to_sparse_csr(self, dense_dim=None):
    """A ``torch.sparse_csr`` copy: compressed rows (``core._sparse_compressed``)."""
    from core._sparse_compressed import convert, sparse_csr

    return convert(self, sparse_csr, None, dense_dim, funcname="dense_to_sparse_csr")


@method
def to_sparse_csc(self, dense_dim=None):
    """A ``torch.sparse_csc`` copy: compressed columns (``core._sparse_compressed``)."""
    from core._sparse_compressed import convert, sparse_csc

    return convert(self, sparse_csc, None, dense_dim, funcname="dense_to_sparse_csc")


@method
def to_sparse_bsr(self, blocksize, dense_dim=None):
    """A ``torch.sparse_bsr`` copy: compressed rows of ``blocksize`` blocks (``core._sparse_compressed``)."""
    from core._sparse_compressed import convert, sparse_bsr

    return convert(self, sparse_bsr, blocksize, dense_dim, funcname="dense_to_sparse_bsr")


@method
def to_sparse_bsc(self, blocksize, dense_dim=None):
    """A ``torch.sparse_bsc`` copy: compressed columns of ``blocksize`` blocks (``core._sparse_compressed``)."""
    from core._sparse_compressed import convert, sparse_bsc

    return convert(self, sparse_bsc, blocksize, dense_dim, funcname="dense_to_sparse_bsc")


@method
def crow_indices(self):
    """Only a CSR or BSR tensor has compressed row indices: PyTorch's error for a strided one."""
    _strided_layout_error("crow_indices", "sparse row compressed tensor")


@method
def col_indices(self):
    """Only a CSR or BSR tensor has column indices: PyTorch's error for a strided one."""
    _strided_layout_error("col_indices", "sparse row compressed tensor")


@method
def ccol_indices(self):
    """Only a CSC or BSC tensor has compressed column indices: PyTorch's error for a strided one."""
    _strided_layout_error("ccol_indices", "sparse column compressed tensor")


@method
def row_indices(self):
    """Only a CSC or BSC tensor has row indices: PyTorch's error for a strided one."""
    _strided_layout_error("row_indices", "sparse column compressed tensor")


@method
def _nnz(self) -> int:
    """Only a sparse tensor counts its specified elements: PyTorch's error for a strided one."""
    no_cpu_kernel("_nnz")


@method
def _values(self):
    """A COO tensor's values, duplicates included: PyTorch's error for a strided one."""
    no_cpu_kernel("_values")


@method
def _indices(self):
    """A COO tensor's indices, duplicates included: PyTorch's error for a strided one."""
    no_cpu_kernel("_indices")


@method
def _dimI(self) -> int:
    """A sparse tensor's number of sparse dims (old name of ``sparse_dim``): PyTorch's error here."""
    no_cpu_kernel("_dimI")


@method
def _dimV(self) -> int:
    """A sparse tensor's number of dense dims (old name of ``dense_dim``): PyTorch's error here."""
    no_cpu_kernel("_dimV")


@method
def _to_dense(self, dtype=None, masked_grad=None):
    """The kernel behind ``to_dense`` of a sparse tensor: PyTorch's error for a strided one."""
    no_cpu_kernel("_to_dense")


@method
def dequantize(self):
    """A float tensor is already dequantized: itself (``core._quantized`` for quantized tensors)."""
    return self


@method
def int_repr(self):
    """Only a quantized tensor has an integer representation: PyTorch's error here."""
    no_cpu_kernel("int_repr")


@method
def qscheme(self):
    """Only a quantized tensor has a quantization scheme: PyTorch's error here."""
    no_cpu_kernel("qscheme")


@method
def q_scale(self) -> float:
    """Only a per-tensor quantized tensor has one scale: PyTorch's error here."""
    no_cpu_kernel("q_scale")


@method
def q_zero_point(self) -> int:
    """Only a per-tensor quantized tensor has one zero point: PyTorch's error here."""
    no_cpu_kernel("q_zero_point")


@method
def q_per_channel_scales(self):
    """Only a per-channel quantized tensor has per-channel scales: PyTorch's error here."""
    no_cpu_kernel("q_per_channel_scales")


@method
def q_per_channel_zero_points(self):
    """Only a per-channel quantized tensor has per-channel zero points: PyTorch's error here."""
    no_cpu_kernel("q_per_channel_zero_points")


@method
def q_per_channel_axis(self) -> int:
    """Only a per-channel quantized tensor has a channel axis: PyTorch's error here."""
    no_cpu_kernel("q_per_channel_axis")


@method
def to_dense(self, dtype=None, *, masked_grad=None):
    """A strided tensor is already dense: itself (in ``dtype`` if given)."""
    return self if dtype is None else self.to(dtype)
