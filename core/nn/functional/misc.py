"""``linear``, ``bilinear``, ``embedding``, ``one_hot``, ``normalize`` and ``pairwise_distance`` (with ``dropout``
and ``pad`` re-exported from ``_dropout`` and ``_pad``, where they live).

``embedding`` and ``pad`` are primitives here (a gather/scatter pair each, so double backward works);
the rest are composites of core ops.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core import _blas_threads as _blas
from core import _cpu
from core._arg_types import require_tensors
from core._batch_sum import sum_over_batch
from core._small_gemm import ACTIVE as small_gemm_cpu
from core._small_gemm import mkl_gemm
from core._small_gemm_blocks import _transposed_copy  # (a blocked p.T)
from core._tensor import Tensor, new_tensor
from core.amp import _casting as _autocast
from core.autograd import grad_mode
from core.autograd._profiling import recording as _profiling
from core.autograd.forward_ad import total
from core.autograd.function import Function
from core.autograd.inference import mark
from core.autograd.node_api import SavedFromCtx
from core.nn.functional._dropout import alpha_dropout, dropout, dropout1d, dropout2d  # re-exported
from core.ops._float32_compute import F16, gemm_float16
from core.ops._saved_attrs import factor_layout
from core.ops._strided import row_major
from core.ops._util import xp_of
from core.ops.linalg_addmm import check_product_dtypes
from core.ops.reduction import reduce_dims
from core.ops.scalar_forms import add_s
from core.ops.scatter import ufunc_at
from core.ops.vector_norms import LinalgVectorNorm

__all__ = ["linear", "bilinear", "dropout", "dropout1d", "dropout2d", "alpha_dropout", "embedding", "one_hot",
           "pad", "normalize", "pairwise_distance"]

_grad_state = grad_mode._state


_F32 = np.dtype(np.float32)
_F64 = np.float64


def _short_gemm_bias(x, w, b):
    """``x @ w + b`` for one or two input features, rounded as PyTorch's MKL sgemm rounds it (measured on thousands
    of shapes); None where NumPy's order is already torch's or no rule is known (small batches of two features).

    NOTE: a float32 fused multiply-add is computed in float64, where the product of two float32 values is exact.
    - one feature, several rows and outputs: ``fma(x, w, b)``, one rounding, on Intel CPUs (one row or one output,
      or any AMD CPU: the product is rounded first, then the bias added, which is NumPy's order);
    - two features, 12 or more rows and outputs: ``fma(x1, w1, x0 w0)``, then the bias added."""
    m, (k, n) = x.shape[0], w.shape
    if k == 1 and m > 1 and n > 1 and not _PRODUCT_FIRST:
        return (x.astype(_F64) @ w.astype(_F64) + b).astype(_F32)
    if k == 2 and m >= 12 and n >= 12:
        first = np.multiply.outer(x[:, 0], w[0])  # float32: rounded
        both = (np.multiply.outer(x[:, 1].astype(_F64), w[1].astype(_F64)) + first).astype(_F32)
        both += b
        return both
    return None


# NOTE: on AMD CPUs MKL rounds a one-feature product first and then adds the bias (measured on an EPYC Zen 4 with
# AVX-512 and an EPYC Zen 3 with AVX2 only); the fused rounding is its kernel's on the Intel development machines
_PRODUCT_FIRST = small_gemm_cpu or _cpu.VENDOR == "AuthenticAMD"
_ONE_THREAD_GEMM = 1 << 26  # multiply-adds up to which a Linear's GEMM runs on one BLAS thread
_BLAS_ALONE = 65536 * 4  # multiply-adds up to which OpenBLAS runs a GEMM on one thread by itself (SMP_THRESHOLD_MIN
#                          times GEMM_MULTITHREAD_THRESHOLD in its interface/gemm.c)


def _gemm(a, b):
    """``a @ b`` for 2-d arrays, on one BLAS thread up to ``_ONE_THREAD_GEMM`` multiply-adds.

    NOTE: the hot path of a training step (a 784-256-128-10 MLP's step is five of these between ~10 other
    ops): with OpenBLAS's own threads each product waits for its worker threads, which on a shared 2-core
    machine took the step from ~2.5 to 7-15 ms (wall; every GEMM 1-8 ms instead of 0.05-0.3 ms) while the same
    products back to back ran as fast either way. A larger product keeps the BLAS's threads. (The BLAS's bits
    can differ between one and several threads for some shapes; here they no longer depend on the core count.)
    A product OpenBLAS runs on one thread by itself (``_BLAS_ALONE``: a small model's every GEMM) skips the switch,
    whose lock and two calls into the BLAS cost ~3 µs, twice the product's own time at 200x8x8."""
    if type(a) is np.ndarray and _BLAS_ALONE < a.shape[0] * a.shape[1] * b.shape[-1] <= _ONE_THREAD_GEMM:
        return _blas.run_single_threaded(np.matmul, a, b)
    return a @ b


def _forward_gemm(xa, wt):
    """``x @ Wᵀ`` given ``Wᵀ`` (``wt``, the transposed view of a contiguous weight): ``_gemm``, or for a batch of
    at most half the output features ``(W @ xᵀ)ᵀ`` copied contiguous.

    NOTE: the forward of a training step's Linear: OpenBLAS (one thread) takes 10-30% less time for the product
    with the batch as its columns (a 64-row batch through 784->256: 280 -> 253 µs with the copy; batch 32: 203
    -> 145 µs), and more with a large batch (256x512 by 512: 1.16x), hence the rule. Each element is the same
    dot product over the inputs in the same order, so the bits are the same (checked on 400 shapes)."""
    m, n = xa.shape[0], wt.shape[1]
    if 2 * m <= n and type(xa) is np.ndarray and xa.dtype == _F32 and xa.flags.c_contiguous and wt.flags.f_contiguous \
            and m * xa.shape[1] * n <= _ONE_THREAD_GEMM and _blas.available():  # (measured, and checked, on OpenBLAS)
        return _transposed_copy(_gemm(wt.T, xa.T))
    return _gemm(xa, wt)


def _input_gemm(ga, w):
    """``ga @ W``, the input gradient's GEMM: in PyTorch's order where ``core._small_gemm`` knows it."""
    out = mkl_gemm(ga, w)
    return _gemm(ga, w) if out is None else out


def _weight_gemm(ga, xa):
    """``ga.T @ xa``, the weight gradient's GEMM. NOTE: a batch of one is an outer product, each value one
    rounded float product either way; as a K=1 GEMM the multi-threaded BLAS took 4x as long (a VGG's
    25088x4096 layer: 0.36 s against 0.08 s, its backward's slowest step on one image)."""
    if ga.shape[0] == 1 and type(ga) is np.ndarray and ga.dtype.kind == "f" and ga.dtype == xa.dtype:
        return np.multiply.outer(ga[0], xa[0])
    out = mkl_gemm(ga.T, xa)  # a small product in PyTorch's GEMM order (core._small_gemm)
    return _gemm(ga.T, xa) if out is None else out


def linear_arrays(xa, wa, ba=None):
    """``xa @ wa + ba`` on arrays (``wa``: Wᵀ), rounded as PyTorch's ``linear`` (``Linear2dNoBias``' forward; the
    recurrent layers' fused steps call it on each step's state)."""
    if xa.dtype == F16 and type(xa) is np.ndarray:  # float16: PyTorch's GEMM, the bias added before rounding
        out = gemm_float16(xa, wa)
        return (out if ba is None else out + ba.astype(np.float32)).astype(xa.dtype)
    out = mkl_gemm(xa, wa, ba)  # a small product in PyTorch's GEMM order
    if out is not None:
        return out
    if ba is not None and xa.dtype == _F32 and wa.shape[0] <= 2 and type(xa) is np.ndarray:
        out = _short_gemm_bias(xa, wa, ba)
        if out is not None:
            return out
    out = _forward_gemm(xa, wa)
    if ba is not None:
        out += ba
    return out if out.dtype is xa.dtype else out.astype(xa.dtype)  # bfloat16's comes as float32


class Linear2dNoBias(Function):
    """y = x Wᵀ for a 2-d x, given Wᵀ (``weight.t()``, a TBackward0 view as in PyTorch's graph): one node
    (PyTorch's MmBackward0, edges x then Wᵀ)."""

    node_name = "MmBackward0"
    saved_names = ("self", "mat2")  # x saved for Wᵀ's gradient, Wᵀ for x's, as PyTorch's
    _saved_self_sym_sizes, _saved_self_sym_strides = factor_layout(0, 0)
    _saved_mat2_sym_sizes, _saved_mat2_sym_strides = factor_layout(1, 1, column_major=True)  # (weight.t())

    @staticmethod
    def forward(ctx, x, wt, b=None):
        needs = ctx.needs_input_grad
        if needs:  # NOTE: as PyTorch, x only for Wᵀ's gradient and Wᵀ only for x's (save_factors' rule)
            ctx.save_for_backward(x if needs[-1] else None, wt if needs[-2] else None)
        return linear_arrays(x._data, wt._data, None if b is None else b._data)

    @staticmethod
    def backward(ctx, g):
        x, wt = ctx._unpacked
        need = ctx.needs_input_grad
        nx, nw = need[-2:]
        ga = g._data
        kept = x if x is not None else wt  # None when only the bias needs its gradient (a frozen layer)
        if not _grad_state.enabled and (kept is None or ga.dtype == kept._data.dtype and type(ga) is type(kept._data)):
            # NOTE: a plain backward records nothing: the GEMMs on arrays (create_graph uses core ops). Wᵀ's
            # gradient is W's GEMM seen transposed, so TBackward0 hands W a contiguous (out, in) array
            gx = new_tensor(_input_gemm(ga, wt._data.T)) if nx else None
            gw = new_tensor(_weight_gemm(ga, x._data).T) if nw else None
            # the bias's gradient: the batch summed in PyTorch's order (a float32 column sum is not NumPy's);
            # bfloat16 adds in float32 (the engine rounds)
            gb = new_tensor(sum_over_batch(ga.astype(np.float32) if ga.dtype.kind == "V" else ga)) \
                if len(need) == 3 and need[0] else None
        else:
            gx = core.matmul(g, wt.t()) if nx else None
            gw = core.matmul(g.t(), x).t() if nw else None
            # NOTE: PyTorch's engine sums a broadcast gradient to the bias's shape with keepdim and views it back
            # (at::sum_to): SumBackward1 then ViewBackward0 under create_graph
            gb = g.sum(0, keepdim=True).view(g.shape[-1]) if len(need) == 3 and need[0] else None
        return (gb, gx, gw) if len(need) == 3 else (gx, gw)

    @staticmethod
    def jvp(ctx, tx, twt):
        x, wt = ctx.inputs
        return total(None if tx is None else Linear2dNoBias.apply(tx, wt),
                     None if twt is None else Linear2dNoBias.apply(x, twt))


class Linear2d(Linear2dNoBias):
    """y = x Wᵀ + b for a 2-d x: one node (PyTorch's AddmmBackward0). NOTE: its edges come in torch's order,
    bias first (``loss.grad_fn.next_functions[0][0]`` is the bias's AccumulateGrad in both), then x and Wᵀ."""

    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    _saved_mat1_sym_sizes, _saved_mat1_sym_strides = factor_layout(0, 1)
    _saved_mat2_sym_sizes, _saved_mat2_sym_strides = factor_layout(1, 2, column_major=True)
    _saved_self_sym_sizes = _saved_self_sym_strides = None  # (Mm's names: not this node's)
    _saved_alpha = _saved_beta = SavedFromCtx(lambda ctx: 1)  # linear's bias and product are added as they are

    @staticmethod
    def forward(ctx, b, x, wt):
        return Linear2dNoBias.forward(ctx, x, wt, b)

    @staticmethod
    def jvp(ctx, tb, tx, twt):
        b, x, wt = ctx.inputs
        return total(None if tx is None else Linear2dNoBias.apply(tx, wt),
                     None if twt is None else Linear2dNoBias.apply(x, twt), tb)


def _one_gemm(input, weight, bias) -> bool:
    """True when ``linear`` can be one GEMM: 2-d float input and weight of one dtype, kind and size."""
    x, w = input._data, weight._data
    if x.ndim != 2 or w.ndim != 2 or x.shape[1] != w.shape[1] or x.dtype != w.dtype or x.dtype.kind not in "fV":
        return False
    if bias is not None:
        b = bias._data
        if b.dtype != w.dtype or b.ndim != 1 or b.shape[0] != w.shape[0] or type(b) is not type(w):
            return False
    return type(x) is type(w) and (type(x) is np.ndarray or input.device == weight.device)


def linear(input: Tensor, weight: Tensor, bias=None) -> Tensor:
    """x W^T + b; a 2-d input of matching size and dtype takes the one-node fast path.

    As PyTorch's ``at::linear``: with a bias, a contiguous input of another rank is flattened to 2-d, goes
    through the same one-node path and is viewed back (its ``grad_fn`` is ``ViewBackward0``); otherwise a
    matmul and an addition. A profile shows it as ``aten::linear`` around those ops, as PyTorch's."""
    if _profiling:
        from core.autograd.profiler import record_function

        with record_function("aten::linear"):
            return _linear(input, weight, bias)
    return _linear(input, weight, bias)


def _linear(input: Tensor, weight: Tensor, bias=None) -> Tensor:
    if not (isinstance(input, Tensor) and isinstance(weight, Tensor)) or not (bias is None or isinstance(bias, Tensor)):
        require_tensors("linear", ("bias",), input=(1, input), weight=(2, weight), bias=(3, bias))
    if _autocast.regions:  # inside torch.autocast('cpu'): PyTorch's per-op cast (core.amp._casting)
        input, weight, bias = _autocast.lower(input, weight, bias)
    if _one_gemm(input, weight, bias):  # weight.t(): PyTorch's TBackward0 between the product and the weight
        wt = weight.t()
        return Linear2d.apply(bias, input, wt) if bias is not None else Linear2dNoBias.apply(input, wt)
    if bias is not None and weight.ndim == 2:
        check_product_dtypes("addmm", bias, input, weight)  # torch's addmm words: "mat1 and mat2 must have..."
    if bias is not None and input.ndim != 2 and weight.ndim == 2 and input.is_contiguous():
        flat = input.reshape(math.prod(input.shape[:-1]), input.shape[-1]) if input.ndim else None
        if flat is not None and _one_gemm(flat, weight, bias):
            return Linear2d.apply(bias, flat, weight.t()).view(*input.shape[:-1], weight.shape[0])
    if bias is not None and input.is_complex() and input.ndim >= 1 and weight.ndim == 2 and input.is_contiguous():
        flat = input.reshape(-1, input.shape[-1])  # complex: PyTorch's addmm (the fast path is real GEMMs only)
        out = core.addmm(bias, flat, weight.t())
        return out if input.ndim == 2 else out.view(*input.shape[:-1], weight.shape[0])
    wt = weight.t() if weight.ndim == 2 else weight
    out = core.matmul(input, wt)
    return out + bias if bias is not None else out


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias=None) -> Tensor:
    """y[..., o] = x1 @ W[o] @ x2 + b[o], as one matmul then a weighted sum over in2."""
    out_f, in1, in2 = weight.shape
    if input1.shape[-1] != in1 or input2.shape[-1] != in2:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.shape[-1]} and "
                           f"{input2.shape[-1]}, expected {in1} and {in2}")
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(f"bilinear(): input batch dimensions do not match: got {list(input1.shape[:-1])} and "
                           f"{list(input2.shape[:-1])}")
    lead = tuple(input1.shape[:-1])
    w = weight.permute(1, 0, 2).reshape(in1, out_f * in2)
    t = core.matmul(input1.reshape(-1, in1), w).reshape(-1, out_f, in2)
    prod = t * input2.reshape(-1, 1, in2)
    out = prod.sum(-1, dtype=None if prod.is_floating_point() else prod.dtype).reshape(lead + (out_f,))  # (int32 stays)
    return out + bias if bias is not None else out


class Embedding(Function):
    node_name = "EmbeddingBackward0"
    saved_names = ("indices",)  # grad_fn._saved_indices, freed by a backward as PyTorch's
    _saved_padding_idx = SavedFromCtx(lambda ctx: -1 if ctx["padding_idx"] is None else ctx["padding_idx"])
    _saved_scale_grad_by_freq = SavedFromCtx(lambda ctx: ctx["scale"] is not None)
    _saved_sparse = SavedFromCtx(lambda ctx: ctx["sparse"])
    _saved_weight_sym_argsize_0 = SavedFromCtx(lambda ctx: ctx["num"])

    @staticmethod
    def forward(ctx, weight, *, idx, padding_idx, scale=None, sparse=False):
        ctx.idx, ctx.padding_idx, ctx.num, ctx.scale, ctx.sparse = idx, padding_idx, weight.shape[0], scale, sparse
        ctx.save_for_backward(new_tensor(idx))
        return weight._data[idx]

    @staticmethod
    def backward(ctx, g):
        ctx._unpacked  # noqa: B018 - a second backward through a freed graph raises PyTorch's error here
        if ctx.sparse:
            from core.autograd.sparse_grad import embedding_sparse_grad

            return embedding_sparse_grad(g, ctx.idx, ctx.padding_idx, ctx.num, ctx.scale)
        return EmbeddingDense.apply(g, idx=ctx.idx, padding_idx=ctx.padding_idx, num=ctx.num, scale=ctx.scale)


class EmbeddingDense(Function):
    """The weight gradient of an embedding: rows of g summed into their indices (padding row left at 0)."""

    node_name = "EmbeddingDenseBackward0"

    @staticmethod
    def forward(ctx, g, *, idx, padding_idx, num, scale=None):
        ga = g._data
        xp = xp_of(ga)
        ctx.idx, ctx.padding_idx, ctx.scale = idx, padding_idx, scale
        if scale is not None:  # scale_grad_by_freq: each looked-up row's gradient over its count in the batch
            ga = ga * scale.reshape(scale.shape + (1,) * (ga.ndim - scale.ndim)).astype(ga.dtype)
        flat = idx.reshape(-1)
        out = xp.zeros((num,) + ga.shape[idx.ndim:], dtype=ga.dtype)
        rows = ga.reshape((flat.shape[0],) + ga.shape[idx.ndim:])
        if xp is np:  # (ufunc.at's order in rounds of whole rows: NumPy's own add.at walks them element by element)
            ufunc_at("add", out, (flat,), rows)
        else:
            xp.add.at(out, flat, rows)
        if padding_idx is not None:
            out[padding_idx] = 0
        return out

    @staticmethod
    def backward(ctx, gg):
        out = Embedding.apply(gg, idx=ctx.idx, padding_idx=None)
        keep = None if ctx.padding_idx is None else ctx.idx != ctx.padding_idx
        if ctx.scale is not None:
            keep = ctx.scale if keep is None else ctx.scale * keep
        if keep is not None:
            out = out * new_tensor(xp_of(ctx.idx).asarray(keep)[..., None].astype(gg._data.dtype))
        return out


def embedding(input: Tensor, weight: Tensor, padding_idx=None, max_norm=None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    require_tensors("embedding", weight=(1, weight), indices=(2, input))
    if weight.dim() != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input.dtype not in (core.int64, core.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{input.type().split('.')[-1]} instead (while checking "
                           "arguments for embedding)")
    num = weight.shape[0]
    if padding_idx is not None:
        if not -num <= padding_idx < num:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx %= num
    idx = input._data
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= num):
        raise IndexError("index out of range in self")
    if max_norm is not None:
        _renorm_rows(weight, idx, max_norm, norm_type)
    scale = None
    if scale_grad_by_freq:
        xp = xp_of(idx)
        scale = 1.0 / xp.bincount(idx.reshape(-1), minlength=num)[idx]
    return Embedding.apply(weight, idx=idx, padding_idx=padding_idx, scale=scale, sparse=bool(sparse))


def _renorm_rows(weight: Tensor, idx, max_norm: float, norm_type: float) -> None:
    """PyTorch's in-place renormalisation of the looked-up rows whose norm exceeds ``max_norm``."""
    w = weight._data
    xp = xp_of(w)
    rows = xp.unique(idx.reshape(-1))
    # NOTE: each row's norm as torch's row.norm(p) computes it (core's vector_norm: its reduction order), read as
    # a double; the scale max_norm / (norm + 1e-7) in double, rounded to the weight's dtype for row *= scale
    with grad_mode.no_grad():
        norms = core.linalg.vector_norm(Tensor._wrap(w[rows]), norm_type, dim=1)._data.astype(np.float64)
    scale = xp.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    w[rows] = w[rows] * scale[:, None].astype(w.dtype)
    weight._vc[0] += 1


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    if tensor.dtype is not core.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    arr = tensor._data
    xp = xp_of(arr)
    if num_classes == -1:
        if arr.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(arr.max()) + 1
    if arr.size and int(arr.min()) < 0:
        raise RuntimeError("Class values must be non-negative.")
    if arr.size and int(arr.max()) >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return mark(new_tensor(row_major((arr[..., None] == xp.arange(num_classes)).astype(np.int64))))  # (contiguous)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out=None) -> Tensor:
    norm = core.linalg.vector_norm(input, p, dim, keepdim=True) if hasattr(core, "linalg") and \
        hasattr(core.linalg, "vector_norm") else core.norm(input, p, dim, keepdim=True)
    return input / core.clamp(norm, min=eps).expand_as(input)


class _Norm(LinalgVectorNorm):
    """The vector norm as PyTorch's C++ ``at::norm`` records it (pairwise_distance): ``grad_fn=<NormBackward1>``."""

    node_name = "NormBackward1"
    _saved_ord, _saved_p = None, LinalgVectorNorm._saved_ord  # (at::norm's node names its order p)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> Tensor:
    require_tensors("pairwise_distance", x1=(1, x1), x2=(2, x2))
    d = add_s(x1 - x2, eps)  # (C++'s add of a Scalar: AddBackward1, as torch's graph)
    return _Norm.apply(d, p=float(p), dims=reduce_dims(d, (-1,)), keepdim=bool(keepdim))


from core.nn.functional._pad import pad  # noqa: E402 - the padding primitive lives in its own module
