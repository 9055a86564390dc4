"""Complex tensors' own ops: their parts as views, conjugation, angle, and building them from parts.

``real``/``imag``/``view_as_real``/``view_as_complex`` are views (NumPy's ``.real``/``.imag`` and a
float view of twice the size share the complex array's memory), so writes show through as in PyTorch.
Gradients follow PyTorch's conjugate Wirtinger convention: for a real loss L of z = x + iy, ``z.grad`` is
dL/dx + i dL/dy, so a holomorphic f passes ``g * conj(f'(z))`` back.

NOTE: ``conj`` copies (PyTorch sets a lazy conjugate bit instead), so ``is_conj`` is always False.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._arg_types import require_tensors
from core._memory_format import laid_out_like_operands
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.ops._strided import row_major
from core.ops._util import xp_of

__all__ = ["real", "imag", "view_as_real", "view_as_complex", "conj", "conj_physical", "resolve_conj",
           "is_conj", "angle", "complex", "polar", "conj_of", "refuse_complex",
           "conj_physical_", "view_as_real_copy", "view_as_complex_copy"]

_NAMES = _dtype.SCALAR_NAMES


def _check_complex(name: str, t: Tensor) -> None:
    if not t.is_complex():
        raise RuntimeError(f"{name} is only supported for complex tensors.")


def refuse_complex(t, exc, message: str) -> None:
    """Raise ``exc(message)`` when ``t`` is a complex tensor (ops that need an order: PyTorch's errors)."""
    if isinstance(t, Tensor) and t._data.dtype.kind == "c":
        raise exc(message.replace("{dtype}", _NAMES[t.dtype.name]))


def conj_of(x):
    """``x``'s conjugate for a tensor or a Python number; a real operand is itself (a gradient helper)."""
    if isinstance(x, Tensor):
        return conj(x) if x._data.dtype.kind == "c" else x
    return x.conjugate() if x is not None else None


def _view_of(a: Tensor, arr) -> Tensor:
    """``arr`` (a view of ``a``'s memory in another dtype) as a view tensor of ``a``.

    NOTE: its root is ``a``'s storage read in ``arr``'s dtype, so views of it (``z.real.unsqueeze(0)``), its
    strides and its storage offset count elements of its own dtype, as PyTorch's do.
    """
    t = a._alias(arr)
    root = a._root
    if isinstance(root, np.ndarray) and root.dtype != arr.dtype and root.flags.c_contiguous:
        t._root = np.ndarray((root.nbytes // arr.dtype.itemsize,), dtype=arr.dtype, buffer=root)
    return t


class Real(Function):
    node_name = "RealBackward0"

    @staticmethod
    def forward(ctx, a):
        return _view_of(a, a._data.real)

    @staticmethod
    def backward(ctx, g):
        return g  # NOTE: a real gradient: the engine makes it complex (imaginary part 0)


class Imag(Function):
    node_name = "ImagBackward0"

    @staticmethod
    def forward(ctx, a):
        return _view_of(a, a._data.imag)

    @staticmethod
    def backward(ctx, g):
        return g * 1j  # NOTE: dL/dy goes into the imaginary part of z's gradient


def real(input: Tensor) -> Tensor:
    """The real parts, a view (``input`` itself when it is real, as PyTorch returns)."""
    return Real.apply(input) if input.is_complex() else input


def imag(input: Tensor) -> Tensor:
    """The imaginary parts, a view; PyTorch refuses real tensors."""
    if not input.is_complex():
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return Imag.apply(input)


class ViewAsReal(Function):
    node_name = "ViewAsRealBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        return _view_of(a, x[..., None].view(x.real.dtype))

    @staticmethod
    def backward(ctx, g):
        return view_as_complex(g.contiguous())


class ViewAsComplex(Function):
    node_name = "ViewAsComplexBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        return _view_of(a, x.view(a.dtype.to_complex().np)[..., 0])

    @staticmethod
    def backward(ctx, g):
        return view_as_real(g)


def view_as_real(input: Tensor) -> Tensor:
    """A complex tensor as a real one with a last dim of 2 (real, imaginary), sharing its memory."""
    if not input.is_complex():
        raise RuntimeError("view_as_real is only supported for complex tensors")
    return ViewAsReal.apply(input)


def view_as_complex(input: Tensor) -> Tensor:
    """A float tensor whose last dim of 2 holds (real, imaginary) parts, as a complex view of its memory."""
    if input.dtype not in (_dtype.float32, _dtype.float64):
        raise RuntimeError(f"view_as_complex is only supported for float and double tensors, but got a tensor "
                           f"of scalar type: {_NAMES[input.dtype.name]}")
    if input.ndim == 0 or input.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if input.stride(-1) != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in input.stride()[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if input.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return ViewAsComplex.apply(input)


class Conj(Function):
    node_name = "ConjPhysicalBackward0"

    @staticmethod
    def forward(ctx, a):
        xp = xp_of(a._data)
        return new_tensor(xp.asarray(xp.conj(a._data)))  # (a 0-d input gives a NumPy scalar)

    @staticmethod
    def backward(ctx, g):
        return conj(g)


def conj_physical(input: Tensor) -> Tensor:
    """The complex conjugate, computed (a real tensor is returned as it is, as PyTorch does)."""
    return Conj.apply(input) if input.is_complex() else input


class ConjView(Conj):
    node_name = "ConjBackward0"


def conj(input: Tensor) -> Tensor:
    """The complex conjugate (a real tensor is returned as it is).

    NOTE: PyTorch's conj is a lazy view with a conjugate bit; core computes it (writes don't show through).
    """
    return ConjView.apply(input) if input.is_complex() else input


def conj_physical_(input: Tensor) -> Tensor:
    """Conjugate in place (a real tensor is left as it is)."""
    return input.copy_(conj_physical(input)) if input.is_complex() else input


def view_as_real_copy(input: Tensor) -> Tensor:
    return view_as_real(input).clone()


def view_as_complex_copy(input: Tensor) -> Tensor:
    return view_as_complex(input).clone()


def resolve_conj(input: Tensor) -> Tensor:
    """The tensor itself: core never keeps a lazy conjugate bit to resolve."""
    return input


def is_conj(input: Tensor) -> bool:
    """Always False: core's ``conj`` computes the conjugate instead of setting a bit."""
    return False


class Angle(Function):
    node_name = "AngleBackward0"

    @staticmethod
    def forward(ctx, a):
        x = a._data
        ctx.save_for_backward(a)
        if x.dtype.kind in "biu":  # (NumPy's angle of int8 or uint8 is float16: pi to three digits)
            x = x.astype(_angle_dtype(a).np)
        out = xp_of(x).asarray(xp_of(x).angle(x))  # (a real x: 0 for x >= 0, pi below, nan kept, as PyTorch's)
        out = out.astype(_angle_dtype(a).np, copy=False)  # NOTE: a complex x's angle is copied out of a complex
        return new_tensor(row_major(out) if x.dtype.kind == "c" else out)  # result: contiguous, as torch's

    @staticmethod
    def backward(ctx, g):
        (z,) = ctx._unpacked
        if not z.is_complex():
            return g * 0
        # d angle = (-y dx + x dy) / |z|^2, so z's gradient is g * i z / |z|^2 (0 at z = 0, as PyTorch's)
        r2 = real(z) * real(z) + imag(z) * imag(z)
        return (g * 1j) * z / r2.masked_fill(r2 == 0, float("inf"))


def _angle_dtype(t: Tensor) -> _dtype.dtype:
    d = t.dtype
    if d.is_complex:
        return d.to_real()
    return d if d.is_floating_point else _dtype.get_default_dtype()


def angle(input: Tensor) -> Tensor:
    """The argument of each element in radians (a real result; 0 or pi for real inputs)."""
    if type(input) is not Tensor:  # (a dense tensor: one identity test)
        from core._sparse_coo_ops import sparse_function  # (it imports the op modules this one comes before)

        res = sparse_function("angle", input)  # a COO tensor: torch's NotImplementedError
        if res is not None:
            return res
    return Angle.apply(input)


class Complex(Function):
    node_name = "ComplexBackward0"

    @staticmethod
    def forward(ctx, re, im):
        x, y = re._data, im._data
        out = xp_of(x).empty(np.broadcast_shapes(x.shape, y.shape), dtype=re.dtype.to_complex().np)
        out.real, out.imag = x, y  # NOTE: torch's kernel is a TensorIterator: a permuted pair's result is permuted so
        return new_tensor(out if out.ndim < 2 else laid_out_like_operands(out, x, y))

    @staticmethod
    def backward(ctx, g):
        return real(g), imag(g)


def complex(real: Tensor, imag: Tensor) -> Tensor:  # PyTorch's name
    """``real + i imag`` from two float tensors of one dtype (float32 -> complex64, float64 -> complex128)."""
    for name, t in (("real", real), ("imag", imag)):
        if not isinstance(t, Tensor):
            raise TypeError(f"complex(): argument '{name}' (position {1 + (name == 'imag')}) must be Tensor, "
                            f"not {type(t).__name__}")
    if real.dtype not in (_dtype.float16, _dtype.float32, _dtype.float64):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{_NAMES[real.dtype.name]} and {_NAMES[imag.dtype.name]}")
    if real.dtype is not imag.dtype:
        raise RuntimeError(f"Expected object of scalar type {_NAMES[real.dtype.name]} but got scalar type "
                           f"{_NAMES[imag.dtype.name]} for second argument")
    return Complex.apply(real, imag)


def polar(abs: Tensor, angle: Tensor) -> Tensor:  # PyTorch's names
    """``abs * (cos(angle) + i sin(angle))``, composed from differentiable ops."""
    require_tensors("polar", abs=(1, abs), angle=(2, angle))
    from core.ops.math_unary import cos, sin  # (math_unary imports this module's conj for its gradients)

    if abs.dtype is not angle.dtype:
        raise RuntimeError(f"Expected object of scalar type {_NAMES[abs.dtype.name]} but got scalar type "
                           f"{_NAMES[angle.dtype.name]} for second argument")
    return complex(abs * cos(angle), abs * sin(angle))

