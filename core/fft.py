"""``torch.fft``: discrete Fourier transforms with PyTorch's arguments, dtypes and gradients.

Three primitives do the work on NumPy's pocketfft: a complex-to-complex transform (``_C2C``), a real-to-complex
one-sided transform (``_R2C``) and its inverse (``_C2R``); ``_Resize`` zero-pads or trims the signal to ``n``/``s``.
Everything else (fft2, fftn, hfft, ihfft...) is composed from them, as PyTorch composes its own, so each
gets its gradient from theirs. A float32 (or integer) input gives complex64, float64 gives complex128.

Norms: ``"backward"`` (scale the inverse by 1/n), ``"ortho"`` (1/sqrt(n) both ways), ``"forward"`` (scale the
forward by 1/n). The adjoint of a transform is the opposite-direction transform with the dual norm
(backward <-> forward), which is how each primitive's backward is written.
"""

import numpy as _np

from core import _c_namespaces, _dtype
from core._tensor import Tensor
from core._tensor import new_tensor as _new_tensor
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad
from core.autograd.function import Function as _Function
from core.ops import out_arg as _out_arg
from core.ops.complex_ops import conj as _conj
from core.ops.complex_ops import real as _real
from core.ops.rearranging import roll as _roll

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "ifftn",
           "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_DUAL = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(norm) -> str:
    if norm is None:
        return "backward"
    if norm not in _DUAL:
        raise RuntimeError(f"Invalid normalization mode: \"{norm}\"")
    return norm


def _complex_dtype(t: Tensor) -> _dtype.dtype:
    d = t.dtype
    if d.is_complex:
        return d
    if d is _dtype.float64:
        return _dtype.complex128
    if d.is_floating_point and d is not _dtype.float32:
        raise RuntimeError(f"Unsupported dtype {_dtype.SCALAR_NAMES[d.name]}")
    return _dtype.get_default_dtype().to_complex()


def _as_complex(t: Tensor) -> Tensor:
    d = _complex_dtype(t)
    return t if t.dtype is d else t.to(d)


def _as_real(t: Tensor, name: str) -> Tensor:
    if t.is_complex():
        raise RuntimeError(f"{name} expects a real input tensor, but got {_dtype.SCALAR_NAMES[t.dtype.name]}")
    d = _complex_dtype(t).to_real()
    return t if t.dtype is d else t.to(d)


class _Resize(_Function):
    """Zero-pad or trim dims ``dims`` to ``sizes`` (the signal lengths ``n``/``s``); the gradient goes back."""

    node_name = "ConstantPadNdBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, sizes):
        x = a._data
        ctx.in_shape = x.shape
        ctx.dims = dims
        return _new_tensor(_resized(x, dims, sizes))

    @staticmethod
    def backward(ctx, g):
        return _resize(g, ctx.dims, [ctx.in_shape[d] for d in ctx.dims])


def _resized(x, dims, sizes):
    shape = list(x.shape)
    for d, n in zip(dims, sizes):
        shape[d] = n
    out = _np.zeros(shape, dtype=x.dtype)
    common = tuple(slice(0, min(x.shape[d], shape[d])) if d in dims else slice(None) for d in range(x.ndim))
    out[common] = x[common]
    return out


def _resize(t: Tensor, dims, sizes) -> Tensor:
    if all(t.shape[d] == n for d, n in zip(dims, sizes)):
        return t
    return _Resize.apply(t, dims=tuple(dims), sizes=tuple(sizes))


class _C2C(_Function):
    node_name = "FftC2CBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, norm, forward):
        ctx.dims, ctx.norm, ctx.forward = dims, norm, forward
        x = a._data
        fn = _np.fft.fftn if forward else _np.fft.ifftn
        return _new_tensor(_np.asarray(fn(x, axes=dims, norm=norm), dtype=x.dtype) if x.size else x.copy())

    @staticmethod
    def backward(ctx, g):
        return _c2c(g, ctx.dims, _DUAL[ctx.norm], not ctx.forward)


def _c2c(t, dims, norm, forward):
    return _C2C.apply(t, dims=tuple(dims), norm=norm, forward=forward)


class _R2C(_Function):
    """The one-sided transform of a real signal (the last of ``dims`` keeps n // 2 + 1 entries)."""

    node_name = "FftR2CBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, norm):
        x = a._data
        ctx.dims, ctx.norm, ctx.n = dims, norm, x.shape[dims[-1]]
        out = _np.fft.rfftn(x, axes=dims, norm=norm)
        return _new_tensor(_np.asarray(out, dtype=_np.result_type(x.dtype, _np.complex64)))

    @staticmethod
    def backward(ctx, g):
        # the one-sided half padded with zeros to the full length, then the dual inverse, real part
        full = _resize(g, (ctx.dims[-1],), (ctx.n,))
        return _real(_c2c(full, ctx.dims, _DUAL[ctx.norm], False))


class _C2R(_Function):
    """The inverse of ``_R2C``: a one-sided spectrum (Hermitian symmetry fills the rest) to a real signal of n."""

    node_name = "FftC2RBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, norm, n):
        x = a._data
        ctx.dims, ctx.norm, ctx.n = dims, norm, n
        s = [x.shape[d] for d in dims[:-1]] + [n]
        out = _np.fft.irfftn(x, s=s, axes=dims, norm=norm)
        return _new_tensor(_np.asarray(out, dtype=x.real.dtype))

    @staticmethod
    def backward(ctx, g):
        # PyTorch's fft_c2r_backward: the dual one-sided transform, with the entries whose mirror images
        # fall outside the one-sided half counted twice
        gi = _R2C.apply(g, dims=ctx.dims, norm=_DUAL[ctx.norm])
        last = ctx.dims[-1]
        double = ctx.n - gi.shape[last]
        if double > 0:
            scale = _np.ones(gi.shape[last], dtype=gi._data.real.dtype)
            scale[1:1 + double] = 2
            shape = [1] * gi.ndim
            shape[last] = -1
            gi = gi * _new_tensor(scale.reshape(shape))
        return gi


def _dims_and_sizes(t: Tensor, s, dim, name: str, default_dims=None):
    """PyTorch's resolution of ``s`` and ``dim``: dims (wrapped, no repeats) and each one's signal length."""
    ndim = t.ndim
    if dim is None and default_dims is not None:
        dim = default_dims
    if isinstance(dim, int):
        dim = (dim,)
    if s is not None and isinstance(s, int):
        s = (s,)
    if dim is None:
        dims = list(range(ndim - len(s), ndim)) if s is not None else list(range(ndim))
    else:
        dims = []
        for d in dim:
            if not -max(ndim, 1) <= d < max(ndim, 1):
                raise IndexError(f"Dimension out of range (expected to be in range of [{-max(ndim, 1)}, "
                                 f"{max(ndim, 1) - 1}], but got {d})")
            dims.append(d % max(ndim, 1))
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"{name} dims must be unique")
    if s is not None and len(s) != len(dims):
        raise RuntimeError("When given, dim and shape arguments must have the same length")
    if s is not None and len(dims) > ndim:
        raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
    sizes = [t.shape[d] if s is None or s[i] == -1 else int(s[i]) for i, d in enumerate(dims)]
    for n in sizes:
        if n < 1:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return dims, sizes


def _one_dim(n, dim):
    return (None if n is None else (n,)), (dim,)


# ----- complex-to-complex -----------------------------------------------------------------------------------
def _cfftn(input, s, dim, norm, forward, name, default_dims=None):
    dims, sizes = _dims_and_sizes(input, s, dim, name, default_dims)
    x = _resize(_as_complex(input), dims, sizes)
    return _c2c(x, dims, _norm(norm), forward)


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    """The 1-D discrete Fourier transform of ``input`` along ``dim`` (padded or trimmed to ``n``)."""
    s, d = _one_dim(n, dim)
    return _cfftn(input, s, d, norm, True, "fft")


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    s, d = _one_dim(n, dim)
    if not input.is_complex():  # PyTorch: the conjugate of the forward transform with the dual norm (its r2c), so
        return _conj(_cfftn(input, s, d, _DUAL[_norm(norm)], True, "ifft"))  # zero imaginary parts are -0.0000j
    return _cfftn(input, s, d, norm, False, "ifft")


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _cfftn(input, s, dim, norm, True, "fftn")


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _cfftn(input, s, dim, norm, False, "ifftn")


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    return _cfftn(input, s, dim, norm, True, "fftn")


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    return _cfftn(input, s, dim, norm, False, "ifftn")


# ----- real-to-complex (one-sided) and back ----------------------------------------------------------------
def _rfftn(input, s, dim, norm, name):
    x = _as_real(input, name)
    dims, sizes = _dims_and_sizes(x, s, dim, name)
    return _R2C.apply(_resize(x, dims, sizes), dims=tuple(dims), norm=_norm(norm))


def _irfftn(input, s, dim, norm, name):
    dims, sizes = _dims_and_sizes(input, s, dim, name)
    if s is None or s[-1] == -1:
        sizes[-1] = 2 * (input.shape[dims[-1]] - 1)
    if sizes[-1] < 1:
        raise RuntimeError(f"Invalid number of data points ({sizes[-1]}) specified")
    half = sizes[:-1] + [sizes[-1] // 2 + 1]
    x = _resize(_as_complex(input), dims, half)
    return _C2R.apply(x, dims=tuple(dims), norm=_norm(norm), n=sizes[-1])


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The one-sided transform of a real signal: n // 2 + 1 complex entries along ``dim``."""
    s, d = _one_dim(n, dim)
    return _rfftn(input, s, d, norm, "rfft")


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The real signal (of length ``n``, default 2 * (m - 1)) whose one-sided transform is ``input``."""
    s, d = _one_dim(n, dim)
    return _irfftn(input, s, d, norm, "irfft")


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _rfftn(input, s, dim, norm, "rfftn")


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _irfftn(input, s, dim, norm, "irfftn")


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _rfftn(input, s, dim, norm, "rfftn")


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _irfftn(input, s, dim, norm, "irfftn")


# ----- Hermitian: the real-signal pair the other way round --------------------------------------------------
def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The real transform of a one-sided Hermitian signal: irfft of its conjugate with the dual norm."""
    s, d = _one_dim(n, dim)
    return _irfftn(_conj(_as_complex(input)), s, d, _DUAL[_norm(norm)], "hfft")


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    """The inverse of ``hfft``: the conjugate of rfft with the dual norm."""
    s, d = _one_dim(n, dim)
    return _conj(_rfftn(input, s, d, _DUAL[_norm(norm)], "ihfft"))


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _irfftn(_conj(_as_complex(input)), s, dim, _DUAL[_norm(norm)], "hfftn")


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _conj(_rfftn(input, s, dim, _DUAL[_norm(norm)], "ihfftn"))


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return hfftn(input, s, dim, norm)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return ihfftn(input, s, dim, norm)


# ----- frequencies and shifts -----------------------------------------------------------------------------
def _frequencies(k, n, d, dtype, device, requires_grad):
    """``k / (d * n)`` as PyTorch computes it: the integers in ``dtype``, times the reciprocal (rounded to dtype)."""
    dt = _dtype.get_default_dtype() if dtype is None else _dtype.to_dtype(dtype)
    values = _new_tensor(k.astype(dt.np)) * (1.0 / (n * d))
    if device is not None:
        values = values.to(device)
    return _set_requires_grad(values) if requires_grad else values


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an n-point ``fft``: [0, 1, ..., -(n // 2), ..., -1] / (d * n)."""
    k = _np.concatenate((_np.arange((n + 1) // 2), _np.arange(-(n // 2), 0)))
    return _frequencies(k, n, d, dtype, device, requires_grad)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an n-point ``rfft``: [0, 1, ..., n // 2] / (d * n)."""
    return _frequencies(_np.arange(n // 2 + 1), n, d, dtype, device, requires_grad)


def _shift(input, dim, inverse: bool):
    dims = range(input.ndim) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    dims = [d % max(input.ndim, 1) for d in dims]
    shifts = [input.shape[d] // 2 for d in dims]
    return _roll(input, [-s if inverse else s for s in shifts], dims) if dims else input


def fftshift(input, dim=None):
    """Move the zero frequency to the middle (roll each dim by size // 2)."""
    return _shift(input, dim, False)


def ifftshift(input, dim=None):
    """Undo ``fftshift`` (roll each dim back by size // 2)."""
    return _shift(input, dim, True)


_out_arg.install(globals(), (  # out= was taken and ignored; now written as torch's (core.ops.out_arg)
    "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn", "hfft",
    "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"))

_c_namespaces.publish(globals())  # torch.fft.X is fft_X (core._c_namespaces): last, after every rebinding above
