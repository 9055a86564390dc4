"""float32 silu and softplus of a C-contiguous array as PyTorch's vectorised CPU loops compute them, a cache-sized
block at a time, with the forward's exponentials kept for the backward.

Both kernels go through ``core._sleef.vector_loop``'s split: the first ``n - n % 32`` elements take SLEEF's
``expf_u10`` (and ``log1pf_u10``), the last ``n % 32`` the C library's. Here that split is taken on the flat array
as ``vector_loop``'s common case does, but each step runs ``_BLOCK`` elements at a time, so SLEEF's float64
temporaries stay in cache (every step is elementwise: the same bits as the whole-array forms in
``core.nn.functional.activation``).

The backward of each needs the forward's exponential again (silu: ``1 + exp(-x)``, softplus: ``exp(beta x)``):
the forward returns it, ``keep`` stores it on the node where a gradient is recorded, and ``kept`` hands it to the
backward when the saved input is still the same array and the incoming gradient is laid out as the input (then
``vector_loop`` would split both alike), so the backward's ~30 NumPy passes of SLEEF's exp are not run twice.
The cost is one float32 array of the input's size held from the forward to the node's backward (PyTorch's nodes
save the input alone).
"""

from __future__ import annotations

import numpy as np

from core import _fused as fused
from core import _glibc as glibc
from core._select import where as select
from core._sleef import expf_u10, log1pf_u10

__all__ = ["plain", "silu_forward", "silu_backward", "softplus_forward", "softplus_backward", "keep", "kept"]

_F32 = np.float32
_PAIR = 32  # float32 elements of one step of the vector loop (two AVX-512 vectors)
# NOTE: elements per block, as ``core._sleef``'s: SLEEF's float64 scratch for one block stays in a core's L2
_BLOCK = 16384
_ONE = np.array(1, _F32)


def plain(a) -> bool:
    """Whether ``a`` takes these kernels: a C-contiguous float32 NumPy array of at least one vector step."""
    return type(a) is np.ndarray and a.dtype == _F32 and a.flags.c_contiguous and a.size >= _PAIR


def keep(ctx, a: np.ndarray, exp: np.ndarray) -> None:
    """Store the forward's exponentials ``exp`` of the input ``a`` on ``ctx`` where a gradient is recorded."""
    if ctx.needs_input_grad:
        ctx.kept_exp = (a, exp)


def kept(ctx, a: np.ndarray, g: np.ndarray):
    """The exponentials ``keep`` stored for the input array ``a``, where the gradient ``g`` is split as ``a`` is
    (both ``plain``, one shape); else None (the backward recomputes them). They are dropped from ``ctx`` here, as
    the engine frees a node's saved tensors after its backward: a second backward (``retain_graph``) recomputes."""
    stored = getattr(ctx, "kept_exp", None)
    if stored is not None:
        del ctx.kept_exp
    if stored is None or stored[0] is not a or not plain(g) or g.shape != a.shape:
        return None
    return stored[1]


def _blocks(n: int):
    return ((start, min(start + _BLOCK, n)) for start in range(0, n, _BLOCK))


def silu_forward(a: np.ndarray) -> tuple:
    """``(x / (1 + exp(-x)), 1 + exp(-x))`` of a ``plain`` array: silu's kernel and its denominator."""
    flat = a.reshape(-1)
    n = flat.size
    cut = n - n % _PAIR
    out, den = np.empty(n, _F32), np.empty(n, _F32)
    with np.errstate(over="ignore"):
        for start, stop in _blocks(cut):
            d = den[start:stop]
            expf_u10(flat[start:stop], negate=True, out=d)
            np.add(d, _ONE, out=d)
            np.divide(flat[start:stop], d, out=out[start:stop])
        if cut < n:
            tail = flat[cut:]
            den[cut:] = 1 + glibc.expf(-tail)
            out[cut:] = tail / den[cut:]
    return out.reshape(a.shape), den


def silu_backward(a: np.ndarray, g: np.ndarray, den: np.ndarray) -> np.ndarray:
    """silu_backward's kernel from the forward's denominator: ``dy * s * fma(x, 1 - s, 1)``, ``s = 1 / den``.

    NOTE: GCC contracts ``x * (1 - s) + 1`` to an fma in both of torch's forms (``core._fused.fma``: rounded once)."""
    flat, dy = a.reshape(-1), g.reshape(-1)
    out = np.empty(flat.size, _F32)
    one = _F32(1)
    for start, stop in _blocks(flat.size):
        sig = np.divide(_ONE, den[start:stop])
        res = out[start:stop]
        np.multiply(dy[start:stop], sig, out=res)
        np.subtract(_ONE, sig, out=sig)
        res *= fused.fma(np, flat[start:stop], sig, one)
    return out.reshape(a.shape)


def softplus_forward(a: np.ndarray, beta, threshold) -> tuple:
    """``(softplus, exp(x beta))`` of a ``plain`` array: ``x`` where ``x beta > threshold``, else
    ``log1p(exp(x beta)) / beta``, beta and threshold in float32."""
    b, t = _F32(beta), _F32(threshold)
    flat = a.reshape(-1)
    n = flat.size
    cut = n - n % _PAIR
    out, exp = np.empty(n, _F32), np.empty(n, _F32)
    with np.errstate(over="ignore"):
        for start, stop in _blocks(cut):
            v = flat[start:stop]
            z = v * b
            e = expf_u10(z, out=exp[start:stop])
            out[start:stop] = select(z > t, v, log1pf_u10(e) / b)
        if cut < n:
            v = flat[cut:]
            z = v * b
            exp[cut:] = glibc.expf(z)
            out[cut:] = select(z > t, v, glibc.log1pf(exp[cut:]) / b)
    return out.reshape(a.shape), exp


def softplus_backward(a: np.ndarray, g: np.ndarray, exp: np.ndarray, beta, threshold) -> np.ndarray:
    """softplus_backward's kernel from the forward's ``z = exp(x beta)``: ``g`` where ``x beta > threshold``, else
    ``g z / (z + 1)``."""
    b, t = _F32(beta), _F32(threshold)
    flat, w = a.reshape(-1), g.reshape(-1)
    out = np.empty(flat.size, _F32)
    with np.errstate(over="ignore", invalid="ignore"):
        for start, stop in _blocks(flat.size):
            z, wv = exp[start:stop], w[start:stop]
            q = wv * z
            q /= z + _ONE
            out[start:stop] = select(flat[start:stop] * b > t, wv, q)
    return out.reshape(a.shape)
