"""float32 silu and softplus of a C-contiguous array as PyTorch's vectorised CPU loops compute them, a cache-sized
block at a time, with the forward's exponentials kept for the backward.

Both kernels go through ``core._sleef.vector_loop``'s split: the first ``n - n % _PAIR`` elements (32 with AVX-512,
16 with AVX2) take SLEEF's ``expf_u10`` (and ``log1pf_u10``), the last ``n % _PAIR`` the C library's. Here that
split is taken on the flat array as ``vector_loop``'s common case does, but each step runs ``_BLOCK`` elements at
a time, so SLEEF's float64 temporaries stay in cache (every step is elementwise: the same bits as the whole-array
forms in ``core.nn.functional.activation``).

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
from core._pool import pool_map
from core._select import where as select
from core._sleef import _PAIR, _workers, expf_u10, log1pf_u10

__all__ = ["plain", "silu_forward", "silu_backward", "softplus_forward", "softplus_backward", "keep", "kept"]

_F32 = np.float32
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


def _run(n: int, block, errors: dict) -> None:
    """``block(start, stop)`` over ``[0, n)`` a ``_BLOCK`` at a time, under ``np.errstate(**errors)``; from
    ``core._sleef``'s threshold (16 blocks) the blocks in contiguous runs, one per thread of
    ``core.get_num_threads()``, as ``expf_u10`` splits a whole array (NumPy's ufuncs release the GIL; every step is
    elementwise, so the same values). NOTE: NumPy's error state is per thread: each run sets its own."""
    def blocks(lo: int, hi: int) -> None:
        with np.errstate(**errors):
            for start in range(lo, hi, _BLOCK):
                block(start, min(start + _BLOCK, hi))
    workers = _workers(n)
    if workers == 1:
        blocks(0, n)
        return
    cuts = [(n // _BLOCK) * i // workers * _BLOCK for i in range(workers)] + [n]
    pool_map(lambda i: blocks(cuts[i], cuts[i + 1]), range(workers))


def _ranges(n: int, block, errors: dict, tail=None) -> None:
    """``_run`` over the vector loop's part ``[0, n - n % _PAIR)``, then ``tail`` (default ``block``) on the tail by
    itself (the forwards' tails take the C library's exp, as torch's scalar loop).

    NOTE: as ``vector_loop`` called each form: where two NaNs meet, NumPy's loops return one or the other by
    position in the call (a tail multiplied inside a longer call gave the other NaN's sign than by itself)."""
    cut = n - n % _PAIR
    _run(cut, block, errors)
    if cut < n:
        with np.errstate(**errors):
            (tail or block)(cut, n)


def silu_forward(a: np.ndarray) -> tuple:
    """``(x / (1 + exp(-x)), 1 + exp(-x))`` of a ``plain`` array: silu's kernel and its denominator."""
    flat = a.reshape(-1)
    n = flat.size
    out, den = np.empty(n, _F32), np.empty(n, _F32)

    def block(start, stop):
        d = den[start:stop]
        expf_u10(flat[start:stop], negate=True, out=d)
        np.add(d, _ONE, out=d)
        np.divide(flat[start:stop], d, out=out[start:stop])

    def tail(start, stop):
        x = flat[start:stop]
        den[start:stop] = 1 + glibc.expf(-x)
        out[start:stop] = x / den[start:stop]
    _ranges(n, block, {"over": "ignore", "invalid": "ignore"}, tail)  # (-inf / inf: NaN, as torch, no warning)
    return out.reshape(a.shape), den


def silu_backward(a: np.ndarray, g: np.ndarray, den: np.ndarray) -> np.ndarray:
    """silu_backward's kernel from the forward's denominator: ``dy * s * fma(x, 1 - s, 1)``, ``s = 1 / den``.

    NOTE: GCC contracts ``x * (1 - s) + 1`` to an fma in both of torch's forms (``core._fused.fma``: rounded once)."""
    flat, dy = a.reshape(-1), g.reshape(-1)
    out = np.empty(flat.size, _F32)
    one = _F32(1)

    def block(start, stop):  # NOTE: no output over an operand where two NaNs may meet (an in-place multiply
        sig = np.divide(_ONE, den[start:stop])  # returned the other NaN, its sign, than the fresh product)
        res = np.multiply(dy[start:stop], sig)
        np.subtract(_ONE, sig, out=sig)
        np.multiply(res, fused.fma(np, flat[start:stop], sig, one), out=out[start:stop])
    _ranges(flat.size, block, {"over": "ignore", "invalid": "ignore"})  # (inf x 0 in the fma: NaN, as torch)
    return out.reshape(a.shape)


def softplus_forward(a: np.ndarray, beta, threshold) -> tuple:
    """``(softplus, exp(x beta))`` of a ``plain`` array: ``x`` where ``x beta > threshold``, else
    ``log1p(exp(x beta)) / beta``, beta and threshold in float32."""
    b, t = _F32(beta), _F32(threshold)
    flat = a.reshape(-1)
    n = flat.size
    out, exp = np.empty(n, _F32), np.empty(n, _F32)

    def block(start, stop):
        v = flat[start:stop]
        z = v * b
        e = expf_u10(z, out=exp[start:stop])
        out[start:stop] = select(z > t, v, log1pf_u10(e) / b)

    def tail(start, stop):
        v = flat[start:stop]
        z = v * b
        exp[start:stop] = glibc.expf(z)
        out[start:stop] = select(z > t, v, glibc.log1pf(exp[start:stop]) / b)
    _ranges(n, block, {"over": "ignore"}, tail)
    return out.reshape(a.shape), exp


def softplus_backward(a: np.ndarray, g: np.ndarray, exp: np.ndarray, beta, threshold) -> np.ndarray:
    """softplus_backward's kernel from the forward's ``z = exp(x beta)``: ``g`` where ``x beta > threshold``, else
    ``g z / (z + 1)``."""
    b, t = _F32(beta), _F32(threshold)
    flat, w = a.reshape(-1), g.reshape(-1)
    out = np.empty(flat.size, _F32)

    def block(start, stop):
        z, wv = exp[start:stop], w[start:stop]
        out[start:stop] = select(flat[start:stop] * b > t, wv, wv * z / (z + _ONE))
    _ranges(flat.size, block, {"over": "ignore", "invalid": "ignore"})
    return out.reshape(a.shape)
