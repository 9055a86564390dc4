"""PyTorch's CPU sampling kernels on NumPy arrays: the same numbers from the same generator state.

Each function takes a ``core.Generator`` and returns a flat array of ``n`` values in the order
PyTorch's kernel writes them (``fill`` puts them into a tensor's memory in that order). The
transforms follow ATen's ``TransformationHelper.h`` and ``DistributionsHelper.h``: a float32
uniform keeps the low 24 bits of one 32-bit draw, a float64 uniform the low 53 bits of a 64-bit
draw (two 32-bit draws, the first high); integers are a draw modulo the range. ``normal`` has two
algorithms like PyTorch: blocks of 16 for contiguous tensors of 16 or more elements
(``core._boxmuller``), else one Box-Muller pair at a time whose second value the generator keeps.
"""

from __future__ import annotations

import math

import numpy as np

from core import _boxmuller, _libm, _randperm

__all__ = ["uniform", "normal", "random_from_to", "random_full_range", "random_default", "bernoulli_scalar",
           "bernoulli_tensor", "exponential", "geometric", "log_normal", "cauchy", "randperm",
           "multinomial_with_replacement", "default_span", "fill", "memory_order"]

_F32_MASK = np.uint64((1 << 24) - 1)


def _u24(gen, n: int) -> np.ndarray:
    """float32 uniforms: the low 24 bits of ``n`` 32-bit draws times 2**-24.

    NOTE: a hot path (``normal_`` on 15M values): the draws come a cache-sized block at a time
    (``random32_each``), and NumPy converts uint64 to float32 slowly, so each block's low 32-bit words (the
    uint64's first half on little-endian machines) are masked as int32 and converted from there; the 24-bit
    integers and the power-of-two scale are exact either way."""
    out = np.empty(n, dtype=np.float32)
    bits = np.empty(min(n, _BLOCK), dtype=np.uint32)
    gen.random32_each(n, _BLOCK, lambda start, raw: _u24_block(raw, bits, out[start:start + raw.size]))
    return out


def _u24_block(raw: np.ndarray, bits: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``_u24``'s values of one block of draws into ``out`` (``bits``: uint32 scratch of at least its size)."""
    k = bits[:raw.size]
    np.bitwise_and(_low_words(raw), np.uint32(0xFFFFFF), out=k)
    np.copyto(out, k.view(np.int32), casting="unsafe")
    out *= np.float32(2.0 ** -24)
    return out


def _low_words(raw: np.ndarray) -> np.ndarray:
    """32-bit draws (held as uint64) as uint32: a view on little-endian machines."""
    return raw.view(np.uint32)[::2] if np.little_endian else raw.astype(np.uint32)


def _u53(gen, n: int) -> np.ndarray:
    """float64 uniforms: the low 53 bits of ``n`` 64-bit draws times 2**-53."""
    out = np.empty(n)
    gen.random53_each(n, _BLOCK, lambda start, bits: _u53_block(bits, out[start:start + bits.size]))
    return out


def _u53_block(bits: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``_u53``'s values of one block of 53-bit draws into ``out`` (as int64, whose conversion NumPy does fast)."""
    np.copyto(out, bits.view(np.int64))
    out *= 2.0 ** -53
    return out


def _opmath(dt) -> type:
    return np.float64 if np.dtype(dt) == np.float64 else np.float32


_BLOCK = 1 << 16  # values per step of _uniform_f32: its float64 buffer (512 KiB) stays in cache


def _uniform_f32(gen, n: int, span: float, low: float, out: np.ndarray | None = None, top=None) -> np.ndarray:
    """Float32 ``u * span + low`` from ``n`` 32-bit draws, ``u`` their low 24 bits times 2**-24, computed in
    float64 and rounded once, in cache-sized blocks: a 25088x4096 ``nn.Linear`` init (103M values) made
    seven full-size passes through memory; each block now makes them in cache, as it is drawn.

    NOTE: ``k * (span * 2**-24)`` equals ``(k * 2**-24) * span`` bit for bit (a power-of-two scale, and
    a 24-bit by 24-bit product is exact in float64), so the values are those of the unblocked form. The
    24 bits come from the draws' low 32-bit words as int32 (see ``_u24``) and the float64 sum is stored straight
    into the float32 result (``out`` if given); a value equal to float32 ``top`` (when given) becomes ``low``."""
    out = np.empty(n, dtype=np.float32) if out is None else out
    buf, bits = np.empty(min(_BLOCK, n), dtype=np.float64), np.empty(min(_BLOCK, n), dtype=np.uint32)
    scale = span * 2.0 ** -24

    def consume(start: int, raw: np.ndarray) -> None:
        b, k = buf[:raw.size], bits[:raw.size]
        np.bitwise_and(_low_words(raw), np.uint32(0xFFFFFF), out=k)
        np.copyto(b, k.view(np.int32), casting="unsafe")
        b *= scale
        o = out[start:start + raw.size]
        np.add(b, low, out=o, casting="unsafe")
        if top is not None:
            o[o == top] = low

    gen.random32_each(n, _BLOCK, consume)
    return out


def uniform(gen, n: int, dt, low: float, high: float, out: np.ndarray | None = None) -> np.ndarray:
    """``uniform_``: ``u * (to - from) + from`` (fused) in the opmath type; a rounded-up ``to`` becomes ``from``.
    ``out``: a flat array of ``dt`` to write into (float32 writes there directly; others are copied in)."""
    op = _opmath(dt)
    lo, hi = op(low), op(high)
    top, bottom = np.asarray(high).astype(dt), np.asarray(low).astype(dt)
    if op is np.float64:
        vals = _boxmuller.fma64(_u53(gen, n), float(hi - lo), float(lo))
    elif np.dtype(dt) == np.float32:  # the float32 values are final: the top check runs block by block
        return _put(out, _uniform_f32(gen, n, float(hi - lo), float(lo), out, top=top))
    else:
        vals = _uniform_f32(gen, n, float(hi - lo), float(lo))
    vals = vals.astype(dt, copy=False)
    vals[vals == top] = bottom
    if out is not None and vals is not out:
        out[...] = vals
    return vals


def _from_double(vals: np.ndarray, dt) -> np.ndarray:
    """A sampler's float64 values as ``dt``, as C++'s ``static_cast<scalar_t>(double)`` converts them: Half and
    BFloat16 are built from a float, so their values round twice (double to float, float to 16 bits)."""
    if np.dtype(dt).itemsize == 2 and np.dtype(dt).kind not in "iu":
        vals = vals.astype(np.float32)
    return vals.astype(dt)


def normal(gen, n: int, dt, mean: float, std: float, contiguous: bool = True,
           out: np.ndarray | None = None) -> np.ndarray:
    """``normal_``: blocks of 16 when contiguous and ``n >= 16``, else the scalar sampler. ``out``: a flat array
    of ``dt`` to write into (float32 and float64 write there directly; others are copied in)."""
    if n < 16 or not contiguous:
        return _put(out, _from_double(_scalar_normal(gen, n, mean, std), dt))
    op = _opmath(dt)
    draw, blocks = (_u53, _boxmuller.blocks_f64) if op is np.float64 else (_u24, _boxmuller.blocks_f32)
    if out is None or out.dtype != op:
        return _put(out, normal(gen, n, dt, mean, std, contiguous, np.empty(n, dtype=op)).astype(dt, copy=False))
    full = n // 16 * 16
    # float/double fill all n with uniforms first; half draws block by block (no draws for the rest)
    if op is np.float32:
        _normal_f32_blocks(gen, full if op is not np.dtype(dt).type else n, full, mean, std, out)
    else:
        _normal_f64_blocks(gen, n, full, mean, std, out)
    if n % 16:  # then PyTorch redoes the last 16 values from 16 fresh uniforms
        out[n - 16:] = blocks(draw(gen, 16), mean, std)
    return out


def _normal_f32_blocks(gen, draws: int, full: int, mean: float, std: float, out: np.ndarray) -> None:
    """float32 normals from the first ``full`` of ``draws`` uniforms into ``out[:full]``, a block of draws at a time.

    NOTE: each block's uniforms go through Box-Muller while they are in cache (``_BLOCK`` is a multiple of 16, so
    blocks of 16 never straddle two), and no ``n``-long array of uniforms is made: the values of drawing them all
    first."""
    u, bits = np.empty(min(_BLOCK, draws), dtype=np.float32), np.empty(min(_BLOCK, draws), dtype=np.uint32)

    def consume(start: int, raw: np.ndarray) -> None:
        stop = min(start + raw.size, full)
        if stop > start:
            _u24_block(raw, bits, u[:raw.size])
            _boxmuller.blocks_f32(u[:stop - start], mean, std, out=out[start:stop])

    gen.random32_each(draws, _BLOCK, consume)


_BLOCK64 = 1 << 14  # float64 values per step of _normal_f64_blocks (a multiple of 16)


def _normal_f64_blocks(gen, draws: int, full: int, mean: float, std: float, out: np.ndarray) -> None:
    """float64 normals from the first ``full`` of ``draws`` uniforms into ``out[:full]``, a block at a time (as
    ``_normal_f32_blocks``: each block's uniforms go through Box-Muller while they are in cache)."""
    u = np.empty(min(_BLOCK64, draws))

    def consume(start: int, bits: np.ndarray) -> None:
        stop = min(start + bits.size, full)
        if stop > start:
            _u53_block(bits, u[:bits.size])
            _boxmuller.blocks_f64(u[:stop - start], mean, std, out=out[start:stop])

    gen.random53_each(draws, _BLOCK64, consume)


def _put(out: np.ndarray | None, vals: np.ndarray) -> np.ndarray:
    """``vals``, copied into ``out`` when there is one."""
    if out is None or out is vals:
        return vals
    out[...] = vals
    return out


def _standard_normals(gen, n: int) -> np.ndarray:
    """``normal_distribution<double>``: Box-Muller pairs, cosine first; an unused sine is kept for later."""
    out = np.empty(n)
    start = 0
    if n and gen.next_double_normal is not None:
        out[0], gen.next_double_normal = gen.next_double_normal, None
        start = 1
    m = n - start
    pairs = (m + 1) // 2
    u = _u53(gen, 2 * pairs).reshape(pairs, 2)
    radius = np.sqrt(-2.0 * _libm.log1p(-u[:, 1]))
    theta = (2.0 * math.pi) * u[:, 0]
    both = np.stack([radius * np.cos(theta), radius * np.sin(theta)], axis=1).reshape(-1)
    out[start:] = both[:m]
    if m % 2:
        gen.next_double_normal = float(both[-1])
    return out


def _scalar_normal(gen, n: int, mean: float, std: float) -> np.ndarray:
    return _boxmuller.fma64(_standard_normals(gen, n), float(std), float(mean))


def random_from_to(gen, n: int, dt, span: int, base: int, out: np.ndarray | None = None) -> np.ndarray:
    """``random_(from, to)``: ``base + draw % span``; 64-bit draws from a span of 2**28 on (less skew). ``out``: a
    flat array of ``dt`` to write into."""
    if span < 1 << 28 and out is not None:
        return _small_range(gen, n, span, base, out)
    draws = gen.random64(n) if span >= 1 << 28 else gen.random32(n)
    vals = (draws % np.uint64(span) + np.uint64(base & 0xFFFF_FFFF_FFFF_FFFF)).view(np.int64)
    return _put(out, vals.astype(dt))


def _small_range(gen, n: int, span: int, base: int, out: np.ndarray) -> np.ndarray:
    """``random_from_to`` for spans below 2**28 (one 32-bit draw each) into ``out``, a block of draws at a time.

    NOTE: ``randint(0, 10, (n,))`` on millions: the remainder is taken on the draws' low 32-bit words as uint32
    (a draw and ``span`` both fit), and ``base`` added in int64 as PyTorch adds it, straight into ``out``."""
    bits = np.empty(min(n, _BLOCK), dtype=np.uint32)
    wide = np.empty(min(n, _BLOCK), dtype=np.int64) if out.dtype != np.int64 else None
    divisor, offset = np.uint32(span), np.int64(base)

    def consume(start: int, raw: np.ndarray) -> None:
        k = bits[:raw.size]
        np.remainder(_low_words(raw), divisor, out=k)
        o = out[start:start + raw.size]
        if wide is None:
            np.add(k, offset, out=o)
        else:
            np.add(k, offset, out=wide[:raw.size])
            o[...] = wide[:raw.size]

    gen.random32_each(n, _BLOCK, consume)
    return out


def random_full_range(gen, n: int, dt) -> np.ndarray:
    """``random_(-2**63, None)``: a whole 64-bit draw as int64."""
    return gen.random64(n).view(np.int64).astype(dt)


_DEFAULT_SPAN = {"float64": (1 << 53) + 1, "float32": (1 << 24) + 1, "float16": (1 << 11) + 1,
                 "int64": 1 << 63, "int32": 1 << 31, "int16": 1 << 15, "int8": 1 << 7, "uint8": 1 << 8, "bool": 2}


def default_span(dt) -> int:
    return _DEFAULT_SPAN[np.dtype(dt).name]


def random_default(gen, n: int, dt) -> np.ndarray:
    """``random_()``: ``[0, 2**mantissa]`` for floats, ``[0, max]`` for integers (64-bit draws for int64/float64)."""
    name = np.dtype(dt).name
    draws = gen.random64(n) if name in ("int64", "float64") else gen.random32(n)
    return (draws % np.uint64(_DEFAULT_SPAN[name])).astype(dt)


def bernoulli_scalar(gen, n: int, p: float, dt) -> np.ndarray:
    """``bernoulli_(p)`` (PyTorch's portable kernel): a float64 uniform below ``p``."""
    return (_u53(gen, n) < p).astype(dt)


def bernoulli_tensor(gen, probs: np.ndarray, dt) -> np.ndarray:
    """``bernoulli_(p_tensor)``: float64 ``p`` compares float64 uniforms, other dtypes float32 ones."""
    probs = probs.reshape(-1)
    if probs.dtype == np.float64:
        return (_u53(gen, probs.size) < probs).astype(dt)
    return (_u24(gen, probs.size) < probs.astype(np.float32)).astype(dt)


def exponential(gen, n: int, lambd: float, dt) -> np.ndarray:
    """``exponential_``: ``-1/lambda * log1p(-u)`` in float64 (the C library's ``log1p``, which costs a Python call
    per element). A float32 or 16-bit result takes NumPy's vectorised ``log1p`` and asks the C library only where
    those few ulps could move the rounding to float32 (about one draw in 10^5): the same values, 20 times faster
    (``multinomial`` draws one per category: 50257 of them for a GPT-2 vocabulary)."""
    u = _u53(gen, n)
    scale = -1.0 / lambd
    if np.dtype(dt).itemsize >= 8:
        return _from_double(scale * _libm.log1p(-u), dt)
    with np.errstate(all="ignore"):
        vals = scale * np.log1p(-u)
        slack = np.abs(vals) * 2.0**-40  # NOTE: thousands of double ulps, far more than NumPy's log1p is off by
        doubtful = (vals - slack).astype(np.float32) != (vals + slack).astype(np.float32)
    if doubtful.any():
        vals[doubtful] = scale * _libm.log1p(-u[doubtful])
    return _from_double(vals, dt)


def geometric(gen, n: int, p: float, dt) -> np.ndarray:
    """``geometric_``: ``ceil(log(u) / log1p(-p))`` in float64."""
    with np.errstate(divide="ignore"):
        return _from_double(np.ceil(_libm.log(_u53(gen, n)) / math.log1p(-p)), dt)


def log_normal(gen, n: int, mean: float, std: float, dt) -> np.ndarray:
    """``log_normal_``: ``exp`` of the scalar normal sampler."""
    with np.errstate(over="ignore"):
        return _from_double(_libm.exp(_scalar_normal(gen, n, mean, std)), dt)


def cauchy(gen, n: int, median: float, sigma: float, dt) -> np.ndarray:
    """``cauchy_``: ``median + sigma * tan(pi * (u - 0.5))`` in float64."""
    return _from_double(median + sigma * _libm.tan(math.pi * (_u53(gen, n) - 0.5)), dt)


def randperm(gen, n: int) -> np.ndarray:
    """``randperm``: PyTorch's Fisher-Yates shuffle (``core._randperm`` applies its swaps in vectorised rounds)."""
    return _randperm.randperm(gen, n)


def multinomial_with_replacement(gen, probs: np.ndarray, n_sample: int) -> np.ndarray:
    """Per row: the running sum in the input's dtype over its total, then a binary search per uniform."""
    rows = probs.reshape(-1, probs.shape[-1])
    op = np.float32 if rows.dtype == np.float16 else rows.dtype.type
    out = np.empty((rows.shape[0], n_sample), dtype=np.int64)
    for i, row in enumerate(rows.astype(op)):
        cdf = np.cumsum(row, dtype=op)
        cdf /= cdf[-1]
        cdf[-1] = 1
        out[i] = np.searchsorted(cdf.astype(np.float64), _u53(gen, n_sample), side="left")
    return out


def memory_order(arr: np.ndarray, like: np.ndarray | None = None) -> np.ndarray:
    """A view of ``like`` (default ``arr``) whose C order is ``arr``'s memory order: how PyTorch's
    TensorIterator walks an output tensor (and its inputs, broadcast to it)."""
    like = arr if like is None else like
    if arr.ndim < 2 or arr.flags.c_contiguous:
        return like
    axes = sorted(range(arr.ndim), key=lambda d: (-abs(arr.strides[d]), d))
    return like.transpose(axes)


def fill(arr: np.ndarray, values: np.ndarray) -> None:
    """Write ``values`` (flat, in PyTorch's order) into ``arr``'s memory."""
    view = memory_order(arr)
    view[...] = values.reshape(view.shape)
