"""The fused products ``addmm``, ``addmv``, ``addbmm``, ``baddbmm``, ``addr`` and their in-place forms.

``beta * input + alpha * product``: one primitive each, with PyTorch's ``grad_fn`` names. With
``beta == 0`` the input is ignored (NaN in it does not propagate), as in PyTorch. The in-place forms
write into ``input`` (same dtype, its shape must be the result's) and record the same node.
"""

from __future__ import annotations

import numpy as np

from core._small_gemm import mkl_addbmm, mkl_gemm
from core._tensor import Tensor
from core.amp import _casting as _autocast
from core.autograd.function import Function
from core.ops._float32_compute import computes_in_float32
from core.ops._linalg_checks import _C_NAMES, _check_mm_shapes, _check_tensors, _type_name
from core.ops._saved_attrs import factor_layout
from core.ops._stack_products import _naive_bmm, _naive_bmm_applies
from core.ops._util import xp_of
from core.ops.complex_ops import conj_of
from core.ops.deprecated_overloads import addmm_scalars_first
from core.ops.elementwise import _out, check_inplace
from core.ops.linalg import (
    bmm,
    matmul,
    mm_grads,
    mv,
    outer,
    save_factors,
)
from core.ops.views import expand, transpose
from core.ops.views import t as _t

__all__ = ["addmm", "addmv", "addbmm", "baddbmm", "addr", "addmm_", "addmv_", "addbmm_", "baddbmm_", "addr_"]


# ----- fused add + product: addmm, addmv, addbmm, baddbmm, addr -----------------------------------

class _AddProduct(Function):
    """``beta * input + alpha * product(m1, m2)``; subclasses give the product and its gradients."""

    @classmethod
    def forward(cls, ctx, input, m1, m2, *, beta, alpha):
        save_factors(ctx, m1, m2, ctx.needs_input_grad[1:])
        ctx.beta, ctx.alpha = beta, alpha
        xp = xp_of(m1._data)
        out = cls.product(xp, m1._data, m2._data)
        if alpha != 1:
            out = out * xp.asarray(alpha, dtype=out.dtype)
        if beta == 0:
            return xp.ascontiguousarray(xp.broadcast_to(out, cls.out_shape(input, out)))
        x = input._data if beta == 1 else input._data * xp.asarray(beta, dtype=out.dtype)
        return xp.add(x, out).astype(out.dtype, copy=False)

    @staticmethod
    def out_shape(input, out):
        return out.shape

    @classmethod
    def backward(cls, ctx, g):
        m1, m2 = ctx._unpacked
        need = ctx.needs_input_grad
        beta, alpha = ctx.beta, ctx.alpha
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus: each factor's gradient takes the other's
            m1, m2 = conj_of(m1), conj_of(m2)  # conjugate (g @ m2^H, m1^H @ g), and the scalars' conjugates
            beta, alpha = beta.conjugate(), alpha.conjugate()
        gi = (g if beta == 1 else g * beta) if need[0] else None
        g1, g2 = cls.product_grads(ctx, g, m1, m2, need)
        if alpha != 1:
            g1 = None if g1 is None else g1 * alpha
            g2 = None if g2 is None else g2 * alpha
        return gi, g1, g2


@computes_in_float32
class Addmm(_AddProduct):
    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")  # grad_fn._saved_mat1 / _saved_mat2 (each saved for the other's gradient)
    _saved_mat1_sym_sizes, _saved_mat1_sym_strides = factor_layout(0, 1)
    _saved_mat2_sym_sizes, _saved_mat2_sym_strides = factor_layout(1, 2)
    product = staticmethod(lambda xp, x, y: xp.matmul(x, y))

    @classmethod
    def forward(cls, ctx, input, m1, m2, *, beta, alpha):
        if beta == 1 and alpha == 1 and getattr(ctx, "half_dtype", None) is None:
            out = mkl_gemm(m1._data, m2._data, input._data)  # a small product in PyTorch's GEMM order, bias included
            if out is not None:
                save_factors(ctx, m1, m2, ctx.needs_input_grad[1:])
                ctx.beta, ctx.alpha = beta, alpha
                return out
        return super().forward(ctx, input, m1, m2, beta=beta, alpha=alpha)

    @staticmethod
    def product_grads(ctx, g, m1, m2, need):
        return mm_grads(g, m1, m2, need[1], need[2], ctx.column_major)


@computes_in_float32
class Addmv(_AddProduct):
    node_name = "AddmvBackward0"
    product = staticmethod(lambda xp, x, y: xp.matmul(x, y))

    @staticmethod
    def product_grads(ctx, g, m, v, need):
        return (outer(g, v) if need[1] else None), (mv(_t(m), g) if need[2] else None)


def _sum_keeping_dtype(m):
    """The batch's products summed in their own dtype (NumPy's sum widens int32 to int64 and uint8 to uint64)."""
    return m.sum(0, dtype=m.dtype)


@computes_in_float32
class Addbmm(_AddProduct):
    node_name = "AddbmmBackward0"
    product = staticmethod(lambda xp, x, y: _sum_keeping_dtype(xp.matmul(x, y)))

    @classmethod
    def forward(cls, ctx, input, m1, m2, *, beta, alpha):
        if getattr(ctx, "half_dtype", None) is None and isinstance(beta, (int, float)) \
                and isinstance(alpha, (int, float)):
            out = mkl_addbmm(input._data, m1._data, m2._data, beta, alpha)  # PyTorch's addmm_ per matrix
            if out is not None:
                save_factors(ctx, m1, m2, ctx.needs_input_grad[1:])
                ctx.beta, ctx.alpha = beta, alpha
                return out
        return super().forward(ctx, input, m1, m2, beta=beta, alpha=alpha)

    @staticmethod
    def product_grads(ctx, g, b1, b2, need):
        return (matmul(g, transpose(b2, 1, 2)) if need[1] else None), \
            (matmul(transpose(b1, 1, 2), g) if need[2] else None)


@computes_in_float32
class Baddbmm(_AddProduct):
    node_name = "BaddbmmBackward0"
    saved_names = ("batch1", "batch2")  # (each saved for the other's gradient)
    product = staticmethod(lambda xp, x, y: _naive_bmm(x, y) if _naive_bmm_applies(x, y) else xp.matmul(x, y))

    @staticmethod
    def product_grads(ctx, g, b1, b2, need):
        return (bmm(g, transpose(b2, 1, 2)) if need[1] else None), \
            (bmm(transpose(b1, 1, 2), g) if need[2] else None)


@computes_in_float32
class Addr(_AddProduct):
    node_name = "AddrBackward0"
    product = staticmethod(lambda xp, x, y: xp.multiply.outer(x, y) if xp is np else x[:, None] * y[None, :])

    @staticmethod
    def product_grads(ctx, g, v1, v2, need):
        return (mv(g, v2) if need[1] else None), (mv(_t(g), v1) if need[2] else None)


class _InplaceProduct(Function):
    """``input.addmm_(...)``: the out-of-place node's backward, with ``input`` marked dirty."""

    outplace = None

    @classmethod
    def forward(cls, ctx, input, m1, m2, *, beta, alpha):
        res = cls.outplace.forward(ctx, input, m1, m2, beta=beta, alpha=alpha)
        xp_of(input._data).copyto(input._data, res)
        ctx.mark_dirty(input)
        return input

    @classmethod
    def backward(cls, ctx, g):
        return cls.outplace.backward(ctx, g)


_INPLACE = {c: type(c.__name__ + "Inplace", (_InplaceProduct,), {"outplace": c, "node_name": c.node_name})
            for c in (Addmm, Addmv, Addbmm, Baddbmm, Addr)}


def check_product_dtypes(name: str, input: Tensor, m1: Tensor, m2: Tensor) -> None:
    """PyTorch's dtype errors of ``input + m1 @ m2``: each kernel has its own words and order (addmm, addbmm and
    ``F.linear`` compare self with mat2 first, then mat1 with mat2)."""
    a, b, c = input._data.dtype, m1._data.dtype, m2._data.dtype
    if a == b == c:
        return
    if name == "addmv":
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_type_name(input)}, "
                           f"{_type_name(m1)}, and {_type_name(m2)}")
    if name == "baddbmm":
        raise RuntimeError(f"Input dtypes must be the same, got: input {_C_NAMES[a.name]}, batch1: "
                           f"{_C_NAMES[b.name]}, batch2: {_C_NAMES[c.name]}")
    if a != c:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_type_name(input)} and "
                           f"{_type_name(m2)}")
    raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_type_name(m1)} and {_type_name(m2)}")


def _add_product(cls, name, input, m1, m2, beta, alpha, out_shape, inplace=False):
    _check_tensors(name, ("input", input), ("mat1", m1), ("mat2", m2))
    check_product_dtypes(name, input, m1, m2)
    if m1._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{name}_impl_cpu_\" not implemented for 'Bool'")
    if not inplace:
        expand(input.detach(), out_shape)  # PyTorch's error when input does not broadcast to the result
        return cls.apply(input, m1, m2, beta=beta, alpha=alpha)
    if tuple(input._data.shape) != tuple(out_shape):
        raise RuntimeError(f"{name}_: the result has shape {list(out_shape)} but self has shape "
                           f"{list(input._data.shape)}")
    check_inplace(input)
    return _INPLACE[cls].apply(input, m1, m2, beta=beta, alpha=alpha)


def _dtypes_before_shapes(input, mat1, mat2) -> None:
    """addmm's dtype error where the matrices' shapes do not fit either: torch compares the dtypes first
    (``torch.addmm(c, a, b.double())`` names the dtypes, mm names the shapes)."""
    if isinstance(input, Tensor) and isinstance(mat1, Tensor) and isinstance(mat2, Tensor) \
            and mat1._data.ndim == 2 == mat2._data.ndim:
        check_product_dtypes("addmm", input, mat1, mat2)


def _addmm_shape(mat1, mat2):
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if hasattr(m, "_data") and m._data.ndim != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m._data.ndim}-D tensor")
    _check_mm_shapes(mat1._data.shape, mat2._data.shape)
    return (mat1._data.shape[0], mat2._data.shape[1])


def _addmv_shape(input, mat, vec):
    if mat._data.ndim != 2 or vec._data.ndim != 1 or input._data.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input._data.ndim}, {mat._data.ndim}, "
                           f"{vec._data.ndim}")
    sm, n = mat._data.shape, input._data.shape
    if sm[1] != vec._data.shape[0] or (len(n) == 1 and n[0] not in (1, sm[0])):
        raise RuntimeError(f"size mismatch, got input ({n[0] if n else 1}), mat ({sm[0]}x{sm[1]}), "
                           f"vec ({vec._data.shape[0]})")
    return (sm[0],)


def _batches_shape(batch1, batch2):
    for name, b in (("batch1", batch1), ("batch2", batch2)):
        if b._data.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    sa, sb = batch1._data.shape, batch2._data.shape
    if sa[0] != sb[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {sa[0]} and {sb[0]}")
    if sa[2] != sb[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{sa[0]}, {sa[2]}] "
                           f"but got: [{sb[0]}, {sb[1]}].")
    return (sa[0], sa[1], sb[2])


def _addr_shape(vec1, vec2):
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    return (vec1._data.shape[0], vec2._data.shape[0])


def addmm(input, mat1, mat2, *deprecated, beta=1, alpha=1, out=None):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, mat1, mat2 = _autocast.lower(input, mat1, mat2)
    if deprecated or not isinstance(input, Tensor):  # addmm(beta, [alpha,] mat1, mat2), self or input after beta
        input, mat1, mat2, beta, alpha = addmm_scalars_first("addmm", (input, mat1, mat2, *deprecated), beta, alpha)
    _dtypes_before_shapes(input, mat1, mat2)
    return _out(_add_product(Addmm, "addmm", input, mat1, mat2, beta, alpha, _addmm_shape(mat1, mat2)), out,
                input, mat1, mat2)


def addmm_(self, mat1, mat2, *deprecated, beta=1, alpha=1):
    if deprecated:  # addmm_(beta, [alpha,] mat1, mat2)
        self, mat1, mat2, beta, alpha = addmm_scalars_first("addmm_", (self, mat1, mat2, *deprecated), beta, alpha)
    _dtypes_before_shapes(self, mat1, mat2)
    return _add_product(Addmm, "addmm", self, mat1, mat2, beta, alpha, _addmm_shape(mat1, mat2), True)


def addmv(input, mat, vec, *, beta=1, alpha=1, out=None):
    return _out(_add_product(Addmv, "addmv", input, mat, vec, beta, alpha, _addmv_shape(input, mat, vec)), out,
                input, mat, vec)


def addmv_(self, mat, vec, *, beta=1, alpha=1):
    return _add_product(Addmv, "addmv", self, mat, vec, beta, alpha, _addmv_shape(self, mat, vec), True)


def addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, batch1, batch2 = _autocast.lower(input, batch1, batch2)
    shape = _batches_shape(batch1, batch2)[1:]
    return _out(_add_product(Addbmm, "addbmm", input, batch1, batch2, beta, alpha, shape), out)


def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    shape = _batches_shape(batch1, batch2)[1:]
    return _add_product(Addbmm, "addbmm", self, batch1, batch2, beta, alpha, shape, True)


def baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None):
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, batch1, batch2 = _autocast.lower(input, batch1, batch2)
    shape = _batches_shape(batch1, batch2)
    return _out(_add_product(Baddbmm, "baddbmm", input, batch1, batch2, beta, alpha, shape), out)


def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
    return _add_product(Baddbmm, "baddbmm", self, batch1, batch2, beta, alpha, _batches_shape(batch1, batch2), True)


def _addr_bool(input, vec1, vec2, beta, alpha):
    """``addr`` of bools, as PyTorch's kernel: ``(beta and input) or (alpha and vec1[i] and vec2[j])``."""
    _check_tensors("addr", ("input", input), ("vec1", vec1), ("vec2", vec2))
    check_product_dtypes("addr", input, vec1, vec2)
    shape = _addr_shape(vec1, vec2)
    product = vec1._data.reshape(-1, 1) & vec2._data.reshape(1, -1) & bool(alpha)
    target = expand(input.detach(), shape)._data
    return Tensor._wrap(product | (target & bool(beta)))


def addr(input, vec1, vec2, *, beta=1, alpha=1, out=None):
    if isinstance(vec1, Tensor) and vec1._data.dtype == np.bool_:
        return _out(_addr_bool(input, vec1, vec2, beta, alpha), out)
    return _out(_add_product(Addr, "addr", input, vec1, vec2, beta, alpha, _addr_shape(vec1, vec2)), out)


def addr_(self, vec1, vec2, *, beta=1, alpha=1):
    return _add_product(Addr, "addr", self, vec1, vec2, beta, alpha, _addr_shape(vec1, vec2), True)
