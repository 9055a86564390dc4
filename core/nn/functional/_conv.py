"""Convolutions as three linear primitives that are each other's gradients.

``Conv`` (y = conv(x, w)), ``ConvInput`` (its adjoint in x: the input gradient, which is also the
transposed convolution) and ``ConvWeight`` (its adjoint in w). Each one's backward is written with
the other two, so double backward works.

On arrays, the batch is processed in chunks whose column buffer stays in cache (~8 MiB: one sample
of the chapter's 32x3x224x224 conv). Per chunk, im2col is one copy of an ``as_strided`` window view
into a reused buffer laid out (m, G, Cg*kh*kw, OH*OW), so a single stacked ``matmul`` per chunk
writes its result straight into the (N, C_out, OH*OW) output, with no transposes. The input
gradient is the transposed GEMM followed by col2im, which adds the kh*kw kernel-offset slices onto
a "phase grid" (the padded input split by row and column modulo the stride) where every add is
dense; one strided copy per phase then reads the cropped input gradient back. A big conv splits its
chunks over ``core.get_num_threads()`` threads with NumPy's BLAS single-threaded meanwhile
(``core._blas_threads``): ~100 GEMMs on a multi-threaded BLAS collapse when another process takes a
core. Measured on the chapter's conv (2 cores): ~0.2 s quiet, ~0.8x PyTorch. One image through AlexNet or
VGG (a single chunk) splits each GEMM's columns over the threads instead, and a sample whose columns pass
the chunk size is done a band of output rows at a time; both keep the whole GEMM's bits (``_column_runs``).
1-d convolutions run as 2-d ones with a height of 1.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as _np

from core import _blas_threads as _blas
from core._memory_format import channels_last, format_of, in_format
from core._meta import is_meta, meta_array
from core._pool import pool_map
from core._threads import get_num_threads
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.nn.functional._conv_dw import depthwise_forward
from core.nn.functional._conv_thnn import takes_thnn, thnn_columns, thnn_forward, thnn_input_grad, thnn_weight_grad
from core.ops._float32_compute import computes_in_float32
from core.ops._util import xp_of

__all__ = ["Spec", "Conv", "ConvInput", "ConvWeight", "conv_out_size"]


class Spec(NamedTuple):
    """The geometry of a 2-d convolution: pads are ((top, bottom), (left, right))."""

    stride: tuple
    padding: tuple
    dilation: tuple
    groups: int
    one_d: bool = False


def conv_out_size(size: int, k: int, s: int, pads: tuple, d: int) -> int:
    return (size + pads[0] + pads[1] - d * (k - 1) - 1) // s + 1


def _to2d(arr, spec: Spec):
    return arr[:, :, None] if spec.one_d else arr


def _from2d(arr, spec: Spec):
    return arr[:, :, 0] if spec.one_d else arr


def _pad(x, pads):
    (t, b), (left, r) = pads
    if not (t or b or left or r):
        return x
    xp = xp_of(x)
    out = xp.zeros(x.shape[:2] + (x.shape[2] + t + b, x.shape[3] + left + r), dtype=x.dtype)
    out[:, :, t:t + x.shape[2], left:left + x.shape[3]] = x
    return out


_CHUNK_BYTES = 8 << 20
_THREADED_BYTES = 32 << 20  # below this much column data a conv runs on the calling thread


def _chunks(n: int, per_sample: int):
    """Batch slices whose column buffer stays under ~8 MiB, so it is still in cache when the GEMM reads
    it (the chapter's conv: one 7.4 MB sample a chunk); small samples are grouped to keep the loop short."""
    step = max(1, min(n, _CHUNK_BYTES // max(per_sample, 1)))
    return [slice(i, min(i + step, n)) for i in range(0, n, step)], step


def _workers(xp, n_chunks: int, total_bytes: int) -> int:
    """How many threads split the chunks: ``core.get_num_threads()`` for big NumPy convs whose BLAS core can
    make single-threaded meanwhile, else 1 (CuPy, small convs, or a BLAS we can't set)."""
    if xp is not _np or n_chunks < 2 or total_bytes < _THREADED_BYTES or not _blas.available():
        return 1
    return max(1, min(get_num_threads(), n_chunks))


_SPLIT_BYTES = 4 << 20  # a single chunk with this much column data splits its GEMMs (``_split_matmul``)
_SPLIT_ALIGN = 64  # column cuts of a split GEMM fall on multiples of this (whole micro-kernel panels)


def _split_workers(xp, total_bytes: int) -> int:
    """How many threads share each GEMM of a single-chunk conv: as ``_workers``, from ``_SPLIT_BYTES`` up."""
    if xp is not _np or total_bytes < _SPLIT_BYTES or not _blas.available():
        return 1
    return max(1, get_num_threads())


_MIN_RUN_WORK = 4 << 20  # multiply-adds (M*K*columns) of each run of a split GEMM, at least


def _column_runs(rows: int, inner: int, cols: int, nw: int) -> list:
    """Up to ``nw`` column runs of an (rows x inner) @ (inner x cols) GEMM, cut on ``_SPLIT_ALIGN`` multiples.

    NOTE: bits. OpenBLAS computes a product of at most 100**3 multiply-adds with its small-matrix kernels,
    which round otherwise than its blocked ones: a run that small, cut from a bigger product, changed the last
    bits of some columns (measured on 120 random conv-like shapes cut 4-16 ways). With every run above
    ``_MIN_RUN_WORK`` (4x that limit), each run takes the blocked kernels as the whole product does, whose
    sum over ``inner`` does not depend on the columns, and no value changed (nor with OpenBLAS's own threads)."""
    for n in range(nw, 1, -1):
        cuts = [min(cols, cols * i // n // _SPLIT_ALIGN * _SPLIT_ALIGN) for i in range(n)] + [cols]
        runs = [(lo, hi) for lo, hi in zip(cuts, cuts[1:]) if hi > lo]
        if min(hi - lo for lo, hi in runs) * rows * inner >= _MIN_RUN_WORK:
            return runs
    return [(0, cols)]


def _split_matmul(nw: int):
    """``matmul(a, b, out=)`` whose columns (the last axis of ``b`` and ``out``) are cut into up to ``nw``
    runs (``_column_runs``), one per pool thread (``core._pool``); each run is a plain strided BLAS call."""
    def matmul(a, b, out):
        runs = _column_runs(out.shape[-2], a.shape[-1], out.shape[-1], nw)
        if len(runs) == 1:
            return _np.matmul(a, b, out=out)
        pool_map(lambda r: _np.matmul(a, b[..., r[0]:r[1]], out=out[..., r[0]:r[1]]), runs)
        return out
    return matmul


def _run_chunks(xp, n: int, per_sample_elems: int, dtype, work) -> list:
    """``work(slices, flat, matmul)`` over the batch's chunks, ``flat`` a reused column buffer; one result per
    worker.

    With several workers each takes a contiguous run of chunks and its own buffer while NumPy's BLAS is
    single-threaded (numpy releases the GIL in copies, ufuncs and GEMMs), so each GEMM is one thread's
    and nothing spins or oversubscribes on a busy machine; results come back in batch order. A big conv
    with a single chunk (one 224x224 image through VGG) splits each GEMM's columns over the threads
    instead (``_split_matmul``): on the multi-threaded BLAS, with another process on a core, a VGG layer's
    GEMM took 2-4x its single-threaded time."""
    slices, step = _chunks(n, per_sample_elems * dtype.itemsize)
    total = n * per_sample_elems * dtype.itemsize
    nw = _workers(xp, len(slices), total)
    if nw == 1:
        flat = xp.empty(per_sample_elems * step, dtype=dtype)
        split = _split_workers(xp, total)
        if split == 1:
            return [work(slices, flat, xp.matmul)]
        with _blas.single_threaded():
            return [work(slices, flat, _split_matmul(split))]
    bounds = [len(slices) * i // nw for i in range(nw + 1)]
    runs = [slices[bounds[i]:bounds[i + 1]] for i in range(nw)]
    with _blas.single_threaded():
        return pool_map(lambda run: work(run, xp.empty(per_sample_elems * step, dtype=dtype), xp.matmul), runs)


def _out_hw(hw, khw, spec: Spec):
    return tuple(conv_out_size(hw[i], khw[i], spec.stride[i], spec.padding[i], spec.dilation[i]) for i in (0, 1))


def _columns(xpad, sl, flat, khw, spec: Spec, out_hw):
    """im2col of samples ``sl`` into the reused buffer: (m, G, Cg*kh*kw, OH*OW), one copy of a window view."""
    m, c = sl.stop - sl.start, xpad.shape[1]
    (kh, kw), (sh, sw), (dh, dw), g = khw, spec.stride, spec.dilation, spec.groups
    s_n, s_c, s_h, s_w = xpad.strides
    shape = (m, g, c // g, kh, kw) + tuple(out_hw)
    windows = xp_of(xpad).lib.stride_tricks.as_strided(
        xpad[sl], shape, (s_n, c // g * s_c, s_c, s_h * dh, s_w * dw, s_h * sh, s_w * sw))
    size = m * c * kh * kw * out_hw[0] * out_hw[1]
    cols = flat[:size].reshape(shape)
    cols[...] = windows
    return cols.reshape(m, g, c // g * kh * kw, out_hw[0] * out_hw[1])


def _forward_in_bands(xpad, wm, out, b, khw, spec: Spec, out_hw) -> bool:
    """The forward of samples whose columns pass the chunk size (VGG's 64-channel 3x3 conv at 224 px: 115 MB a
    sample), written and multiplied a band of output rows at a time so the band's columns are still in cache
    when the GEMM reads them; the bands are shared out over ``_split_workers`` threads. False (nothing done)
    for smaller samples, or where a band's GEMM would fall under ``_MIN_RUN_WORK``.

    NOTE: bits. A band is a run of the sample's GEMM columns with the whole sum over Cg*kh*kw, kept above
    ``_MIN_RUN_WORK`` as ``_column_runs`` keeps a split's runs, so the values are the whole GEMM's."""
    n, g, og, _ = out.shape
    kdim, (oh, ow) = wm.shape[-1], out_hw
    per_row = g * kdim * ow * out.dtype.itemsize
    nb = min(oh, -(-oh * per_row // _CHUNK_BYTES))
    if n * nb < 2 or nb < 2 or og * kdim * (oh // nb) * ow < _MIN_RUN_WORK:
        return False
    bounds = [oh * i // nb for i in range(nb + 1)]
    items = [(i, bounds[j], bounds[j + 1]) for i in range(n) for j in range(nb)]
    (kh, kw), (sh, sw), (dh, dw) = khw, spec.stride, spec.dilation
    s_n, s_c, s_h, s_w = xpad.strides
    cg = xpad.shape[1] // g
    windows = _np.lib.stride_tricks.as_strided(
        xpad, (n, g, cg, kh, kw, oh, ow), (s_n, cg * s_c, s_c, s_h * dh, s_w * dw, s_h * sh, s_w * sw))

    def work(run):
        flat = _np.empty(g * kdim * max(r1 - r0 for _, r0, r1 in run) * ow, dtype=out.dtype)
        for i, r0, r1 in run:
            cols = flat[:g * kdim * (r1 - r0) * ow].reshape(g, cg, kh, kw, r1 - r0, ow)
            cols[...] = windows[i, :, :, :, :, r0:r1]
            chunk = out[i, :, :, r0 * ow:r1 * ow]
            _np.matmul(wm, cols.reshape(g, kdim, (r1 - r0) * ow), out=chunk)
            if b is not None:
                chunk += b[0]

    nw = min(_split_workers(_np, n * oh * per_row), len(items))
    if nw == 1:
        work(items)
        return True
    cuts = [len(items) * i // nw for i in range(nw + 1)]
    with _blas.single_threaded():
        pool_map(work, [items[cuts[i]:cuts[i + 1]] for i in range(nw)])
    return True


def conv_forward(x, w, spec: Spec, bias=None):
    """y = conv(x, w) + bias on 4-d arrays: per batch chunk, im2col then one stacked GEMM written in place."""
    xp = xp_of(x)
    o, cg, kh, kw = w.shape
    g, n = spec.groups, x.shape[0]
    oh, ow = _out_hw(x.shape[2:], (kh, kw), spec)
    if is_meta(x) or is_meta(w):  # the meta device: the shape only
        return meta_array((n, o, oh, ow), _np.result_type(x.dtype, w.dtype))
    if xp is _np and (thnn := thnn_forward(x, w, spec, bias)) is not None:
        return thnn  # (PyTorch's slow_conv2d, in its order: core.nn.functional._conv_thnn)
    xpad = _pad(x, spec.padding)
    if xp is _np and (dw := depthwise_forward(xpad, w, spec, bias, (oh, ow))) is not None:
        return dw  # (oneDNN's depthwise kernel, in its order: core.nn.functional._conv_dw)
    kdim, length = cg * kh * kw, oh * ow
    wm = w.reshape(g, o // g, kdim)
    out = xp.empty((n, g, o // g, length), dtype=x.dtype)
    b = None if bias is None else bias.reshape(1, g, o // g, 1)

    if xp is _np and _forward_in_bands(xpad, wm, out, b, (kh, kw), spec, (oh, ow)):
        return out.reshape(n, o, oh, ow)

    def work(slices, flat, matmul):
        for sl in slices:
            chunk = out[sl]
            matmul(wm, _columns(xpad, sl, flat, (kh, kw), spec, (oh, ow)), out=chunk)
            if b is not None:
                chunk += b  # while the chunk is in cache

    _run_chunks(xp, n, g * kdim * length, x.dtype, work)
    return out.reshape(n, o, oh, ow)


def _phase_grid(n, c, padded_hw, stride, dtype, xp):
    """Zeros (n, C, sh, sw, ceil(Hp/sh), ceil(Wp/sw)): padded row sh*p + a lives at [a, p] (col likewise)."""
    (hp, wp), (sh, sw) = padded_hw, stride
    return xp.zeros((n, c, sh, sw, -(-hp // sh), -(-wp // sw)), dtype=dtype)


def col2im(cols, grid, khw, out_hw, spec: Spec) -> None:
    """Add columns (m, C, kh, kw, OH, OW) onto a phase grid (the adjoint of im2col).

    Kernel offset (i, j) feeds padded rows sh*p + dh*i, i.e. phase (dh*i) % sh at rows starting at
    (dh*i) // sh: a dense block of the grid. So each of the kh*kw adds has unit inner stride (it
    vectorises), where adding into the padded input itself writes every sh-th element."""
    (sh, sw), (dh, dw) = spec.stride, spec.dilation
    oh, ow = out_hw
    for i in range(khw[0]):
        a, p = divmod(dh * i, sh)[::-1]
        for j in range(khw[1]):
            b, q = divmod(dw * j, sw)[::-1]
            grid[:, :, a, b, p:p + oh, q:q + ow] += cols[:, :, i, j]


def _from_phases(grid, in_hw, pads, stride, xp):
    """The cropped input-sized array (n, C, H, W) read back from a phase grid: one strided copy per phase."""
    n, c, sh, sw = grid.shape[:4]
    out = xp.empty((n, c) + tuple(in_hw), dtype=grid.dtype)
    (t, _), (left, _) = pads
    for a in range(sh):
        r0 = (a - t) % sh  # first output row whose padded row r0 + t has phase a
        rows = len(range(r0, in_hw[0], sh))
        p0 = (r0 + t) // sh
        for b in range(sw):
            c0 = (b - left) % sw
            cols = len(range(c0, in_hw[1], sw))
            q0 = (c0 + left) // sw
            out[:, :, r0::sh, c0::sw] = grid[:, :, a, b, p0:p0 + rows, q0:q0 + cols]
    return out


def conv_input_grad(gy, w, in_hw, spec: Spec, gemm=None):
    """The adjoint of conv in x: per batch chunk, one stacked GEMM W^T @ gy (``gemm``, with ``np.matmul``'s
    arguments, where given: ``_conv_thnn.thnn_columns``), then col2im onto a phase grid."""
    xp = xp_of(gy)
    o, cg, kh, kw = w.shape
    g = spec.groups
    n, _, oh, ow = gy.shape
    (t, b), (left, r) = spec.padding
    kdim, length = cg * kh * kw, oh * ow
    grid = _phase_grid(n, g * cg, (in_hw[0] + t + b, in_hw[1] + left + r), spec.stride, gy.dtype, xp)
    wt = xp.ascontiguousarray(xp.swapaxes(w.reshape(g, o // g, kdim), -1, -2))
    gm = gy.reshape(n, g, o // g, length)

    def work(slices, flat, matmul):
        for sl in slices:
            m = sl.stop - sl.start
            cols = flat[:m * g * kdim * length].reshape(m, g, kdim, length)
            (gemm or matmul)(wt, gm[sl], out=cols)
            col2im(cols.reshape(m, g * cg, kh, kw, oh, ow), grid[sl], (kh, kw), (oh, ow), spec)

    _run_chunks(xp, n, g * kdim * length, gy.dtype, work)
    return _from_phases(grid, in_hw, spec.padding, spec.stride, xp)


def conv_weight_grad(x, gy, wshape, spec: Spec):
    """The adjoint of conv in w: gy @ cols^T per sample, summed over the batch.

    NOTE: each chunk's samples are added in order into a reused chunk sum, which is then added to the
    worker's total: the order (and bits) of the former ``matmul(gm[sl], cols^T).sum(0)`` per chunk,
    without its (m, G, O/G, K) temporary (~0.3 GB for a ResNet's 512-channel 4x4 layers at batch 32)."""
    xp = xp_of(gy)
    o, cg, kh, kw = wshape
    g = spec.groups
    n, _, oh, ow = gy.shape
    xpad = _pad(x, spec.padding)
    kdim, length = cg * kh * kw, oh * ow
    gm = gy.reshape(n, g, o // g, length)

    def work(slices, flat, matmul):
        gw = xp.zeros((g, o // g, kdim), dtype=gy.dtype)
        chunk_sum, product = xp.empty_like(gw), xp.empty_like(gw)
        for sl in slices:
            cols = _columns(xpad, sl, flat, (kh, kw), spec, (oh, ow))
            matmul(gm[sl.start], xp.swapaxes(cols[0], -1, -2), out=chunk_sum)
            for i in range(1, sl.stop - sl.start):
                chunk_sum += matmul(gm[sl.start + i], xp.swapaxes(cols[i], -1, -2), out=product)
            gw += chunk_sum
        return gw

    parts = _run_chunks(xp, n, g * kdim * length, gy.dtype, work)
    gw = parts[0]
    for part in parts[1:]:  # in batch order: the same sum for the same thread count
        gw += part
    return gw.reshape(wshape)


def _suggests_channels_last(x, w) -> bool:
    """Whether a 2-d convolution of the arrays ``x`` and ``w`` runs channels-last (PyTorch's CPU convolutions'
    ``suggest_memory_format`` rule: either suggests it); its output and both gradients are laid out so then."""
    return format_of(x) is channels_last or format_of(w) is channels_last


def _in_conv_format(out, x, w):
    """A 2-d convolution's output channels-last when ``_suggests_channels_last``, else as computed (contiguous)."""
    return in_format(out, channels_last) if _suggests_channels_last(x, w) else out


def _per_dim(spec: Spec, values) -> tuple:
    """A geometry entry per spatial dim, as PyTorch keeps it (a 1-d convolution's, without the 2-d row core adds)."""
    return tuple(values)[1:] if spec.one_d else tuple(values)


@computes_in_float32
class Conv(Function):
    """y = conv(x, w) + b."""

    node_name = "ConvolutionBackward0"
    saved_names = ("input", "weight")
    _saved_stride = SavedFromCtx(lambda ctx: _per_dim(ctx["spec"], ctx["spec"].stride))
    _saved_padding = SavedFromCtx(lambda ctx: _per_dim(ctx["spec"], [p[0] for p in ctx["spec"].padding]))
    _saved_dilation = SavedFromCtx(lambda ctx: _per_dim(ctx["spec"], ctx["spec"].dilation))
    _saved_groups = SavedFromCtx(lambda ctx: ctx["spec"].groups)
    _saved_transposed = SavedFromCtx(lambda ctx: False)
    _saved_output_padding = SavedFromCtx(lambda ctx: (0,) * len(_per_dim(ctx["spec"], ctx["spec"].stride)))
    _saved_bias_sym_sizes_opt = SavedFromCtx(lambda ctx: (ctx.get("bias_size", 0),))

    @staticmethod
    def forward(ctx, x, w, b, *, spec: Spec):
        xa, wa = _to2d(x._data, spec), _to2d(w._data, spec)
        ctx.save_for_backward(x, w)
        ctx.spec = spec
        if b is not None:
            ctx.bias_size = b.shape[0]  # (``_saved_bias_sym_sizes_opt``; (0,) without a bias, as PyTorch's)
        out = _from2d(conv_forward(xa, wa, spec, None if b is None else b._data), spec)
        return out if spec.one_d or is_meta(out) else _in_conv_format(out, x._data, w._data)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx._unpacked
        spec = ctx.spec
        need = ctx.needs_input_grad
        thnn = takes_thnn(_to2d(x._data, spec), _to2d(w._data, spec), spec)  # (PyTorch's slow_conv2d: its order)
        gx = ConvInputGrad.apply(g, x, w, spec=spec, in_hw=x.shape[2:], thnn=thnn) if need[0] else None
        cl = not spec.one_d and not is_meta(w._data) and _suggests_channels_last(x._data, w._data)
        gw = ConvWeight.apply(x, g, spec=spec, wshape=tuple(w.shape), thnn=thnn, cl=cl) if need[1] else None
        gb = g.sum((0, 2) if spec.one_d else (0, 2, 3)) if len(need) > 2 and need[2] else None
        return gx, gw, gb


@computes_in_float32
class ConvInput(Function):
    """x = conv^T(g, w) + b: the input gradient of ``Conv`` and the transposed convolution."""

    node_name = "ConvolutionBackward0"

    @staticmethod
    def forward(ctx, g, w, b, *, spec: Spec, in_hw, transposed=False, thnn=False):
        return _input_grad_forward(ctx, g, w, b, spec, in_hw, transposed, thnn)

    @staticmethod
    def backward(ctx, gg):
        need = ctx.needs_input_grad
        dg, dw = _input_grad_backward(ctx, gg, need[0], need[1])
        db = gg.sum((0, 2) if ctx.spec.one_d else (0, 2, 3)) if need[2] else None
        return dg, dw, db


def _input_grad_backward(ctx, gg, need_g: bool, need_w: bool):
    """The gradients of an input gradient ``conv^T(g, w)`` for its ``g`` and ``w`` (ConvInput's and ConvInputGrad's
    backward: the nodes differ in their edges only)."""
    g, w = ctx._unpacked
    spec = ctx.spec
    dg = _cropped(Conv.apply(gg, w, None, spec=spec), g.shape) if need_g else None
    dw = ConvWeight.apply(gg, g, spec=spec, wshape=tuple(w.shape)) if need_w else None
    return dg, dw


def _input_grad_forward(ctx, g, w, b, spec: Spec, in_hw, transposed: bool, thnn: bool):
    ctx.save_for_backward(g, w)
    ctx.spec = spec
    hw = (1,) + tuple(in_hw) if spec.one_d else tuple(in_hw)
    ga, wa = _to2d(g._data, spec), _to2d(w._data, spec)
    out = thnn_input_grad(ga, wa, hw, spec) if thnn else None  # (a convolution's backward in slow_conv2d's order)
    out = conv_input_grad(ga, wa, hw, spec, thnn_columns if thnn else None) if out is None else out
    if b is not None:
        out = out + b._data.reshape(1, -1, 1, 1)
    out = _from2d(out, spec)
    if transposed and not spec.one_d and not is_meta(out):  # conv_transpose2d: laid out as a convolution's
        return _in_conv_format(out, g._data, w._data)
    return out


@computes_in_float32
class ConvInputGrad(Function):
    """A convolution's input gradient as its backward records it under ``create_graph``: PyTorch's node of the
    differentiable ``convolution_backward``, ``ConvolutionBackwardBackward0``, with its edges (the gradient, the
    convolution's input, its weight; torchviz draws them). The input only adds the edge: the input gradient does
    not depend on it (None flows to it, as PyTorch's zero)."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, g, x, w, *, spec: Spec, in_hw, thnn=False):
        out = _input_grad_forward(ctx, g, w, None, spec, in_hw, False, thnn)  # NOTE: laid out as the convolution's
        return out if spec.one_d or is_meta(out) else _in_conv_format(out, x._data, w._data)  # output (torch's)

    @staticmethod
    def backward(ctx, gg):
        need = ctx.needs_input_grad
        dg, dw = _input_grad_backward(ctx, gg, need[0], need[2])
        return dg, None, dw


def _cropped(t, shape):
    """``t`` cut to ``shape``: a transposed convolution's output padding beyond its stride (allowed below its
    dilation) adds output rows that no input row reached, and convolving the gradient back gives one more row."""
    if tuple(t.shape) == tuple(shape):
        return t
    return t[(slice(None), slice(None)) + tuple(slice(0, n) for n in shape[2:])]


@computes_in_float32
class ConvWeight(Function):
    """gw = conv_w^T(x, g): the weight gradient of ``Conv``."""

    node_name = "ConvolutionBackwardBackward0"

    @staticmethod
    def forward(ctx, x, g, *, spec: Spec, wshape, thnn=False, cl=False):
        """``cl``: the convolution ran channels-last (its input or weight suggested it): so is the gradient."""
        ctx.save_for_backward(x, g)
        ctx.spec = spec
        shape2d = (wshape[0], wshape[1], 1, wshape[2]) if spec.one_d else wshape
        xa, ga = _to2d(x._data, spec), _to2d(g._data, spec)
        gw = thnn_weight_grad(xa, ga, shape2d, spec) if thnn else None  # (slow_conv2d's order: _conv_thnn)
        gw = conv_weight_grad(xa, ga, shape2d, spec) if gw is None else gw
        return in_format(gw.reshape(wshape), channels_last) if cl else gw.reshape(wshape)

    @staticmethod
    def backward(ctx, gw2):
        x, g = ctx._unpacked
        spec = ctx.spec
        need = ctx.needs_input_grad
        dx = ConvInput.apply(g, gw2, None, spec=spec, in_hw=x.shape[2:]) if need[0] else None
        dg = Conv.apply(x, gw2, None, spec=spec) if need[1] else None
        return dx, dg
