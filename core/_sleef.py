"""SLEEF's float32 ``expf`` (its 1-ulp ``u10`` form), as PyTorch's vectorised CPU kernels evaluate it.

``Vectorized<float>::exp()`` in PyTorch's AVX2/AVX-512 kernels is SLEEF's ``expf_u10``: a Cody-Waite
reduction by ln 2 and a degree-6 polynomial, every step a float32 fused multiply-add. It is within 1 ulp but
not correctly rounded: about 1 result in 40 is the other neighbour of the true value. ``torch.exp`` itself
goes to MKL and is (nearly) correctly rounded (``core._precise``); the kernels that call ``Vectorized::exp``
inside (log_softmax's backward, among others) round as here. Each float32 fma is computed in float64 and
rounded once more (a product of float32 values is exact in float64; see ``core._fused``), or, where the result's
binade is known, rounded once to float32's grid inside float64 (the NOTE at ``_GRID_SHIFT``).
"""

from __future__ import annotations

import numpy as np

from core import _cpu
from core._glibc import expf as glibc_expf
from core._memory_format import laid_out_like_operands
from core._numpy_c import copyto as _copyto
from core._pool import pool_map
from core._thread_scratch import kept_per_thread

__all__ = ["expf_u10", "logf_u10", "log1pf_u10", "tanhf_u10", "loop_exp", "loop_sigmoid", "exp_neg_abs_and_neg"]

_F32, _F64 = np.float32, np.float64
_R_LN2 = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = _F32(0.693145751953125), _F32(1.428606765330187045e-06)
_LN2_SUM = _F64(_L2U) + _F64(_L2L)  # exact in float64: 15 bits from 2^-1 and 24 bits from 2^-20
_C6 = _F64(_F32(0.000198527617612853646278381))
_POLY = [_F64(_F32(c)) for c in (0.00139304355252534151077271, 0.00833336077630519866943359,
                                 0.0416664853692054748535156, 0.166666671633720397949219, 0.5)]
# NOTE: for |s| <= ln 2 / 2 the first four Horner values each stay in one binade [2^e, 2^(e+1)), e = -10, -7, -5,
# -3, where float32's grid is 2^(e-23). Adding K = 1.5 2^(e+29) (whose float64 ulp is that grid) rounds to it,
# ties to even, so fl64(s u + (c + K)) - K is the float32 fma of s, u, c, one rounding of the exact s u + c, in two
# float64 steps instead of a multiply-add and two casts (c + K is exact: c lies on the same grid).
_GRID_SHIFT = [_F64(1.5 * 2.0 ** (e + 29)) for e in (-10, -7, -5, -3)]
_POLY_SHIFTED = [c + k for c, k in zip(_POLY[:4], _GRID_SHIFT)]
# NOTE: ``_exp_block``'s constants as 0-d arrays of their dtypes: a ufunc converts a NumPy scalar (or a Python
# number) operand into an array on every call, ~0.15-0.3 µs of a ~0.5 µs call on a small block (a sigmoid's 192
# elements: 15 -> 13 µs); a 0-d array of the same dtype promotes the same way, so every value is the same
_K_R_LN2, _K_LN2_SUM, _K_C6, _K_C5 = (np.array(c) for c in (_R_LN2, _LN2_SUM, _C6, _POLY[4]))
_K_HORNER = [(np.array(c), np.array(k)) for c, k in zip(_POLY_SHIFTED, _GRID_SHIFT)]
_K_ONE = np.array(1, _F32)
# NOTE: elements per block: the block's scratch, input and output (~512 KiB) stay in a core's L2 cache; 8192 (the
# float64 temporaries in L1/L2) was ~10% slower on a 2 MiB-L2 core, the ~29 ufunc calls a block costing more
_BLOCK = 16384
_LOW, _HIGH, _NO_OVERFLOW = _F32(-104), _F32(100), _F32(88)  # SLEEF's bounds: 0 below, inf above
# NOTE: from here up to ``_NO_OVERFLOW`` every q = rint(x / ln 2) lies in [-149, 127] (-103 / ln 2 = -148.6), where
# 2^q is a float32; ``_POW2[q]`` (``mode="wrap"``: index q + 277 for q < 0) is it, exactly
_TABLE_LOW = _F32(-103)
_POW2 = np.ldexp(_F32(1), np.r_[np.arange(0, 128), np.arange(-149, 0)].astype(np.int32)).astype(_F32)
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce


def expf_u10(d: np.ndarray, *, negate: bool = False, out: np.ndarray | None = None) -> np.ndarray:
    """SLEEF's ``expf_u10`` of a float32 NumPy array, element for element as its SIMD form computes it.

    ``negate``: of ``-d`` (sigmoid's ``exp(-x)``) without the negated copy; ``out``: a C-contiguous float32 array
    of ``d``'s size that receives the result (returned), ``d`` itself included.

    NOTE: the array goes through ``_BLOCK`` elements at a time with preallocated temporaries (``out=``): the
    float64 steps then run in cache, at two to three times the speed of whole-array temporaries."""
    if type(d) is np.ndarray and d.dtype == _F32 and d.flags.c_contiguous:  # (the usual case: no conversions)
        shape, flat = d.shape, d.reshape(-1)
    else:
        d = np.asarray(d, _F32)
        shape = d.shape  # (``ascontiguousarray`` makes a 0-d array 1-d: the result takes ``shape`` back)
        flat = np.ascontiguousarray(d).reshape(-1)
    n = flat.size
    res = np.empty(n, _F32) if out is None else out.reshape(-1)
    if not n:
        return res.reshape(shape)
    low, high = float(_MIN(flat)), float(_MAX(flat))
    if negate:
        low, high = -high, -low
    in_range = low >= _LOW and high <= _HIGH  # (False for a nan too)
    table = low >= _TABLE_LOW and high <= _NO_OVERFLOW  # (every 2^q a float32: ``_exp_block``'s NOTE)
    if n <= _BLOCK and in_range and high <= _NO_OVERFLOW:  # (no floating-point flags then but underflow's, ignored)
        _exp_block(flat, res, _scratch(n), True, negate, table)
        return res.reshape(shape)
    if negate:
        flat = -flat
    workers = _workers(n)
    if workers == 1:
        _exp_blocks(flat, res, in_range, table)
    else:  # contiguous runs of blocks, one per thread (NumPy's ufuncs release the GIL): the same values
        cuts = [(n // _BLOCK) * i // workers * _BLOCK for i in range(workers)] + [n]
        pool_map(lambda i: _exp_blocks(flat[cuts[i]:cuts[i + 1]], res[cuts[i]:cuts[i + 1]], in_range, table),
                 range(workers))
    return res.reshape(shape)


# NOTE: elements from which the blocks are shared among ``core.get_num_threads()`` threads (as PyTorch's softmax
# splits its rows): 16 blocks (~10 ms of work) or more, where starting the threads costs under 2%
_THREADED = 16 * _BLOCK


def _workers(n: int) -> int:
    if n < _THREADED:
        return 1
    from core._threads import get_num_threads  # (at call time: a set_num_threads applies)

    return max(1, min(get_num_threads(), n // (4 * _BLOCK)))


def _exp_blocks(flat: np.ndarray, res: np.ndarray, in_range: bool, table: bool) -> None:
    """``_exp_block`` over ``flat`` a block at a time, into ``res`` (the floating-point flags of out-of-range
    values ignored: the state is per thread)."""
    scratch = _Scratch(min(flat.size, _BLOCK))
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, flat.size, _BLOCK):
            _exp_block(flat[start:start + _BLOCK], res[start:start + _BLOCK], scratch, in_range, table=table)


class _Scratch:
    """The temporaries of one block: float32 q and s (s's buffer holds the exponents' bits at the end), float64
    s and the Horner value, and the exponents as indices (``intp``)."""

    def __init__(self, size: int):
        self.narrow, self.wide = np.empty((2, size), _F32), np.empty((2, size), _F64)
        self.index = np.empty(size, np.intp)
        self.whole = (*self.narrow, *self.wide, self.index)  # (views made once: ~1.5 µs a call, of ~20 for 400 values)

    def cut(self, size: int) -> tuple:
        if size == self.index.size:
            return self.whole
        return tuple(part[:size] for part in self.whole)


# NOTE: a small array's scratch is kept per thread and size (``core._thread_scratch``: the last 8 sizes up to 4,096
# elements, 128 KiB each at most): two ``np.empty`` and an object a call cost ~1 µs of a 200-element exp's ~25, and
# the kept buffers are in cache (an LSTM's three gates of 16 x 64: 3,072 values 47 -> 44 µs)
_scratch = kept_per_thread(_Scratch, up_to=4096, sizes=8)  # (``expf_u10`` is not reentrant on a thread)


def _exp_block(x: np.ndarray, u: np.ndarray, scratch: _Scratch, in_range: bool, negate: bool = False,
               table: bool = False) -> None:
    """SLEEF's steps on one block ``x``, into ``u`` (``negate``: of ``-x``, in range; ``table``: every result's
    exponent q in [-149, 127], so 2^q is a float32)."""
    q, s, s64, t, k = scratch.cut(x.size)
    if not in_range:  # (read before ``u`` is written: it may be ``x`` itself)
        low, high, nan = x < -104, x > 100, np.isnan(x)
        carried = x[nan] + _F32(0)  # SLEEF's fmas carry the input's NaN (quieted) through, sign included
    mul, add, sub, copyto = np.multiply, np.add, np.subtract, _copyto  # (copyto without its dispatcher: _numpy_c)
    mul(x, _K_R_LN2, out=q)
    np.rint(q, out=q)  # (vcvtps2dq: round half to even, of the float32 product)
    # NOTE: fma(q, -L2U, d) is exact (Sterbenz) and fma(q, -L2L, .) adds bits down to 2^-43: d - q (L2U + L2L) is
    # exact in float64, so one cast rounds both of SLEEF's fmas. With ``negate`` (d = -x) q is -rint(x / ln 2) (the
    # product and rint are odd functions), so q here is its negation and d - q ln 2 = (-q) ln 2 - x, the same exact
    # value; the exponent at the end takes -q
    # NOTE: q and x copied into float64 first: a ufunc with a float32 and a float64 operand casts through NumPy's
    # buffers (~1.2 µs a call on 200 values, against ~0.3 for the copy and ~0.7 for the float64 call)
    copyto(t, q)
    mul(t, _K_LN2_SUM, out=t)
    copyto(s64, x)
    if negate:
        sub(t, s64, out=t)
    else:
        sub(s64, t, out=t)
    copyto(s, t, casting="same_kind")
    copyto(s64, s)
    mul(s64, _K_C6, out=t)  # u = fma(u, s, c), from the highest degree down
    for shifted, shift in _K_HORNER:
        add(t, shifted, out=t)
        sub(t, shift, out=t)
        mul(t, s64, out=t)
    add(t, _K_C5, out=t)  # (u crosses 0.5 here with s's sign: a cast rounds it)
    copyto(u, t, casting="same_kind")
    mul(s, s, out=s)  # 1 + fma(s * s, u, s): s * s rounded in float32, its product with u exact in float64
    # NOTE: a copy into float64 and a multiply with one float32 operand cost ~20% less than one float32 * float32
    # -> float64 multiply (NumPy casts both operands through its buffers there)
    copyto(t, s)
    mul(t, u, out=t)
    add(t, s64, out=t)
    copyto(u, t, casting="same_kind")
    add(u, _K_ONE, out=u)
    if negate:
        np.negative(q, out=k, casting="unsafe")
    else:
        copyto(k, q, casting="unsafe")
    # NOTE: SLEEF's two exact-then-rounded products are one correctly rounded, as ``ldexp``'s; where every 2^q is a
    # float32 (q in [-149, 127], subnormal powers too) so is one float32 product by 2^q, looked up (``_POW2``):
    # ``ldexp``'s loop has no vector form (1,600 values ~7 µs, the lookup and the product ~1.5)
    if table:
        _POW2.take(k, out=q, mode="wrap")
        mul(u, q, out=u)
    else:
        np.ldexp(u, k, out=u)
    if in_range:
        return
    u[low] = 0
    u[high] = np.inf
    u[nan] = carried


# NOTE: float32 elements of one step of PyTorch's vectorised loops, two of its vectors: 32 in its AVX-512 build, 16 in
# its AVX2 one (``core._cpu.vector_bytes``; on an AVX2 CPU, 32 sent the last n % 32 of 16..31 elements to glibc's exp
# where torch's vector loop takes them: sigmoid, silu, softplus and mish of 17..31 values were an ulp off)
_PAIR = 2 * _cpu.vector_bytes() // 4
_GRAIN = 32768  # elements above which PyTorch splits an elementwise loop among its threads


def loop_exp(x: np.ndarray, negate: bool = False) -> np.ndarray:
    """``exp`` of a float32 array as PyTorch's elementwise CPU loops evaluate ``Vectorized::exp`` in a kernel
    such as sigmoid's: SLEEF's exp in the vector loop, the C library's (glibc's ``expf``: ``core._glibc``) for
    the rest (``vector_loop``). ``negate``: ``exp(-x)`` (sigmoid's), the loop chosen by ``x``'s layout (``-x``
    would be a contiguous copy)."""
    n = x.size
    if x.dtype == _F32 and x.flags.c_contiguous and n >= _PAIR:  # NOTE: vector_loop's common case, in place
        flat = x.reshape(-1)
        cut = n - n % _PAIR
        out = np.empty(n, _F32)
        expf_u10(flat[:cut], negate=negate, out=out[:cut])
        if cut < n:
            out[cut:] = glibc_expf(-flat[cut:] if negate else flat[cut:])
        return out.reshape(x.shape)
    if negate:
        return vector_loop(x, lambda v: expf_u10(v, negate=True), lambda v: glibc_expf(-v))
    return vector_loop(x, expf_u10, glibc_expf)


def loop_sigmoid(x: np.ndarray, exp_neg: np.ndarray | None = None) -> np.ndarray:
    """``1 / (1 + exp(-x))`` of a float32 NumPy array as PyTorch's sigmoid kernel computes it: ``loop_exp``'s
    ``exp(-x)``, then the add and the division in float32. ``exp_neg``: SLEEF's ``exp(-x)`` of every element of a
    C-contiguous ``x`` of 32 elements or more, computed before (``exp_neg_abs_and_neg``; left as it is): its vector
    part stands for ``loop_exp``'s, whose tail is still glibc's.

    NOTE: both steps in place on ``loop_exp``'s fresh array with 0-d operands (``1 / (1 + e)`` makes a second
    array and converts its Python numbers on every call: a 200-element sigmoid's last steps 1.7 -> 1.1 µs)."""
    n = x.size
    if exp_neg is not None and x.dtype == _F32 and x.flags.c_contiguous and n >= _PAIR:
        e = np.add(exp_neg.reshape(-1), _K_ONE)  # (a fresh array: exp_neg may be read again)
        cut = n - n % _PAIR
        if cut < n:
            e[cut:] = glibc_expf(-x.reshape(-1)[cut:])
            np.add(e[cut:], _K_ONE, out=e[cut:])
        return np.divide(_K_ONE, e, out=e).reshape(x.shape)
    e = loop_exp(x, negate=True)
    if not e.flags.writeable:  # (not seen: loop_exp's results are its own arrays)
        return 1 / (1 + e)
    np.add(e, _K_ONE, out=e)
    return np.divide(_K_ONE, e, out=e)


def exp_neg_abs_and_neg(x: np.ndarray) -> tuple:
    """``(exp(-|x|), exp(-x))`` of a float32 NumPy array, both SLEEF's ``expf_u10`` of every element, as its two
    calls would give them: log_sigmoid's exp and the one a sigmoid of the same values later takes.

    NOTE: a hot path (``binary_cross_entropy_with_logits``' forward keeps the second for its backward's sigmoid,
    ``loop_sigmoid(x, exp_neg)``): on a small batch each of SLEEF's ~30 NumPy calls costs more than its elements,
    so the two rows of one array through one call cost about what one row alone does (a 200-element loss's
    backward ~15% less). Each element's value does not depend on the others (``expf_u10`` is elementwise; only
    its route, fast or mending special values, is chosen per call, and both give the same value)."""
    both = np.empty((2, x.size), _F32)
    np.abs(x.reshape(-1), out=both[0])
    _copyto(both[1], x.reshape(-1))
    expf_u10(both, negate=True, out=both)
    return both[0].reshape(x.shape), both[1].reshape(x.shape)


def vector_loop(x: np.ndarray, vec, scalar, *more: np.ndarray, pair: int | None = None) -> np.ndarray:
    """``cpu_kernel_vec``'s split of float32 arrays between its two forms of an elementwise op: contiguous
    operands' elements in steps of two vectors through ``vec``, the last ``n % pair`` through ``scalar`` (the C
    library's functions); operands whose rows are contiguous but not adjacent, row by row so; a strided operand,
    or fewer than ``pair`` elements, all through ``scalar``. Both forms take ``x`` and the ``more`` operands (same
    shape, or 0-d: a broadcast scalar such as a loss's incoming gradient, which keeps the loop vectorised) and return an
    array of ``x``'s shape and dtype (float32, or float64 whose steps hold half as many elements). ``pair``: the
    float32 elements of one step, by default two of this CPU's vectors (``_PAIR``: 32 with AVX-512, 16 with AVX2;
    a float16 or bfloat16 array 32, as measured on both), or two AVX2 vectors (16) where torch keeps the kernel's
    AVX2 build also on AVX-512 CPUs (REGISTER_DISPATCH without ALSO_REGISTER_AVX512_DISPATCH: the pointwise loss
    backwards, softshrink).

    NOTE: above ``_GRAIN`` elements PyTorch's threads each take a range with its own tail, which depends on the
    thread count: those arrays take ``vec`` but for the last ``n % pair`` (the one-thread split)."""
    n = x.size
    if pair is None:
        pair = _PAIR if x.dtype == _F32 or x.dtype == np.float64 else 32
    if x.dtype == np.float64:  # a vector holds half as many doubles
        pair //= 2
    # an operand expanded from one value (a sum's incoming gradient, all strides 0) is TensorIterator's scalar
    more = tuple(np.asarray(a.flat[0]) if a.ndim and a.size and not any(a.strides) else a for a in more)
    if not more and x.flags.c_contiguous and n >= pair:  # NOTE: the common case, without the general bookkeeping
        flat = x.reshape(-1)  # (~2 us less a call: it matters for the small tensors of a training step)
        cut = n - n % pair
        out = np.empty(n, x.dtype)
        out[:cut] = vec(flat[:cut])
        if cut < n:
            out[cut:] = scalar(flat[cut:])
        return out.reshape(x.shape)
    arrays = (x, *more)
    shaped = [a for a in arrays if a.ndim]

    def part(a, index):
        return a if not a.ndim else a[index]
    order = "C" if all(a.flags.c_contiguous for a in shaped) else (
        "F" if all(a.flags.f_contiguous for a in shaped) else None)
    if order is None and n >= pair and (axes := _dense_order(shaped)) is not None:
        # NOTE: a permuted view of a whole tensor (attention's q after rearrange 'b n (h d) -> b h n d'):
        # TensorIterator sorts the dims by stride and coalesces them into one loop over memory, so it vectorises
        out = vector_loop(x.transpose(axes), vec, scalar, *(a.transpose(axes) if a.ndim else a for a in more),
                          pair=pair * 2 if x.dtype == np.float64 else pair)
        return out.transpose(np.argsort(axes))  # (the result in the operand's layout, as TensorIterator's)
    if order is None and n >= pair:
        d, inner = _contiguous_tail(shaped)
        if inner >= pair:  # rows contiguous but not adjacent (x[:, :40]): TensorIterator loops row by row
            rows = [a if not a.ndim else a.reshape(*a.shape[:d], inner) for a in arrays]
            cut = inner - inner % pair
            out = np.empty((*x.shape[:d], inner), x.dtype)
            out[..., :cut] = vec(*(part(r, np.s_[..., :cut]) for r in rows))
            if cut < inner:
                out[..., cut:] = scalar(*(part(r, np.s_[..., cut:]) for r in rows))
            return out.reshape(x.shape)
    if order is None or n < pair:  # NOTE: TensorIterator lays the result out as the operands (``x.t()``'s is ``.t()``)
        if order == "F":  # (a transposed matrix's: computed on the C-ordered transposes, no copy after)
            return np.asarray(scalar(*(a.T for a in arrays)), x.dtype).T
        res = np.asarray(scalar(*arrays), x.dtype)
        return res if res.ndim < 2 or order == "C" else laid_out_like_operands(res, *arrays)
    flats = [a if not a.ndim else (a.reshape(-1) if order == "C" else a.T.reshape(-1)) for a in arrays]
    cut = n - n % pair
    out = np.empty(n, x.dtype)
    out[:cut] = vec(*(part(f, np.s_[:cut]) for f in flats))
    out[cut:] = scalar(*(part(f, np.s_[cut:]) for f in flats))
    return out.reshape(x.shape) if order == "C" else out.reshape(x.T.shape).T


def _dense_order(arrays) -> list | None:
    """The dims of ``arrays`` (one shape and strides) from the largest stride to the smallest, where that order
    lays them out contiguously (a permutation of a C-contiguous layout), else None. (Not with a dim of size 1,
    whose stride in PyTorch's result ``empty_like`` infers otherwise.)"""
    x = arrays[0]
    if any(a.strides != x.strides for a in arrays[1:]) or 1 in x.shape:
        return None
    axes = sorted(range(x.ndim), key=lambda d: -x.strides[d])
    expected = x.itemsize
    for d in reversed(axes):
        if x.strides[d] != expected:
            return None
        expected *= x.shape[d]
    return axes


def _contiguous_tail(arrays) -> tuple:
    """``(d, inner)``: the trailing dims ``d:`` that are one contiguous run of ``inner`` elements in every array
    (what TensorIterator coalesces into its inner loop; dims of size 1 don't count)."""
    x = arrays[0]
    d, inner = x.ndim, 1
    while d > 0 and (x.shape[d - 1] == 1 or all(a.strides[d - 1] == a.itemsize * inner for a in arrays)):
        inner *= x.shape[d - 1]
        d -= 1
    return d, inner


_LN2_HI, _LN2_LO = _F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)
_LOG_POLY = (_F32(0.3027294874), _F32(0.3996108174), _F32(0.6666694880))


def logf_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``logf_u10`` (its source's ``xlogf_u1``, AVX-512 form) of a float32 NumPy array: what
    ``Vectorized<float>::log()`` gives, e.g. for the log of log_softmax's row sums. About 1 result in 200 is
    the other neighbour of the correctly rounded value.

    ``d = m 2^e`` with ``m`` in [0.75, 1.5); ``log d = e ln 2 + 2 atanh((m - 1) / (m + 1))`` in double-float
    (pairs of float32 carrying the rounding error), the division and the products with fused multiply-adds.
    Zeros, negatives, infinities, nan and subnormals take NumPy's log (what SLEEF gives there, but for
    subnormals, where it may differ in the last bit). An array of positive normals only (the usual case) takes
    ``_logf_normal``: the same steps in fewer NumPy calls."""
    d = np.asarray(d, _F32)
    if d.size and _MIN(d, axis=None) >= _TINY and _MAX(d, axis=None) < _NO_SCALED_OVERFLOW:  # (nan: False)
        return _logf_normal(d)
    with np.errstate(all="ignore"):
        scaled = d * _F32(1 / 0.75)
        _, ex = np.frexp(scaled)  # vgetexp(d / 0.75) is ex - 1, 128 past the top
        if not _MAX(scaled, axis=None, initial=0) < np.inf:  # (a NaN's exponent stays: it compares False)
            ex = np.where(scaled == np.inf, 129, ex)
        frac, _ = np.frexp(d)  # vgetmant(d) into [0.75, 1.5): frac in [0.5, 1), doubled below 0.75 (exact)
        m = np.where(frac < _F32(0.75), frac + frac, frac)
        at = ex + _LN2_E_AT  # (ln 2 hi, lo) * e: a function of the integer e alone, looked up (``_LN2_E``)
        sx, sy = _LN2_E[0].take(at), _LN2_E[1].take(at)
        # x = (m - 1) / (m + 1), a double-float division. NOTE: shortcuts, each checked over every m in [0.75, 1.5)
        # (nan, infinite and subnormal inputs are replaced at the end): m - 1 is exact (Sterbenz), so the two-sum of
        # -1 and m has no error part, (nx, 0), and SLEEF's fma(0, t, u) is u (never -0: fms's difference is +0 when
        # exact); 1 + m's error is Fast2Sum's (1's exponent is at least m's), three operations for TwoSum's six;
        # fms(t, nx, s) (a product's error) and fnma(dx, t, 1) (the reciprocal's residual) are exact in float32, so
        # their float64 values go on into the next fma without the round trip
        nx = m - _F32(1)
        dx = m + _F32(1)
        dy = m - (dx - _F32(1))
        t = _F32(1) / dx
        s = nx * t
        u = np.multiply(t, nx, dtype=_F64) - s
        v = _f32fnma(dy, t, _F64(1) - np.multiply(dx, t, dtype=_F64))
        xx, xy = s, (np.multiply(s, v, dtype=_F64) + u).astype(_F32)
        x2 = xx * xx
        poly = _f32fma(_f32fma(_LOG_POLY[0], x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        a, b = xx * 2, xy * 2  # s += 2 x, then s += x2 x poly
        s0 = sx + a
        s1 = (((sx - s0) + a) + sy) + b
        w = (x2 * xx) * poly
        r0 = s0 + w
        out = np.asarray(r0 + (((s0 - r0) + w) + s1))
        if not (_MIN(d, axis=None, initial=np.inf) >= _TINY and _MAX(d, axis=None, initial=0) < np.inf):  # (nan too)
            odd = ~((d >= _TINY) & (d < np.inf))
            out[odd] = np.log(d[odd])
    return out


_TINY = np.finfo(_F32).tiny
_NO_SCALED_OVERFLOW = _F32(2.0 ** 127)  # below this ``d / 0.75``, rounded, stays finite (with room to spare)
_R_075 = _F32(1 / 0.75)
_ALL_ONES = np.array(0xFFFFFFFF, np.uint32).view(_F32)


def log1pf_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``log1pf_u10`` (its source's ``xlog1pf``, AVX-512 form) of a float32 NumPy array: what
    ``Vectorized<float>::log1p()`` gives, e.g. in softplus and log_sigmoid. Not correctly rounded: about 1 result
    in 15 is the other neighbour of log1p(d).

    ``1 + d = m' 2^e`` with ``e`` the exponent of ``(1 + d) / 0.75``; ``m = d 2^-e + (2^-e - 1)`` (one fused
    multiply-add, without rounding ``1 + d``); ``log1p d = e ln 2 + 2 atanh(m / (2 + m))`` in double-float, as in
    ``logf_u10``. Above 1e38 it is ``logf_u10(d)``, below -1 nan, at -1 -inf, and -0 stays -0.

    Arrays of values in [2^-125, 1e38] (a loss's ``log1p(exp(-|x|))``) take ``_log1pf_plain``; those under 2^-36
    there (a logit beyond ~25) are d itself (``_SELF``'s NOTE); the rest ``_log1pf_general``."""
    d = np.asarray(d, _F32)
    if d.size:
        low, high = _MIN(d, None), _MAX(d, None)
        if low >= _PLAIN_LOW and high <= _PLAIN_HIGH:  # (nan: False)
            return _log1pf_plain(d)
        if low >= _SELF and high <= _PLAIN_HIGH:
            with np.errstate(all="ignore"):  # (the tiny values' steps underflow: their results are replaced)
                out = _log1pf_plain(d)
            tiny = d < _PLAIN_LOW
            out[tiny] = d[tiny]
            return out
    return _log1pf_general(d)


def _log1pf_general(d: np.ndarray) -> np.ndarray:
    """``log1pf_u10`` of any float32 array (its docstring), special values mended at the end."""
    with np.errstate(all="ignore"):
        scaled = (d + _F32(1)) * _R_075
        _, ex = np.frexp(scaled)
        e = (ex - 1).astype(_F32)  # vgetexp((1 + d) / 0.75), 128 past the top
        e = np.where(scaled == np.inf, _F32(128), e)
        t = np.ldexp(_F32(1), -(ex - 1)).astype(_F32)  # 2^-e
        m = _f32fma(d, t, t - _F32(1))
        sx = e * _LN2_HI
        sy = _f32fma(_LN2_LO, e, _f32fms(_LN2_HI, e, sx))
        dx, dy = _two_sum(_F32(2), m)  # x = m / (2 + m), a double-float division
        r = _F32(1) / dx
        q = m * r
        u = _f32fms(r, m, q)
        v = _f32fnma(dy, r, _f32fnma(dx, r, _F32(1)))
        xx, xy = q, _f32fma(q, v, u)
        x2 = xx * xx
        poly = _f32fma(_f32fma(_LOG_POLY[0], x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        a, b = xx * 2, xy * 2
        s0 = sx + a
        s1 = (((sx - s0) + a) + sy) + b
        w = (x2 * xx) * poly
        r0 = s0 + w
        out = np.asarray(r0 + (((s0 - r0) + w) + s1), _F32)
        if not (_MIN(d, axis=None, initial=np.inf) > -1 and _MAX(d, axis=None, initial=0) <= _F32(1e38)) or \
                (d == 0).any():  # (nan too)
            out = np.where(d > _F32(1e38), logf_u10(d), out)  # NOTE: (SLEEF 3.6 takes logf above 1e38, not inf)
            out = np.where(d < -1, _ALL_ONES, out)  # (SLEEF ors the mask in: a NaN with the sign bit set)
            out = np.where(d == -1, _F32(-np.inf), out)
            out = np.where((d == 0) & np.signbit(d), _F32(-0.0), out)
            out = np.where(np.isnan(d), d, out)
    return out


# NOTE: ``_log1pf_plain``'s inputs: positive values with no special case to mend, none so small that a step
# underflows (the cube of x = m / (2 + m) ~ d / 2 stays normal above 2^-36) or so large that 1 + d overflows
_PLAIN_LOW, _PLAIN_HIGH = _F32(2.0 ** -36), _F32(1e38)
# NOTE: from here up to 2^-36 log1pf is d itself: the general route gives each of those float32 back unchanged (all
# of them checked, 2026-12-07); below, half the subnormals and of [2^-126, 2^-125) it does not (m / 2 rounds there)
_SELF = _F32(2.0 ** -125)


def _pow2_neg_exponents():
    """``2^-e`` and ``2^-e - 1`` as ``log1pf_u10`` computes them in float32 (the second rounded there), for the
    exponents ``_LN2_E`` covers, in float64 (exactly): ``inf`` where float32 overflows (no exponent that
    ``_log1pf_plain`` meets)."""
    e = np.arange(_E_FIRST, 200)
    with np.errstate(over="ignore"):
        t = np.ldexp(_F32(1), -e).astype(_F32)
        return np.stack([t, t - _F32(1)]).astype(_F64)




# NOTE: float32 fused multiply-adds as one float64 multiply-add rounded once more (the product of two float32
# values is exact in float64): ``fma`` a b + c, ``fms`` a b - c, ``fnma`` c - a b (SLEEF's fma of -a, b, c).
def _f32fma(a, b, c):
    return (np.multiply(a, b, dtype=_F64) + c).astype(_F32)


def _f32fms(a, b, c):
    return (np.multiply(a, b, dtype=_F64) - c).astype(_F32)


def _f32fnma(a, b, c):
    return (c - np.multiply(a, b, dtype=_F64)).astype(_F32)


def _two_sum(x, y):
    """``(s, err)`` with ``s + err == x + y`` exactly (float32)."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


# ----- tanhf_u10: double-float (pairs of float32) arithmetic, as SLEEF's df.h computes it with fused multiply-adds

def _df_add2(xx, xy, yx, yy=None):
    """``dfadd2``: (xx, xy) + (yx, yy), the sum's rounding error kept whatever the operands' sizes."""
    s = xx + yx
    v = s - xx
    err = (xx - (s - v)) + (yx - v)
    return s, err + xy if yy is None else err + (xy + yy)


def _df_add(xx, xy, yx, yy):
    """``dfadd`` of two pairs, for |x| >= |y|."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _df_mul(xx, xy, yx, yy=None):
    """(xx, xy) (yx, yy), or times the float ``yx`` when ``yy`` is None."""
    s = xx * yx
    if yy is None:
        return s, _f32fma(xy, yx, _f32fms(xx, yx, s))
    return s, _f32fma(xx, yy, _f32fma(xy, yx, _f32fms(xx, yx, s)))


def _df_div(nx, ny, dx, dy):
    t = _F32(1) / dx
    s = nx * t
    return s, _f32fma(s, _f32fnma(dy, t, _f32fnma(dx, t, _F32(1))), _f32fma(ny, t, _f32fms(t, nx, s)))


_EXPK2_POLY = [_F32(c) for c in (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1)]


def _expk2f(dx):
    """SLEEF's ``expk2f`` of (dx, 0): exp as a double-float pair, for dx >= 0 (tanh's |x|)."""
    q = np.rint(dx * _R_LN2).astype(np.int32)
    qf = q.astype(_F32)
    sx, sy = _df_add2(dx, _F32(0), qf * -_L2U)
    sx, sy = _df_add2(sx, sy, qf * -_L2L)
    u = _EXPK2_POLY[0]
    for c in _EXPK2_POLY[1:]:
        u = _f32fma(u, sx, c)
    tx, ty = _df_add2(*_df_mul(sx, sy, u), _F32(0.166666659414234244790680580464))
    tx, ty = _df_add2(*_df_mul(sx, sy, tx, ty), _F32(0.5))
    square = sx * sx, _f32fma(sx + sx, sy, _f32fms(sx, sx, sx * sx))
    tx, ty = _df_add2(sx, sy, *_df_mul(*square, tx, ty))
    one = _F32(1)
    tx, ty = one + tx, ((one - (one + tx)) + tx) + ty  # dfadd(1, t)
    h = q >> 1  # vldexp2: two steps, so that 2^q may overflow a float32 exponent in between
    scale = np.ldexp(_F32(1), h).astype(_F32), np.ldexp(_F32(1), q - h).astype(_F32)
    return tx * scale[0] * scale[1], ty * scale[0] * scale[1]


def tanhf_u10(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanhf_u10`` (its source's ``xtanhf``) of a float32 NumPy array: what ``Vectorized<float>::tanh()``
    gives inside kernels such as mish's (``torch.tanh`` itself rounds otherwise). ``(e - 1/e) / (e + 1/e)`` with
    ``e = exp|x|`` in double-float, 1 beyond 8.664339742, the sign of x; a NaN comes out with all bits set."""
    x = np.asarray(x, _F32)
    with np.errstate(all="ignore"):
        y = np.abs(x)
        dx, dy = _expk2f(y)
        rx = _F32(1) / dx  # dfrec(d)
        ry = rx * _f32fnma(dy, rx, _f32fnma(dx, rx, _F32(1)))
        qx, qy = _df_div(*_df_add(dx, dy, -rx, -ry), *_df_add(dx, dy, rx, ry))
        r = qx + qy
        r = np.where((y > _F32(8.664339742)) | np.isnan(r), _F32(1), r)
        r = np.copysign(r, x).astype(_F32)
    return np.where(np.isnan(x), _ALL_ONES, r)


def _ln2_times_exponents():
    """``logf_u10``'s ``(sx, sy)``, SLEEF's double-float ``e ln 2`` (``e * ln2_hi`` rounded, and ``fma(ln2_lo, e,
    fms(ln2_hi, e, sx))``), for every exponent ``e`` from ``_E_FIRST`` to 199 (float32's ``vgetexp`` gives -150 to
    128), at index ``e - _E_FIRST``: computed once by those float32 steps, so a lookup gives the same bits."""
    e = np.arange(_E_FIRST, 200).astype(_F32)
    sx = e * _LN2_HI
    return np.stack([sx, _f32fma(_LN2_LO, e, _f32fms(_LN2_HI, e, sx))])


_E_FIRST = -199
_LN2_E = _ln2_times_exponents()
_LN2_E_AT = -1 - _E_FIRST  # ``frexp``'s exponent (e + 1) plus this indexes ``_LN2_E``
_POW2_NEG_E = _pow2_neg_exponents()

# NOTE: (at the end: it reads this module's tables when first called) the plain values' route, in few NumPy calls
from core._sleef_logf import log1pf_plain as _log1pf_plain  # noqa: E402
from core._sleef_logf import logf_normal as _logf_normal  # noqa: E402
