"""bfloat16 and float16 ops computed as PyTorch's CPU kernels compute them: in float32 ("opmath"), rounded once.

ml_dtypes' and NumPy's elementwise ufuncs already do this for one step (each converts to float32, computes,
rounds), so ``a + b`` or ``exp`` on half arrays needs nothing here. An op built from several NumPy steps would
instead round after each step (a softmax's exp, sum and divide; a sum's running total; a layer norm's mean and
variance), and NumPy's matmul of bfloat16 arrays returns float32. ``computes_in_float32`` decorates such a
``Function``:

- its bfloat16 (float16) tensor arguments reach ``forward`` as float32 copies, a ``bfloat16`` (``float16``)
  dtype argument (a reduction's result dtype) becomes ``float32``, and its float32 results come back rounded to
  the half type of its arguments;
- ``backward`` gets half incoming gradients as float32, and the autograd engine rounds each input's gradient
  to that input's dtype, as it does for any gradient of another dtype.

A float32 call pays one attribute chain on its first argument. The busiest ops do without the wrapper: sum,
mm, bmm and the one-GEMM linear round their float32 result themselves (``core._cascade_sum.ordered_sum``,
``core.ops.linalg``, ``core.nn.functional.misc``). Where a PyTorch kernel rounds more than once, the
functions below give its exact steps: ``log_softmax_bfloat16`` (the last dim's kernel keeps the log-sum in
bfloat16), ``add_scaled_bfloat16`` (``add(alpha=)``: alpha as a bfloat16, the vectorised loop's tail) and
``adam_step_bfloat16`` (the single-tensor Adam step, op by op).
"""

from __future__ import annotations

import inspect

import ml_dtypes
import numpy as np

from core import _cpu, _dtype
from core._tensor import Tensor, new_tensor

__all__ = ["computes_in_float32", "is_reduced", "with_number", "half_steps", "gemm_float16", "bmm_float16",
           "mm_float16", "log_softmax_bfloat16", "add_scaled_bfloat16", "adam_step_bfloat16", "rmsprop_step_bfloat16",
           "adagrad_step_bfloat16", "BF16", "F16"]

BF16 = np.dtype(ml_dtypes.bfloat16)
F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_float32 = _dtype.float32
_REDUCED = {BF16: _dtype.bfloat16, F16: _dtype.float16}  # NumPy dtype -> core dtype, the two half types


def is_reduced(dt: np.dtype) -> bool:
    """Whether a NumPy dtype is bfloat16 or float16 (PyTorch's reduced floating types, computed in float32).

    NOTE: on float32's hot paths (a product by a Python float, add with alpha): one dict lookup (~35 ns), which
    also matches a view's dtype that is an equal object, not the same one."""
    return dt in _REDUCED


def with_number(ufunc, arr, number):
    """``ufunc(arr, number)`` for a Python number as PyTorch's kernels take it: a half array's in float32 (its
    opmath: the number as float32, as a half type it could round or overflow), rounded once; others as they are."""
    if is_reduced(arr.dtype):
        return ufunc(arr.astype(_F32), np.float32(number)).astype(arr.dtype)
    return ufunc(arr, number)


def _is_low(a) -> bool:
    """A bfloat16 or float16 tensor."""
    return isinstance(a, Tensor) and is_reduced(a._data.dtype)


def _widened(a):
    if _is_low(a):
        return new_tensor(a._data.astype(_F32))
    return _float32 if isinstance(a, _dtype.dtype) and a.np in _REDUCED else a


def _rounded(o, low: np.dtype):
    """A forward result with its float32 arrays (or tensors) rounded to ``low`` (bfloat16 or float16).

    NOTE: the float32 array is rounded in place as well (it is the forward's fresh result), so an output the
    forward saved for backward holds the half-precision values PyTorch's backward kernels read."""
    if type(o) is tuple:
        return tuple([_rounded(x, low) for x in o])
    if isinstance(o, Tensor):
        return new_tensor(_rounded(o._data, low)) if o._data.dtype == _F32 else o
    if isinstance(o, (np.ndarray, np.generic)) and o.dtype == _F32:
        half = np.asarray(o).astype(low)
        if isinstance(o, np.ndarray) and o.flags.writeable:
            o[...] = half
        return half
    return o


def _write_back(originals, widened) -> None:
    """Arguments the forward changed in place (a batch norm's running statistics: their version moved) get the
    change back, rounded to their dtype, with their own version bumped."""
    for o, w in zip(originals, widened):
        if w is not o and isinstance(w, Tensor) and w._vc[0]:
            o._data[...] = w._data.astype(o._data.dtype)
            o._vc[0] += 1


def _forward_in_float32(forward, finish, skip: int):
    """``forward`` wrapped; its first ``skip`` arguments are (ctx,) or, for a classmethod, (cls, ctx)."""
    def forward_in_float32(*args, **kwargs):
        # NOTE: the float32 route of every decorated op, so one attribute chain: the first argument decides (the
        # decorated ops take their tensors in one dtype, the first a tensor); kind 'V' is ml_dtypes' types
        try:
            dt = args[skip]._data.dtype
            if dt.kind != "V" and dt is not F16:  # (float16: one object, an identity test)
                return forward(*args, **kwargs)
        except (AttributeError, IndexError):  # no tensor first: look at every argument
            if not any([_is_low(a) for a in args]) and not any([_is_low(v) for v in kwargs.values()]):
                return forward(*args, **kwargs)
        head, rest = args[:skip], args[skip:]
        lows = [a._data.dtype for a in (*rest, *kwargs.values()) if _is_low(a)]
        if not lows:
            return forward(*args, **kwargs)  # float8_e4m3fn, also kind 'V': as it is
        low = lows[0]
        wide = tuple([_widened(a) for a in rest])
        if any([isinstance(v, _dtype.dtype) and v.np != low for v in kwargs.values()]):
            return forward(*head, *wide, **kwargs)  # a result dtype asked for (``sum(dtype=float32)``): no rounding
        wide_kw = {k: _widened(v) for k, v in kwargs.items()}
        head[-1].half_dtype = _REDUCED[low]  # (for a backward that, as PyTorch's formula, rounds each step: half_steps)
        out = forward(*head, *wide, **wide_kw)
        _write_back(rest, wide)
        _write_back(kwargs.values(), wide_kw.values())
        return _rounded(out, low) if finish is None else finish(head[-1], rest, kwargs, out)

    forward_in_float32.in_float32 = True
    return forward_in_float32


def _backward_in_float32(backward):
    def backward_in_float32(*args):  # (ctx, *grads), or (cls, ctx, *grads) for a classmethod
        for g in args:
            if isinstance(g, Tensor) and is_reduced(g._data.dtype):
                return backward(*[g.float() if _is_low(g) else g for g in args])
        return backward(*args)

    backward_in_float32.in_float32 = True
    return backward_in_float32


def computes_in_float32(cls=None, *, forward: bool = True):
    """Class decorator for a ``Function``: bfloat16/float16 inputs computed in float32 and rounded once (module
    doc); ``forward=False`` leaves forward alone (it handles the half types itself) and wraps only backward.

    NOTE: it wraps ``forward`` (which ``apply`` and the in-place drivers call; a subclass defined afterwards
    inherits the wrapped one) and ``backward``. A class whose PyTorch kernel rounds more than once defines
    ``reduced_result(ctx, args, kwargs, out)``: the result from the original (half-precision) arguments and the
    float32 forward's ``out``, in place of rounding ``out`` once.
    """
    if cls is None:
        return lambda c: computes_in_float32(c, forward=forward)
    raw = inspect.getattr_static(cls, "forward")
    func = raw.__func__ if isinstance(raw, (classmethod, staticmethod)) else raw
    if forward and not getattr(func, "in_float32", False):  # (a subclass of a decorated class has it already)
        finish = getattr(cls, "reduced_result", None)
        if isinstance(raw, classmethod):  # a subclass inheriting it must still get itself as ``cls``
            cls.forward = classmethod(_forward_in_float32(func, finish, 2))
        else:
            cls.forward = staticmethod(_forward_in_float32(func, finish, 1))
        cls._core_forward = staticmethod(cls.forward)  # what ``apply`` calls (none of these has a setup_context)
    backward = inspect.getattr_static(cls, "backward")
    func = backward.__func__ if isinstance(backward, (classmethod, staticmethod)) else backward
    if not getattr(func, "in_float32", False):
        if isinstance(backward, classmethod):
            cls.backward = classmethod(_backward_in_float32(func))
        else:
            cls.backward = staticmethod(_backward_in_float32(func))
    return cls


def gemm_float16(a, b):
    """``a @ b`` of 2-d float16 arrays as PyTorch's CPU GEMM computes it, in float32 (not rounded): each output
    adds its products (exact in float32) in order of k into a float32 accumulator (NumPy's float16 matmul does
    too but rounds its result, so a bias added after it rounds twice; BLAS's sgemm adds in another order).

    NOTE: one multiply-add over the (m, n) output per k: as fast as NumPy's float16 loop for small k, faster
    for large shapes (256x512x256: ~30 ms against ~160 ms)."""
    a32, b32 = a.astype(_F32), b.astype(_F32)
    acc = np.zeros((a.shape[0], b.shape[1]), _F32)
    for k in range(a.shape[1]):
        acc += a32[:, k, None] * b32[k]
    return acc


_NAIVE_BMM = 400  # n * k * m below which PyTorch's bmm runs its own loop (in order of k, as NumPy's float16 matmul)


def bmm_float16(x, y):
    """PyTorch's CPU ``bmm`` of float16 NumPy stacks (b, n, k) @ (b, k, m) where its order is known and is not
    NumPy's, else None (the caller keeps NumPy's float16 matmul: float32 products added in order of k).

    Where oneDNN does not take float16 (``core._cpu.onednn_takes_half``: no avx512_fp16 or avx_ne_convert, as on
    an AMD Zen 4) and the product is not small, each matrix goes to ATen's own GEMM (``cpublas``): with both
    operands' rows contiguous that is ``gemm_notrans_``, whose ``sum`` keeps four float32 partial sums (k = 0, 4,
    8... into the first, k = 1, 5... into the second, ...; the last k % 4 products into the first), then adds the
    other three to the first in order; one rounding to float16 at the end. NOTE: a transposed ``x`` takes
    ``gemm_transb_`` (in order of k: NumPy's), a transposed ``y`` ``gemm_transa_``'s vectorised dot (not
    reproduced: NumPy's; ATen's ``fp16_dot_with_fp32_arith`` as its source reads, 8 registers of 16 float lanes
    folded in halves, a vector tail of 32 and a scalar tail, matched no better than NumPy: 0-5 of 24-192 outputs
    of cancelling values off with either, measured on the AMD EPYC with k = 20-300)."""
    if type(x) is not np.ndarray or type(y) is not np.ndarray or x.ndim != 3 or y.ndim != 3 \
            or x.shape[1] * x.shape[2] * y.shape[2] < _NAIVE_BMM or not _takes_notrans(x, y):
        return None
    return _four_partial_sums(x, y)


def mm_float16(a, b):
    """PyTorch's CPU ``mm`` of 2-d float16 NumPy arrays (so ``matmul`` of matrices, and of a stack it folds into
    one ``mm``) where its order is known, else None: ``cpublas``'s ``gemm_notrans_`` as in ``bmm_float16``, at
    every size (``mm`` has no small-product loop of its own). Measured on the AMD EPYC Zen 4: 4,693 outputs of
    small products (k 5-13) of cancelling values, and 1,472 of k = 2,000-4,096, bit for bit; NumPy's float16
    matmul (in order of k) differed in 367 and 4 of them. A transposed operand keeps NumPy's (``bmm_float16``)."""
    if type(a) is not np.ndarray or type(b) is not np.ndarray or a.ndim != 2 or b.ndim != 2 \
            or not _takes_notrans(a, b):
        return None
    return _four_partial_sums(a[None], b[None])[0]


def _takes_notrans(x, y) -> bool:
    """Whether PyTorch's float16 GEMM of these arrays is ``gemm_notrans_`` (``bmm_float16``): float16, both rows
    contiguous, on a CPU where oneDNN does not take float16."""
    return x.dtype == F16 and y.dtype == F16 and not _cpu.onednn_takes_half("float16") \
        and (x.strides[-1] == x.itemsize or x.shape[-1] <= 1) and (y.strides[-1] == y.itemsize or y.shape[-1] <= 1)


def _four_partial_sums(x, y):
    """``gemm_notrans_``'s order for float16 stacks (b, n, k) @ (b, k, m): four float32 partial sums, rounded
    to float16 once (``bmm_float16``)."""
    k = x.shape[2]
    x32, y32 = x.astype(_F32), y.astype(_F32)
    parts = np.zeros((4, *np.broadcast_shapes(x.shape[:1], y.shape[:1]), x.shape[1], y.shape[2]), _F32)
    for i in range(k - k % 4):
        parts[i % 4] += x32[:, :, i, None] * y32[:, None, i]
    for i in range(k - k % 4, k):
        parts[0] += x32[:, :, i, None] * y32[:, None, i]
    for i in (1, 2, 3):
        parts[0] += parts[i]
    return parts[0].astype(F16)


def half_steps(ctx, *tensors):
    """The tensors in the half type a decorated forward was called with (``ctx.half_dtype``), else as they are:
    for a backward whose PyTorch formula is made of ops that each round to the half type (``var_backward``),
    where the decorator hands it float32 tensors."""
    low = ctx.__dict__.get("half_dtype")
    return tensors if low is None else tuple([None if t is None else t.to(low) for t in tensors])


def _round(arr, low: np.dtype):
    """A float32 array's values rounded to ``low`` (bfloat16 unless told), held as float32."""
    return arr.astype(low).astype(_F32)


def log_softmax_bfloat16(x, dim: int):
    """PyTorch's CPU log_softmax of a bfloat16 or float16 array: in float32, but over the last dim its kernel
    keeps the row's sum of exps, and then that sum's log, in the array's dtype before ``x - max - log(sum)`` is
    rounded."""
    low = x.dtype
    x32 = x.astype(_F32)  # (bfloat16 lives on the CPU only: ml_dtypes is NumPy's)
    if not x32.ndim or not x32.size:
        return (x32 - x32).astype(low)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        shifted = x32 - np.max(x32, axis=dim, keepdims=True)
        total = np.exp(shifted).sum(axis=dim, keepdims=True, dtype=_F32)
        if dim % x32.ndim == x32.ndim - 1:
            return (shifted - _round(np.log(_round(total, low)), low)).astype(low)
        return (shifted - np.log(total)).astype(low)


BF16_LANES = 32  # bfloat16 lanes of an AVX-512 register, what PyTorch's CPU build uses on this machine (core._lane_sum)


def add_scaled_bfloat16(x, y, alpha):
    """``x + alpha * y`` of bfloat16 (or float16) arrays as PyTorch's CPU add kernel gives it: alpha taken in
    the arrays' dtype, the sum computed in float32 and rounded once; in its vectorised loop's tail (the last
    n % 32 elements of same-shaped operands) the product is rounded to that dtype first."""
    low = x.dtype
    a = np.float32(np.asarray(alpha, dtype=low))
    if type(x) is np.ndarray and type(y) is np.ndarray and x.ndim and (x.shape == y.shape or y.ndim == 0):
        # NOTE: its scalar loop (the tail, a strided operand, a row of a non-adjacent layout) also for a number
        # ``other`` (a 0-d array, taken in the arrays' dtype): each step rounded, x + low(alpha * y)
        from core._sleef import vector_loop  # (core._sleef builds on this module's siblings)

        return vector_loop(x, lambda u, v: u.astype(_F32) + a * v.astype(_F32),
                           lambda u, v: u.astype(_F32) + _round(a * v.astype(_F32), low), y, pair=BF16_LANES)
    x32, y32 = x.astype(_F32), y.astype(_F32)
    out = x32 + a * y32
    n = out.size
    if x.shape == y.shape and n % BF16_LANES:
        flat, tail = out.reshape(-1), slice(n - n % BF16_LANES, None)
        flat[tail] = x32.reshape(-1)[tail] + _round(a * y32.reshape(-1)[tail], low)
    return out.astype(low)


def adam_step_bfloat16(group: dict, param, grad, m, v, vmax, step: float) -> None:
    """PyTorch's single-tensor Adam step on bfloat16 arrays, in place, rounded where its kernels round: the lerp,
    ``mul_``, ``addcmul_``, ``sqrt``, division and ``addcdiv_`` each compute in float32 (Python numbers stay
    float32) and round once; ``add_(eps)`` takes eps as a bfloat16, as the add kernel takes a scalar."""
    lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
    f = np.float32
    g, m32 = grad.astype(_F32), m.astype(_F32)
    w = f(1 - beta1)
    m[...] = m32 + w * (g - m32) if abs(w) < 0.5 else g - (g - m32) * (f(1) - w)  # exp_avg.lerp_(grad, 1 - beta1)
    v[...] = v.astype(_F32) * f(beta2)  # exp_avg_sq.mul_(beta2)
    v[...] = v.astype(_F32) + f(1 - beta2) * g * g  # .addcmul_(grad, grad, value=1 - beta2)
    step_size = lr / (1 - beta1 ** step)
    if vmax is not None:
        np.maximum(vmax, v, out=vmax)
        v = vmax
    low = param.dtype  # (bfloat16, or float16: the same kernels)
    denom = _round(np.sqrt(v.astype(_F32)), low)
    denom = _round(denom / f((1 - beta2 ** step) ** 0.5), low)
    denom = _round(denom + np.asarray(eps, dtype=low).astype(_F32), low)  # .add_(eps)
    param[...] = param.astype(_F32) + f(-step_size) * m.astype(_F32) / denom  # param.addcdiv_(exp_avg, denom, ...)


def _plus_eps(a, eps, low: np.dtype = BF16):
    """``a.add_(eps)`` of float32-held half values: the add kernel takes the scalar in the half type ``low``."""
    return _round(a + np.asarray(eps, dtype=low).astype(_F32), low)


def rmsprop_step_bfloat16(group: dict, param, grad, square_avg, grad_avg, buf) -> None:
    """PyTorch's single-tensor RMSprop step on bfloat16 arrays, in place, each kernel rounding once
    (``grad_avg``/``buf``: the centered average and the momentum buffer, or None)."""
    f, alpha, lr, low = np.float32, group["alpha"], group["lr"], param.dtype
    g = grad.astype(_F32)
    sq = _round(square_avg.astype(_F32) * f(alpha), low)  # square_avg.mul_(alpha)
    square_avg[...] = sq + f(1 - alpha) * g * g  # .addcmul_(grad, grad, value=1 - alpha)
    sq = square_avg.astype(_F32)
    if grad_avg is not None:
        ga, w = grad_avg.astype(_F32), f(1 - alpha)
        grad_avg[...] = ga + w * (g - ga) if abs(w) < 0.5 else g - (g - ga) * (f(1) - w)  # grad_avg.lerp_
        ga = grad_avg.astype(_F32)
        avg = _round(np.sqrt(_round(sq + f(-1) * ga * ga, low)), low)  # square_avg.addcmul(...).sqrt_()
    else:
        avg = _round(np.sqrt(sq), low)
    avg = _plus_eps(avg, group["eps"], low)
    if buf is not None:
        buf[...] = _round(buf.astype(_F32) * f(group["momentum"]), low) + g / avg  # buf.mul_(m).addcdiv_(grad, avg)
        param[...] = add_scaled_bfloat16(param, buf, -lr)  # param.add_(buf, alpha=-lr)
    else:
        param[...] = param.astype(_F32) + f(-lr) * g / avg  # param.addcdiv_(grad, avg, value=-lr)


def adagrad_step_bfloat16(param, grad, state_sum, clr: float, eps: float) -> None:
    """PyTorch's single-tensor Adagrad step on bfloat16 arrays, in place, each kernel rounding once."""
    g = grad.astype(_F32)
    state_sum[...] = state_sum.astype(_F32) + np.float32(1) * g * g  # state_sum.addcmul_(grad, grad, value=1)
    low = param.dtype
    std = _plus_eps(_round(np.sqrt(state_sum.astype(_F32)), low), eps, low)  # state_sum.sqrt().add_(eps)
    param[...] = param.astype(_F32) + np.float32(-clr) * g / std  # param.addcdiv_(grad, std, value=-clr)
