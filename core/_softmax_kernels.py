"""Float32 softmax and log_softmax gradients (and the softmax's exps) rounded as PyTorch's CPU kernels round them.

PyTorch's ``SoftMaxKernel.cpp`` computes, for float32 NumPy arrays here:

- over the last dim (16 AVX-512 lanes, 8 AVX2 ones: ``core._lane_sum``): softmax's exps with SLEEF's ``expf_u10``
  (``core._sleef``, not the correctly rounded ``torch.exp``); softmax's backward as ``(g - sum(g * y)) * y``
  with the products rounded and added in lane order; log_softmax's backward as ``g - exp(y) * sum(g)``, the
  sum in lane order and the last two steps one fused multiply-add, with SLEEF's exp; log_softmax's log of
  its row sums (over any dim) is SLEEF's ``logf_u10``;
- over another dim (vectorised across the inner positions, in chunks that fit its 128 KiB block): sums along
  the dim left to right, softmax's as fused multiply-adds ``acc = g * y + acc``; log_softmax's backward fused
  as over the last dim; the exps (softmax's and log_softmax's forward, log_softmax's backward) SLEEF's on the
  inner positions that fill whole vectors (for softmax's forward, of each row within each thread's run of
  positions, ``_vector_positions``; of each chunk otherwise) and glibc's ``expf`` (``core._glibc``, what
  ``std::exp`` calls) on the rest.

Float64 softmax's forward over the last dim on ATen's AVX-512 build (``softmax_double``): SLEEF's ``expd_u10``
(``Vectorized<double>::exp``), the row sums over 8 lanes, times the reciprocal; bit for bit where NumPy's exp, sum
and division differed in about half the elements (``tests/core/test_softmax_f64_oracle.py``). It costs: the exact
fused multiply-adds of ``expd_u10`` in NumPy make a (64, 10) softmax ~0.65 ms (NumPy's steps 10 µs), a
(1000, 1000) one ~0.2 s (2.5 ms), measured 2026-12-06 on the shared AMD EPYC. Over another dim (``_vec_softmax``,
2026-12-06): SLEEF's ``expd_u10`` on the vector positions of each thread's run (8 lanes), glibc's ``exp``
(``core._libm``) on the rest, each position's sum along the dim left to right, then a division; bit for bit where
NumPy's steps differed in 4-12% of elements (a (6, 300, 50) softmax over dim 1: 0.8 -> 25 ms). Float64
log_softmax's forward (2026-12-06): SLEEF's ``expd_u10`` (over another dim: on each 128 KiB chunk's vector
positions, glibc's ``exp`` on the rest), the sums in the kernels' orders (``log_softmax_sum``: 8 lanes over the last
dim, along the dim otherwise) and SLEEF's ``logd_u10`` of them (``core._sleef_logd``), then ``(x - max) - log``;
NumPy's sums and a correctly rounded log differed in 1-18% of elements (with the sums right, 0.8%: the log). It
costs as the softmax: (64, 10) 39 us -> 1.1 ms, (256, 1000) 1.4 -> 71 ms. Their backwards stay as they were.

NumPy's pairwise sums and an unfused ``g - e * s`` differed from torch on 20-60% of the gradient's elements;
these functions equal torch's bit for bit (``tests/core/test_grad_bits.py``). Each returns None for what it
does not cover (other dtypes, CuPy arrays, 0-d or empty arrays), and the caller keeps its general formula.
"""

from __future__ import annotations

import numpy as np

from core import _cpu
from core._cascade_sum import in_order
from core._glibc import expf as glibc_expf
from core._lane_sum import LANES, lane_row_sum, softmax_sum
from core._precise import precise
from core._sleef import expf_u10, logf_u10
from core._sleef_logd import logd_u10
from core.ops._util import xp_of

__all__ = ["kernel_exp", "kernel_log", "softmax_backward", "log_softmax_backward", "softmax_double", "log_softmax_sum"]

_F32, _F64 = np.dtype(np.float32), np.float64
_BLOCK = 128 * 1024  # bytes of the non-last-dim kernels' working block


_DOUBLE_LANES = 8  # float64 lanes of an AVX-512 vector
_AVX512 = _cpu.capability() == "AVX512"


def _double_last(a: np.ndarray, axis: int) -> bool:
    """A non-empty float64 NumPy array over its last dim, on ATen's AVX-512 build (where the float64 steps of
    ``softmax_double`` were measured)."""
    return (type(a) is np.ndarray and a.dtype == _F64 and a.ndim and a.size and axis % a.ndim == a.ndim - 1
            and _cpu.capability() == "AVX512")


def _double_exp(s: np.ndarray) -> np.ndarray:
    from core.nn.functional._flash_cpu import expd_u10  # (core.nn imports core: not at core's import)
    return expd_u10(s)


def _double_dim(a: np.ndarray, axis: int) -> bool:
    """A non-empty float64 NumPy array over a dim other than its last, on ATen's AVX-512 build."""
    return (type(a) is np.ndarray and a.dtype == _F64 and a.ndim > 1 and a.size and axis % a.ndim != a.ndim - 1
            and _cpu.capability() == "AVX512")


def _vector_positions(outer: int, inner: int, lanes: int) -> np.ndarray:
    """Which (outer, inner) positions ``_vec_softmax`` (softmax over a dim other than the last) takes in its
    vector branch, (outer, inner) booleans: ``at::parallel_for`` cuts the ``outer * inner`` positions into
    ``core.get_num_threads()`` runs of ``ceil(n / threads)`` (OpenMP's split, grain 1), and in each run a
    position starts a vector when ``lanes`` more fit both in its run and in its row of inner positions; the
    rest go one by one (``std::exp``). So the split, not only the row, decides (measured: 2 threads on the
    AMD EPYC, where a (32, 10, 5) softmax over dim 0 differed in 6% of elements with the one-thread split)."""
    from core._threads import get_num_threads  # (at call time: a set_num_threads applies)

    n = outer * inner
    threads = max(1, min(get_num_threads(), n))
    run = -(-n // threads)
    p = np.arange(n)
    row = p - p % inner
    start = np.maximum(p - p % run, row)
    stop = np.minimum(np.minimum(p - p % run + run, n), row + inner)
    return ((p - start) < (stop - start) // lanes * lanes).reshape(outer, inner)


def softmax_double(e: np.ndarray, axis: int):
    """Softmax's float64 output over the last dim from its exps ``e`` (``kernel_exp``'s, SLEEF's ``expd_u10``) as
    ``_vec_softmax_lastdim`` computes it on AVX-512, or None for other arrays: each row's sum by ``vec::reduce_all``
    (a row shorter than 8 left to right; else 8 lane sums chunk by chunk, the partial last chunk into the first
    lanes, then lanes 0..7 left to right), then ``e * (1 / sum)``. (Measured against torch 2.13, 2026-12-06: with
    NumPy's exp and a division about half the elements differed.)"""
    if _double_dim(e, axis):  # ``_vec_softmax``: each position's sum left to right along the dim, then divided
        return e / np.expand_dims(in_order(np.moveaxis(e, axis, 0)), axis)
    if not _double_last(e, axis):
        return None
    return e * (1.0 / _double_lane_total(e))


def _double_lane_total(e: np.ndarray) -> np.ndarray:
    """Each row's sum (keepdims) in ``vec::reduce_all``'s and ``vec::map_reduce_all``'s order over 8 lanes."""
    n = e.shape[-1]
    if n < _DOUBLE_LANES:
        return np.add.accumulate(e, axis=-1)[..., -1:]
    full, rest = divmod(n, _DOUBLE_LANES)
    lanes = e[..., :full * _DOUBLE_LANES].reshape(*e.shape[:-1], full, _DOUBLE_LANES)
    acc = in_order(np.moveaxis(lanes, -2, 0))
    if rest:
        acc[..., :rest] += e[..., full * _DOUBLE_LANES:]
    return np.add.accumulate(acc, axis=-1)[..., -1:]


def log_softmax_sum(e: np.ndarray, axis: int) -> np.ndarray:
    """log_softmax's sums of its exps ``e`` (keepdims) in PyTorch's order of adds: float64 on AVX-512 as
    ``_vec_log_softmax_lastdim`` (8 lanes) and ``serial_vec_logsoftmax_range`` (along the dim, left to right) add,
    other arrays as ``core._lane_sum.softmax_sum``."""
    if _double_last(e, axis):
        return _double_lane_total(e)
    if _double_dim(e, axis):
        return np.expand_dims(in_order(np.moveaxis(e, axis, 0)), axis)
    return softmax_sum(e, axis)


def _covered(*arrays) -> bool:
    return all(type(a) is np.ndarray and a.dtype == _F32 and a.ndim and a.size for a in arrays)


def kernel_exp(s: np.ndarray, axis: int, chunked: bool = False, in_place: bool = False):
    """The exps of softmax's (or, ``chunked``, log_softmax's) shifted float32 input ``s``, or None for other
    arrays. Over the last dim all are SLEEF's; over another dim the kernels vectorise across the inner positions:
    softmax's (``_vec_softmax``) takes whole vectors of each row's inner positions, log_softmax's
    (``_vec_logsoftmax``) whole vectors of each 128 KiB chunk, with SLEEF's exp, and the rest with the C
    library's (glibc's ``expf``). ``in_place``: ``s`` may receive them (softmax's, which needs ``s`` no more)."""
    if _double_last(s, axis):  # float64 over the last dim: SLEEF's (``softmax_double``, ``log_softmax_sum``)
        return _double_exp(s)
    if _double_dim(s, axis):  # float64 over another dim: SLEEF's and glibc's
        from core import _libm

        s3 = _three(s, axis % s.ndim)
        if chunked:
            chunk = min(max(_BLOCK // s3.shape[1] // 8, _DOUBLE_LANES) // _DOUBLE_LANES * _DOUBLE_LANES, s3.shape[2])
            vector = np.broadcast_to(_chunk_vector(s3.shape[2], chunk, _DOUBLE_LANES), (s3.shape[0], s3.shape[2]))
        else:
            vector = _vector_positions(s3.shape[0], s3.shape[2], _DOUBLE_LANES)
        return _masked_exp(s3, vector, _double_exp, _libm.exp).reshape(s.shape)
    if not _covered(s):
        return None
    axis %= s.ndim
    if axis == s.ndim - 1:  # (in place: one big array less to allocate and fault in, ~5% of a 16M softmax)
        return expf_u10(s, out=s if in_place and s.flags.c_contiguous else None)
    s3 = _three(s, axis)
    if not chunked:  # softmax's (``_vec_softmax``): the vector positions of its threads' runs
        return _masked_exp(s3, _vector_positions(s3.shape[0], s3.shape[2], LANES), expf_u10,
                           glibc_expf).reshape(s.shape)
    return _split_exp(s3, _chunk(s3.shape[1], s3.shape[2])).reshape(s.shape)


def kernel_log(total):
    """The log of log_softmax's sums of exps: SLEEF's for float32 NumPy arrays (PyTorch's kernels map
    ``Vectorized::log`` over them, over any dim), else correctly rounded (``core._precise``)."""
    if type(total) is np.ndarray and total.dtype == _F32:
        return logf_u10(total)
    if type(total) is np.ndarray and total.dtype == _F64 and _cpu.capability() == "AVX512":
        return logd_u10(total)  # SLEEF's, as ``Vectorized<double>::log`` on AVX-512 (core._sleef_logd)
    return precise(xp_of(total).log, total)


def softmax_backward(g: np.ndarray, y: np.ndarray, axis: int, lanes: int = LANES):
    """Softmax's input gradient from the incoming ``g`` and the output ``y`` (same shape), or None; ``lanes``: the
    lanes of the sums over the last dim (``core._lane_sum``'s ``HALF_LANES`` for a bfloat16 or float16 softmax)."""
    if not _covered(g, y) or g.shape != y.shape:
        return None
    axis %= y.ndim
    if axis == y.ndim - 1:
        return (g - _lane_dot(g, y, lanes)) * y
    g3, y3 = _three(g, axis), _three(y, axis)
    acc = np.zeros((g3.shape[0], g3.shape[2]), _F64)
    for k in range(g3.shape[1]):  # acc = fma(g, y, acc), one slice of the dim after another
        acc += g3[:, k].astype(_F64) * y3[:, k]
        acc = acc.astype(_F32).astype(_F64)
    return (y3 * (g3 - acc[:, None].astype(_F32))).reshape(y.shape)


def log_softmax_backward(g: np.ndarray, y: np.ndarray, axis: int):
    """Log_softmax's input gradient from the incoming ``g`` and the output ``y`` (same shape), or None."""
    if not _covered(g, y) or g.shape != y.shape:
        return None
    axis %= y.ndim
    if axis == y.ndim - 1:
        return _fused_last_dim(g, y, _row_total(g))
    else:
        g3 = _three(g, axis)
        total = in_order(g3, axis=1)[:, None].reshape(_kept(y.shape, axis))
        e = _chunked_exp(_three(y, axis)).reshape(y.shape)
    return (g - e.astype(_F64) * total).astype(_F32)  # fused: one rounding of g - e * total


def _fused_tail() -> bool:
    """Whether softmax's backward fuses the product and the add of a row's partial last vector (``_lane_dot``): on
    ATen's AVX-512 build (Zen 4) always; on its AVX2 build on one thread only (measured on an AMD Zen 3, 2026-12-07:
    (4096, 65), (600, 5291), (100, 37), (64, 65), bit for bit fused on one thread and unfused on two, 94-99% the
    other way)."""
    from core._threads import get_num_threads  # (at call time: a set_num_threads applies)

    return _AVX512 or get_num_threads() == 1


def _lane_dot(g: np.ndarray, y: np.ndarray, lanes: int) -> np.ndarray:
    """Each row's ``sum(g * y)`` (keepdims) as softmax's backward over the last dim adds it (``map2_reduce_all``):
    the products rounded and added into ``lanes`` lane accumulators, but for a row's last ``n % lanes``.

    NOTE: ATen's AVX-512 build (and its AVX2 build on one thread: ``_fused_tail``) fuses the product and the add of
    that partial last vector into one fused multiply-add (the full vectors' stay two roundings): rounding it as two
    steps differed from torch on ~1% of rows with a tail (e.g. 0.4% of the elements of 4096 x 65 logits' gradient;
    an AMD Zen 4). Its AVX2 build on two or more threads rounds the tail's products too (an AMD Zen 3, 2026-12-07:
    fused, 39-247 of 64 x n elements differed for n = 10, 15, 20, 37, 70; unfused none)."""
    n = y.shape[-1]
    full, rest = divmod(n, lanes)
    if not full or not rest or not _fused_tail():
        return _row_total(g * y, lanes)
    cut = full * lanes
    acc = in_order(np.moveaxis((g[..., :cut] * y[..., :cut]).reshape(*y.shape[:-1], full, lanes), -2, 0))
    acc[..., :rest] = acc[..., :rest] + g[..., cut:].astype(_F64) * y[..., cut:]
    half = lanes // 2
    while half:  # lane i + lane i ^ half, as in ``lane_row_sum``
        acc = acc[..., :half] + acc[..., half:2 * half]
        half //= 2
    return _keep_negative_zero(acc, g * y)


def _row_total(a: np.ndarray, lanes: int = LANES) -> np.ndarray:
    """``lane_row_sum(a, lanes)`` with a row of -0s summing to -0, as ATen's reduction (started from the first
    vector)."""
    return _keep_negative_zero(lane_row_sum(a, lanes), a)


def _keep_negative_zero(total: np.ndarray, a: np.ndarray) -> np.ndarray:
    """``total`` (a's row sums, keepdims) with -0 where all of a row is -0 (then, and only then, is a float sum -0).

    NOTE: ``in_order``'s adds start from +0, so a row of two or more vectors of -0 gradients summed to +0, which
    flips the sign of every zero its backward gives (with 8 AVX2 lanes, rows of 16 and 20: an AMD Zen 3)."""
    zero = total == 0
    if zero.any():
        total = np.where(zero & np.all((a == 0) & np.signbit(a), axis=-1, keepdims=True), _F32.type(-0.0), total)
    return total


_ROWS_BLOCK = 16384  # elements of the rows ``_fused_last_dim`` takes at a time


def _fused_last_dim(g: np.ndarray, y: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``g - exp(y) * total`` over the last dim, one rounding of the fused step, by blocks of whole rows.

    NOTE: hot path (log_softmax's and cross_entropy's backward over a large vocabulary): the exps of a block of
    rows go straight into the fused multiply-subtract while they are in cache, through one float64 scratch
    buffer, instead of whole-array float64 temporaries (``e.astype``, the product, the difference: ~25 MB each
    for 600 x 5291 logits) that cost as much again as the exps' emulation."""
    n = y.shape[-1]
    rows = max(1, _ROWS_BLOCK // n)
    if y.size <= rows * n:  # NOTE: one block (a small batch's loss): the same steps without the block loop's
        w = expf_u10(y).astype(_F64)  # scratch and slices (~8 NumPy calls of its ~45)
        w *= total.astype(_F64)
        np.subtract(g, w, out=w)
        return w.astype(_F32)
    g2, y2, total2 = g.reshape(-1, n), y.reshape(-1, n), total.reshape(-1, 1).astype(_F64)
    out = np.empty(g2.shape, _F32)
    wide = np.empty((min(rows, len(g2)), n), _F64)
    for start in range(0, len(g2), rows):
        stop = min(start + rows, len(g2))
        w = wide[:stop - start]
        np.copyto(w, expf_u10(y2[start:stop]))  # (a copy, then float64 operands: ~35% less than mixed-type ufuncs)
        np.multiply(w, total2[start:stop], out=w)
        np.subtract(g2[start:stop], w, out=w)
        np.copyto(out[start:stop], w, casting="same_kind")
    return out.reshape(g.shape)


def _three(a: np.ndarray, axis: int) -> np.ndarray:
    """``a`` as (outer, dim, inner)."""
    outer = int(np.prod(a.shape[:axis]))
    return a.reshape(outer, a.shape[axis], -1)


def _kept(shape, axis):
    return shape[:axis] + (1,) + shape[axis + 1:]


def _chunk(dim: int, inner: int) -> int:
    """The inner positions of one chunk of the non-last-dim kernels' 128 KiB block (whole vectors)."""
    return min(max(_BLOCK // dim // 4, LANES) // LANES * LANES, inner)


def _chunked_exp(y3: np.ndarray) -> np.ndarray:
    """exp of (outer, dim, inner) ``y3`` as log_softmax's backward takes it over a non-last dim, by chunks."""
    return _split_exp(y3, _chunk(y3.shape[1], y3.shape[2]))


def _masked_exp(s3: np.ndarray, vector: np.ndarray, vec_exp, scalar_exp) -> np.ndarray:
    """exp of (outer, dim, inner) ``s3``: ``vec_exp`` (SLEEF's) where ``vector`` (outer, inner) holds, ``scalar_exp``
    (the C library's) on the other positions, along the whole dim."""
    if vector.all():
        return vec_exp(s3)
    e = np.empty_like(s3)
    where = np.broadcast_to(vector[:, None, :], s3.shape)
    if vector.any():
        e[where] = vec_exp(np.ascontiguousarray(s3[where]))
    e[~where] = scalar_exp(np.ascontiguousarray(s3[~where]))
    return e


def _chunk_vector(inner: int, chunk: int, lanes: int) -> np.ndarray:
    """Which of ``inner`` positions, cut in runs of ``chunk``, fill whole vectors of ``lanes`` within their run."""
    pos = np.arange(inner) % chunk
    size = np.minimum(chunk, inner - (np.arange(inner) // chunk) * chunk)
    return pos < size - size % lanes


def _split_exp(y3: np.ndarray, chunk: int) -> np.ndarray:
    """exp of (outer, dim, inner) ``y3`` with the inner positions cut in runs of ``chunk``: SLEEF's on those
    that fill whole vectors of a run, the C library's (glibc's ``expf``) on each run's last ``size % 16``."""
    inner = y3.shape[2]
    pos = np.arange(inner) % chunk
    size = np.minimum(chunk, inner - (np.arange(inner) // chunk) * chunk)
    vector = pos < size - size % LANES
    e = np.empty_like(y3)
    if vector.any():
        e[:, :, vector] = expf_u10(np.ascontiguousarray(y3[:, :, vector]))
    if not vector.all():
        e[:, :, ~vector] = glibc_expf(np.ascontiguousarray(y3[:, :, ~vector]))
    return e
