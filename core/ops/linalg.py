"""Matrix products: ``matmul`` (and ``@``), ``mm``, ``bmm``, ``mv``, ``dot``, ``vdot``, ``inner``, ``outer``.

``matmul`` follows PyTorch's dispatch so ``grad_fn`` reads the same (``DotBackward0``, ``MvBackward0``,
``MmBackward0``, ``UnsafeViewBackward0`` over ``MmBackward0``/``BmmBackward0`` for batches). Without
grad it is one ``xp.matmul`` call: no Python loop over batches. Like PyTorch, operands must share a
dtype (no promotion). The fused ``add*`` products, einsum, tensordot, kron and the matrix functions live
in sibling ``linalg_*`` modules and are re-exported here so ``core.ops`` picks them up with this family.
"""

from __future__ import annotations

import math

import numpy as np

from core._small_gemm import blas_ready, mkl_gemm, mkl_gemm_stack, mkl_gemv, mkl_sdot
from core._tensor import Tensor, new_tensor
from core.amp import _casting as _autocast
from core.autograd import grad_mode
from core.autograd.forward_ad import bilinear_jvp, linear_jvp
from core.autograd.function import Function
from core.autograd.shortcuts import state as _shortcuts
from core.ops._float32_compute import bmm_float16, computes_in_float32, mm_float16
from core.ops._linalg_checks import (
    _check_dot_shapes,
    _check_matmul_shapes,
    _check_mm_shapes,
    _check_mv_shapes,
    _check_same_dtype,
    _check_tensors,
    _no_bool_kernel,
    _tensor_like,
    _type_name,
)
from core.ops._mm_outer import _mm_gemm, _signed_outer
from core.ops._saved_attrs import factor_layout
from core.ops._stack_products import _gemm_per_matrix, _naive_bmm, _naive_bmm_applies, _stacked_matmul
from core.ops._strided import dense
from core.ops._util import broadcast_shapes, xp_of
from core.ops.complex_ops import conj_of
from core.ops.elementwise import _out, mul
from core.ops.views import UnsafeView, contiguous, expand, reshape, transpose, unsqueeze
from core.ops.views import t as _t
from core.overrides import _given_out, handle_torch_function

__all__ = ["matmul", "mm", "bmm", "mv", "dot", "vdot", "inner", "outer", "ger"]

# ----- primitives -------------------------------------------------------------------------------

def _column_major(t) -> bool:
    stride = t.stride()
    return stride[0] == 1 and stride[1] == t.shape[0]


def save_factors(ctx, a, b, needs=None) -> None:
    """Save a product's two factors as PyTorch's autograd does: each only for the other's gradient (``a`` when ``b``
    needs one, ``b`` when ``a`` does; ``needs`` the two factors' flags, ``ctx.needs_input_grad`` by default), and
    the factors' layouts (``ctx.column_major``, what ``mm_grads`` reads) as PyTorch keeps their strides.

    NOTE: a factor that is not saved is not version-checked in backward: a buffer written in place after a slice of
    it went into a product with a constant (torchode's Runge-Kutta stages ``k[i] = f(einsum(a[i, :i], k[:i]))``)
    backpropagates in PyTorch, where saving it would fail "modified by an inplace operation"."""
    needs = ctx.needs_input_grad if needs is None else needs
    if not needs:  # no node is recorded
        return
    ctx.save_for_backward(a if needs[1] else None, b if needs[0] else None)
    ctx.column_major = (needs[0] and a.dim() == 2 and _column_major(a), needs[1] and b.dim() == 2 and _column_major(b))


def mm_grads(g, a, b, need_a: bool, need_b: bool, column_major=None):
    """``a @ b``'s input gradients as PyTorch's ``mm_mat1_backward``/``mm_mat2_backward`` form them: a column-major
    operand (``W.t()``, a transposed view) gets its gradient as the transpose of a product of the other shape
    (``(b @ g.t()).t()``, ``(g.t() @ a).t()``), which MKL may add in another order than ``g @ b.t()``/``a.t() @ g``.
    ``column_major``: the two operands' layouts as ``save_factors`` kept them (an operand may not be saved)."""
    a_column, b_column = column_major if column_major is not None else (need_a and _column_major(a),
                                                                         need_b and _column_major(b))
    ga = gb = None
    if need_a:
        ga = _t(mm(b, _t(g))) if a_column else mm(g, _t(b))
    if need_b:
        gb = _t(mm(_t(g), a)) if b_column else mm(_t(a), g)
    return ga, gb


class Mm(Function):
    node_name = "MmBackward0"
    saved_names = ("self", "mat2")  # grad_fn._saved_self / _saved_mat2 (each saved for the other's gradient)
    _saved_self_sym_sizes, _saved_self_sym_strides = factor_layout(0, 0)
    _saved_mat2_sym_sizes, _saved_mat2_sym_strides = factor_layout(1, 1)

    @staticmethod
    def forward(ctx, a, b):
        save_factors(ctx, a, b)
        x, y = blas_ready(a._data), blas_ready(b._data)  # (an expanded operand: a contiguous copy, as ATen's)
        out = _signed_outer(x, y)
        if out is None:
            out = mkl_gemm(x, y)  # a small product in PyTorch's GEMM order (core._small_gemm)
        if out is None and x.dtype == np.float16:
            out = mm_float16(x, y)  # ATen's own float16 GEMM's order
        if out is None:
            out = xp_of(x).matmul(x, y)
        return out if out.dtype is a._data.dtype else out.astype(a._data.dtype)  # bfloat16's comes as float32

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus: g @ B^H, A^H @ g
            a, b = conj_of(a), conj_of(b)
        return mm_grads(g, a, b, ctx.needs_input_grad[0], ctx.needs_input_grad[1], ctx.column_major)

    jvp = bilinear_jvp


class Bmm(Function):
    node_name = "BmmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        save_factors(ctx, a, b)
        x, y = a._data, b._data
        if _naive_bmm_applies(x, y):
            out = _naive_bmm(x, y)
        elif (stacked := mkl_gemm_stack(x, y)) is not None:  # MKL's GEMM order per matrix (core._small_gemm)
            out = stacked
        elif (each := _gemm_per_matrix(x, y)) is not None:
            out = each
        elif x.dtype == np.float16 and (half := bmm_float16(x, y)) is not None:  # PyTorch's own GEMM's order
            out = half
        elif type(x) is np.ndarray and type(y) is np.ndarray and x.dtype == y.dtype and x.dtype.kind in "fc":
            out = _stacked_matmul(x, y)
        else:
            out = xp_of(x).matmul(x, y)
        return out if out.dtype is a._data.dtype else out.astype(a._data.dtype)  # bfloat16's comes as float32

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus: g @ B^H, A^H @ g
            a, b = conj_of(a), conj_of(b)
        ga = bmm(g, transpose(b, 1, 2)) if ctx.needs_input_grad[0] else None
        gb = bmm(transpose(a, 1, 2), g) if ctx.needs_input_grad[1] else None
        return ga, gb

    jvp = bilinear_jvp


@computes_in_float32
class Mv(Function):
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, v):
        save_factors(ctx, a, v)
        out = mkl_gemv(a._data, v._data)  # a short product in MKL's sgemv order (core._small_gemm)
        return xp_of(a._data).matmul(a._data, v._data) if out is None else out

    @staticmethod
    def backward(ctx, g):
        a, v = ctx._unpacked
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus: g @ B^H, A^H @ g
            a, v = conj_of(a), conj_of(v)
        ga = outer(g, v) if ctx.needs_input_grad[0] else None
        gv = mv(_t(a), g) if ctx.needs_input_grad[1] else None
        return ga, gv

    jvp = bilinear_jvp


@computes_in_float32
class Dot(Function):
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")  # (each saved for the other's gradient)

    @staticmethod
    def forward(ctx, a, b):
        save_factors(ctx, a, b)
        x = a._data
        out = mkl_sdot(x, b._data)  # a short float32 dot in MKL's order (core._small_gemm)
        return xp_of(x).asarray(xp_of(x).dot(x, b._data), dtype=x.dtype) if out is None else out

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus: g @ B^H, A^H @ g
            a, b = conj_of(a), conj_of(b)
        return (g * b if ctx.needs_input_grad[0] else None), (g * a if ctx.needs_input_grad[1] else None)

    jvp = bilinear_jvp


@computes_in_float32
class Vdot(Dot):
    """``sum(conj(a) * b)``: the first argument is conjugated (a no-op on real tensors)."""

    node_name = "VdotBackward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        save_factors(ctx, a, b)
        x = a._data
        return xp_of(x).asarray(xp_of(x).vdot(x, b._data), dtype=x.dtype)

    @staticmethod
    def backward(ctx, g):  # NOTE: PyTorch's derivatives.yaml: self: grad.conj() * other, other: self * grad
        a, b = ctx._unpacked
        return (conj_of(g) * b if ctx.needs_input_grad[0] else None), (a * g if ctx.needs_input_grad[1] else None)


def mm(input, mat2, *, out=None):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, mat2 = _autocast.lower(input, mat2)
    if _tensor_like(input, mat2):
        return handle_torch_function(mm, (input, mat2), input, mat2, **_given_out(out))
    _check_tensors("mm", ("input", input), ("mat2", mat2))
    if input._data.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2._data.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    _check_mm_shapes(input._data.shape, mat2._data.shape)  # (the shapes first, as torch: a.mm(b.double()) with
    _check_same_dtype(input, mat2)                          # mismatched shapes names the shapes)
    return _out(Mm.apply(input, mat2), out)


def bmm(input, mat2, *, out=None):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, mat2 = _autocast.lower(input, mat2)
    if _tensor_like(input, mat2):
        return handle_torch_function(bmm, (input, mat2), input, mat2, **_given_out(out))
    _check_tensors("bmm", ("input", input), ("mat2", mat2))
    if input._data.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2._data.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    sa, sb = input._data.shape, mat2._data.shape
    if sa[0] != sb[0] or sa[2] != sb[1]:  # (the shapes before the dtypes, as torch checks them)
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{sa[0]}, {sa[2]}] "
                           f"but got: [{sb[0]}, {sb[1]}].")
    if input._data.dtype != mat2._data.dtype:
        raise RuntimeError(f"expected scalar type {_type_name(input)} but found {_type_name(mat2)}")
    _no_bool_kernel("bmm", input)
    return _out(Bmm.apply(input, mat2), out)


def mv(input, vec, *, out=None):
    if _tensor_like(input, vec):
        return handle_torch_function(mv, (input, vec), input, vec, **_given_out(out))
    _check_tensors("mv", ("input", input), ("vec", vec))
    if input._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input._data.ndim}, {vec._data.ndim}")
    _check_mv_shapes(input._data.shape, vec._data.shape)  # (the shapes before the dtypes, as torch checks them)
    if input._data.dtype != vec._data.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_type_name(vec)}, "
                           f"{_type_name(input)}, and {_type_name(vec)}")
    _no_bool_kernel("addmv_impl_cpu", input)
    return _out(Mv.apply(input, vec), out)


def _dot_checks(name, input, other):
    _check_tensors(name, ("input", input), ("tensor" if name == "dot" else "other", other))  # (torch's names)
    if input._data.ndim != 1 or other._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {input._data.ndim}D and {other._data.ndim}D tensors")
    if input._data.dtype != other._data.dtype:
        raise RuntimeError(f"{name} : expected both vectors to have same dtype, but found {_type_name(input)} "
                           f"and {_type_name(other)}")
    _no_bool_kernel("dot", input)
    _check_dot_shapes(input._data.shape, other._data.shape)


def dot(input, other, *, out=None):
    if _tensor_like(input, other):
        return handle_torch_function(dot, (input, other), input, other, **_given_out(out))
    _dot_checks("dot", input, other)
    return _out(Dot.apply(input, other), out)


def vdot(input, other):
    """``dot`` that conjugates its first argument (complex tensors)."""
    _dot_checks("vdot", input, other)
    return Vdot.apply(input, other)


# ----- matmul -----------------------------------------------------------------------------------

def matmul(input, other, *, out=None):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, other = _autocast.lower(input, other)
    if out is None and isinstance(input, Tensor) and isinstance(other, Tensor):
        res = _matmul_fast(input, other)
        if res is not None:
            return res
        x, y = input._data, other._data
        if type(x) is _ndarray and type(y) is _ndarray and x.dtype is y.dtype and x.dtype is not _bool and \
                x.ndim and y.ndim:  # CPU, one dtype: the graph path needs only the shape checks
            _check_matmul_shapes(x.shape, y.shape)
            if (input._requires_grad or other._requires_grad) and grad_mode.is_grad_enabled() \
                    or not _shortcuts.ok:  # NOTE: forward AD and capture need the primitives
                return _matmul_graph(input, other, x.ndim, y.ndim)
    elif out is not None:
        return _out(matmul(input, other), out)
    if _tensor_like(input, other):
        return handle_torch_function(matmul, (input, other), input, other, **_given_out(out))
    _check_tensors("matmul", ("input", input), ("other", other))
    da, db = input._data.ndim, other._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if input._data.dtype != other._data.dtype:
        if da > 1 or db > 1:  # (PyTorch's mv/mm/bmm check sizes before dtypes; dot the other way round)
            _check_matmul_shapes(input._data.shape, other._data.shape)
        _matmul_dtype_error(input, other, da, db)
    _check_same_dtype(input, other)
    if (input._requires_grad or other._requires_grad) and grad_mode.is_grad_enabled() or not _shortcuts.ok:
        _check_matmul_shapes(input._data.shape, other._data.shape)
        return _matmul_graph(input, other, da, db)
    x, y = input._data, other._data
    out = _small_product(x, y) if type(x) is _ndarray and type(y) is _ndarray else None
    if out is not None:
        return new_tensor(out)
    try:
        out = xp_of(x).matmul(x, y)
    except ValueError:
        _check_matmul_shapes(x.shape, y.shape)
        raise
    if type(out) is not np.ndarray and isinstance(out, np.generic):
        out = np.asarray(out)
    return new_tensor(out if out.dtype == x.dtype else out.astype(x.dtype))  # bfloat16's comes as float32


def _matmul_fast(a, b):
    """No grad, CPU, one float/int dtype, at least 1-D each: straight to NumPy (the small-matrix hot path)."""
    x = a._data
    y = b._data
    if type(x) is not _ndarray or type(y) is not _ndarray or x.dtype is not y.dtype or x.dtype is _bool \
            or not x.ndim or not y.ndim or ((a._requires_grad or b._requires_grad) and grad_mode.is_grad_enabled()) \
            or not _shortcuts.ok:
        return None
    if y.ndim >= 3 and x.shape[-1] == y.shape[-2]:  # PyTorch's bmm route (not folded into one mm)
        x2 = x[None] if x.ndim == 1 else x
        if _naive_bmm_applies(x2, y):
            try:
                out = _naive_bmm(x2, y)
            except ValueError:
                return None  # batch dims that do not broadcast: the full path raises PyTorch's message
            return new_tensor(out[..., 0, :] if x.ndim == 1 else out)
        # MKL's GEMM order per matrix (core._small_gemm); a matrix x is broadcast over y's batch, as PyTorch's
        # bmm of its expanded x (it folds y's batch into one mm only when x requires grad: _matmul_graph)
        if (out := mkl_gemm_stack(x[None] if x.ndim == 2 else x2, y)) is not None:
            return new_tensor(out[..., 0, :] if x.ndim == 1 else out)
        if x.ndim == y.ndim and x.shape[:-2] == y.shape[:-2] and x.size and y.size:  # MKL's GEMM per matrix (Bmm's)
            # NOTE: an attention's (B, H, T, T) @ (B, H, T, D) under no_grad went to NumPy's matmul here while the
            # same product with grad (Bmm) was torch's order (rasbt/LLMs-from-scratch ch06's bonus experiments)
            each = _gemm_per_matrix(x.reshape(-1, *x.shape[-2:]), y.reshape(-1, *y.shape[-2:]))  # (no empty one:
            # reshape(-1, 0, 0) has no size to infer)
            if each is not None:
                return new_tensor(each.reshape(x.shape[:-1] + y.shape[-1:]))
    out = _small_product(x, y)
    if out is None:
        try:
            out = _np_matmul(x, y)
        except ValueError:
            return None  # the full path raises PyTorch's message
    if type(out) is not _ndarray or out.dtype is not x.dtype:  # 0-d; bfloat16's product comes as float32
        out = np.asarray(out).astype(x.dtype, copy=False)
    return new_tensor(out)


_ndarray, _np_matmul, _bool = np.ndarray, np.matmul, np.dtype(np.bool_)


def _small_product(x, y):
    """``x @ y`` in PyTorch's GEMM order (``core._small_gemm``) for a 2-d ``y`` and a 2-d ``x``, a vector ``x``
    (PyTorch's ``mm`` of it as one row) or a contiguous ``x`` of more dims that PyTorch folds into one ``mm``;
    None for other products and shapes."""
    if y.ndim == 1 and x.ndim == 2:
        return mkl_gemv(x, y)  # (PyTorch's mv)
    if y.ndim == 1 and x.ndim == 1:
        return mkl_sdot(x, y)  # (PyTorch's dot)
    if y.ndim != 2 or x.shape[-1] != y.shape[0]:
        return None
    gemm = mm_float16 if x.dtype == np.float16 else _mm_gemm  # (float16: ATen's own GEMM's order)
    if x.ndim <= 2:
        out = gemm(x if x.ndim == 2 else x[None], y)
        return out if out is None or x.ndim == 2 else out[0]
    if not x.flags.c_contiguous:
        return None
    out = gemm(x.reshape(math.prod(x.shape[:-1]), x.shape[-1]), y)
    return None if out is None else out.reshape(x.shape[:-1] + (y.shape[1],))


def _matmul_dtype_error(a, b, da, db):
    """The message of the kernel each dispatch path reaches first (dot, mv, mm or bmm)."""
    ta, tb = _type_name(a), _type_name(b)
    if da == 1 and db == 1:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {ta} and {tb}")
    if db == 1:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {tb}, {ta}, and {tb}")
    if db >= 3:
        raise RuntimeError(f"expected scalar type {ta} but found {tb}")
    _check_same_dtype(a, b)


def _matmul_graph(a, b, da, db):
    """PyTorch's decomposition, so the recorded graph (and grad_fn names) match."""
    if da == 1 and db == 1:
        return Dot.apply(a, b)
    if da == 2 and db == 1:
        return Mv.apply(a, b)
    if da == 1 and db == 2:
        return _SqueezeInplace.apply(Mm.apply(unsqueeze(a, 0), b))
    if da == 2 and db == 2:
        return Mm.apply(a, b)
    if da == 3 and db == 3:  # 3-D @ 3-D: a batch of one matrix that requires grad is used as a matrix
        na, nb = a._data.shape[0], b._data.shape[0]
        if nb == 1 and na > 1 and b._requires_grad:
            b, db = reshape(b, b._data.shape[-2:]), 2
        elif na == 1 and nb > 1 and a._requires_grad:
            a, da = reshape(a, a._data.shape[-2:]), 2
    if da >= 3 and db <= 2:
        return _folded(a, b)
    if da <= 2 and db >= 3 and a._requires_grad:  # fold b's batch instead (as PyTorch 2.x does)
        if da == 1:
            return _folded(transpose(b, -2, -1), a)
        return contiguous(transpose(_folded(transpose(b, -2, -1), _t(a)), -2, -1))
    return _batched(a, b, da, db)


class _SqueezeInplace(Function):
    """PyTorch squeezes 1-D @ 2-D's fresh ``mm`` result in place (``squeeze_(0)``): its grad_fn name, and the
    result is no view, so an in-place op on it (a ``ReLU(inplace=True)`` after a Linear on a 1-D input) records
    its own node rather than rebasing a view."""

    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, a):
        ctx.in_shape = a._data.shape
        return dense(a._data.reshape(a._data.shape[1:]))

    @staticmethod
    def backward(ctx, g):
        return reshape(g, ctx.in_shape)

    jvp = linear_jvp


def _folded(a, b):
    """An N-D tensor times a matrix or vector: fold the batch into rows and call mm/mv."""
    sa = a._data.shape
    rows = math.prod(sa[:-1])
    flat = reshape(a, (rows, sa[-1]))
    if b._data.ndim == 2:
        return UnsafeView.apply(Mm.apply(flat, b), shape=sa[:-1] + (b._data.shape[1],))
    return UnsafeView.apply(Mv.apply(flat, b), shape=sa[:-1])


def _batched(a, b, da, db):
    sa, sb = a._data.shape, b._data.shape
    batch = broadcast_shapes(sa[:-2], sb[:-2])
    n, k = (sa[-2], sa[-1]) if da > 1 else (1, sa[0])
    m, p = (sb[-2], sb[-1]) if db > 1 else (sb[0], 1)
    nb = math.prod(batch)
    a3 = reshape(expand(a, batch + (n, k)), (nb, n, k))
    b3 = reshape(expand(b if db > 1 else unsqueeze(b, -1), batch + (m, p)), (nb, m, p))
    out_shape = batch + ((n,) if da > 1 else ()) + ((p,) if db > 1 else ())
    return UnsafeView.apply(Bmm.apply(a3, b3), shape=out_shape)


# ----- composites: inner, outer -------------------------------------------------------------------

def outer(input, vec2):
    """``input[:, None] * vec2``, with ``mul``'s promotion (like PyTorch)."""
    _check_tensors("outer", ("input", input), ("vec2", vec2))
    for name, v in (("self", input), ("vec2", vec2)):
        if v._data.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    return mul(reshape(input, (input._data.shape[0], 1)), vec2)


ger = outer


def inner(input, other):
    _check_tensors("inner", ("input", input), ("other", other))
    if input._data.ndim == 0 or other._data.ndim == 0:
        return mul(input, other)
    if input._data.dtype != other._data.dtype:
        raise RuntimeError("both inputs should have same dtype")
    sa, sb = input._data.shape, other._data.shape
    if sa[-1] != sb[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(sa)} and {list(sb)}")
    return tensordot(input, other, dims=([-1], [-1]))


from core.ops.linalg_addmm import addbmm, addbmm_, addmm, addmm_, addmv, addmv_, addr, addr_, baddbmm, baddbmm_  # noqa: E402
from core.ops.linalg_einsum import einsum  # noqa: E402 - the sibling modules import the products above
from core.ops.linalg_more import cross, det, inverse, kron, logdet, matrix_power, slogdet, tensordot  # noqa: E402
from core.ops.linalg_svd import svd  # noqa: E402

__all__ += ["einsum", "tensordot", "kron", "cross", "det", "inverse", "matrix_power", "slogdet", "logdet",
            "svd", "addmm", "addmv", "addbmm", "baddbmm", "addr", "addmm_", "addmv_", "addbmm_", "baddbmm_", "addr_"]
_ = (einsum, tensordot, kron, cross, det, inverse, matrix_power, slogdet, logdet, svd,
     addmm, addmv, addbmm, baddbmm, addr, addmm_, addmv_, addbmm_, baddbmm_, addr_)
