"""PyTorch's float32 ``sqrt``, ``exp`` and ``log`` as MKL's vector math computes them on an AMD CPU: the same
steps in NumPy, bit for bit.

torch 2.13's float32 ``sqrt``, ``exp`` and ``log`` (any size from one element, any layout, in place or not: ATen's
``vml::vsqrt``/``vexp``/``vlog``) are MKL's ``vmsSqrt``/``vmsExp``/``vmsLn`` with ``VML_HA``, whose kernels MKL
picks by CPU. On an AMD CPU it runs its SSE kernels (``mkl_vml_kernel_sSqrt_EXHAynn`` and its siblings in
libtorch_cpu, read with objdump and checked by calling them), which are not correctly rounded: about 17% of the
square roots, 1% of the exps and 8% of the logs are an ulp from the correctly rounded value core computes
elsewhere (``core._precise``). Each function below runs the kernel's steps in float32, each rounded (no fused
multiply-adds), on inputs of its fast path; the rest (zero, subnormals, negatives, inf, NaN, overflowing ranges)
take MKL's scalar path, correctly rounded, as core's own functions are. Measured against torch 2.13 on an AMD
EPYC Zen 4 (2026-12-06), bit for bit on every positive normal float32 (sqrt) and on whole binades and random bit
patterns (exp, log).

- ``sqrt`` (where ``core._cpu.mkl_vml_sse_sqrt()`` holds) for x in [2^-126, 0x7f7ff000 as bits]::

    r = rsqrtps(x)                    # the CPU's 12-bit estimate of 1/sqrt(x)
    y = x * r;  h = r * 0.5
    e = 0.5 - y * h
    y = y * e + y;  h = h * e + h
    sqrt = (x - y * y) * h + y

  ``rsqrtps`` is not specified to the bit, each CPU design has its own table; AMD Zen 4's depends on the
  exponent's parity and the top 12 mantissa bits only and has 12 mantissa bits. ``_RSQRTPS`` holds its 8192
  results for x in [1, 4), packed (``tools/gen_rsqrtps_table.py`` measures them and prints the string; they were
  checked against the instruction on every positive normal float32, scaled by 2^-k for x = 4^k x0);
- ``exp`` (where ``core._cpu.mkl_vml_sse()`` holds) for |x| <= 87.33654: ``t = x * 128/ln2 + 1.5 * 2^23``,
  ``n = t - 1.5 * 2^23``, ``r = (x - n * L1) + n * L2`` (``L1 - L2 = ln2 / 128``), ``p = r * r * 0.5 + r``, then
  ``((p * A_j + B_j) + A_j) * 2^k`` with j and k the low 7 and next bits of t's integer, A_j = 2^(j/128) rounded to
  float32 and B_j the rest, rounded;
- ``log`` (where ``core._cpu.mkl_vml_sse()`` holds) for positive normal x: x = 2^k m with m in [2/3, 4/3),
  ``f = m - 1``, a degree-10 polynomial ``((C9 - C8 f) f + P1) f ... + P7) f f + f`` in Horner's order, then
  ``k * LN2_HI + (k * LN2_LO + poly)``. The reduction, the polynomial's nine coefficients and ln2's two parts are
  the ones Intel publishes under the MIT licence in its graphics compiler's OpenCL builtins
  (intel/intel-graphics-compiler, ``IGC/BiFModule``, ``__spirv_ocl_log`` of a float), where they are evaluated
  with fused multiply-adds; MKL's SSE kernel rounds each step.

Float64 ``exp`` (``vexp64``, where ``core._cpu.mkl_vml_sse()`` holds; 2026-12-06): torch's is MKL's
``vmdExp`` with ``VML_HA``, on this AMD EPYC Zen 4 its SSE kernel ``mkl_vml_kernel_dExp_EXHAynn`` (E2 gives the
same bits; L9 differs in 0.07% of 100k inputs in [-20, 20], Z0 in 4.5%, as NumPy's exp, which core took before).
Tang's table method with 64 entries, each step a rounded double operation (no fused multiply-adds), for |x|
whose high 32 bits are at most 0x4086232A (|x| < 708.3964)::

    t = x * (64/ln2) + 1.5 * 2^52;  n = t - 1.5 * 2^52       # n = round(x * 64/ln2)
    r = (x - n * L1) - n * L2                                # L1 + L2 = ln2/64, L1's last 16 bits zero
    p = ((((P4 r + P3) r + P2) r + P1) (r r)) + r
    exp = ((p * T_j + t_j) + T_j) * 2^k                      # j, k: t's low 6 bits and the ones above

T_j + t_j = 2^(j/64) (each rounded, computed with ``decimal``); the 2^k by adding k to the result's exponent
field. P1, P2 and P3 are the bits of Coq.Interval's ``ExpImpl`` (``src/Interval/Float_full_primfloat.v``, CeCILL-C,
its q2..q4); its q5 is P4 but for P4's last 6 bits (0x...54c8 for MKL's 0x...549b), which changes p by under
2^-80: no sampled result differed from the kernel's (1M uniform inputs in each of [-20, 20], [-708, 708], [-1e-3,
1e-3], [-800, 800], 2M random bit patterns). Elsewhere (|x| >= 708.3964, inf, NaN) the kernel's scalar path gave
NumPy's exp on every sample. Cost (1M elements): ~9 ms, NumPy's exp 0.8 ms.

Float64 ``sqrt`` (``vsqrt64``, where ``core._cpu.mkl_vml_sse_sqrt()`` holds; 2026-12-06): torch's is MKL's ``vmdSqrt``
with ``VML_HA``, on this AMD EPYC Zen 4 its SSE kernel ``mkl_vml_kernel_dSqrt_EXHAynn`` (H8 gives the same bits; L9,
with fused multiply-adds, differs just below even powers of 4, e.g. sqrt(4 - 2^-50); Z0 in 1.8% of inputs; NumPy's
correctly rounded sqrt, which core took before, in 1.3%). For x in [2^-1022, 2^1022), written x = 4^k x' with x'
in [1, 4) (the steps are the same for every k: only x's mantissa and exponent parity matter)::

    y = rsqrtps(x' truncated to float32)       # Zen 4's 13-bit estimate of 1/sqrt (``_table``), exact in double
    x' = H + L                                 # H: x's top 26 bits, so H y, L y, H y^2, L y^2 are exact
    e = (1 - H y^2) - L y^2                    # 1 - x' y^2 rounded once (the first subtraction is exact)
    q = x' (y (e (((C4 e + C3) e + C2) e + C1)))   # C1..C4 ~ 1/2, 3/8, 5/16, 35/128: (1 - e)^(-1/2) = 1 + e P(e)
    sqrt = (H y + (L y + q)) * 2^k

each step a rounded double operation. Elsewhere (zero, subnormals, negatives, x >= 2^1022, inf, NaN) the kernel's
scalar path gave NumPy's sqrt on every sample. Bit for bit on 3.1M samples (uniform, log-uniform, random bit patterns,
the binades at both ends, the 300000 floats below 4). Cost: ~25 ms per 1M elements (NumPy's sqrt ~3 ms), ~35 us for
100 (about twice the float32 steps').

How they were found (2026-12-06, for the functions still missing): libtorch_cpu exports every MKL kernel
(``nm -D``: ``mkl_vml_kernel_s<Op>_<arch><accuracy>``, arch E2/EX/H8 the SSE ones, L9 AVX2, Z0 AVX-512); called
through ctypes as ``f(n, in, out)`` each gives its own bits, and on this AMD CPU torch's ``exp``, ``log``,
``sqrt`` and ``erf`` equal the EX kernels' and not the L9/Z0 ones' (``sin``/``cos``: every kernel gives torch's
bits, and core's correctly rounded ones differ in ~5%; ``erf``'s EX kernel is a table-driven float32 one, not done).
``objdump -d`` of the EX kernel's main loop gives the steps and the addresses of its constants.
"""

from __future__ import annotations

import base64
import contextlib
import decimal
import functools
import zlib

import numpy as np

from core import _cpu
from core._precise import precise

__all__ = ["vsqrt", "vsqrt64", "vexp", "vexp64", "vlog", "sqrt", "exp", "log"]

# tools/gen_rsqrtps_table.py on an AMD EPYC Zen 4: the first mantissa of rsqrtps over [1, 2) and over [2, 4), then
# each half's successive drops, compressed
_FIRST = (4095, 1696)
_RSQRTPS = (
    "eNrdlgkOwzAIBBf+/+hKvRx8UQrGbptGZLKDI1mRAtH9h0chpjkT+Xxy+l5GJ7/e44n7Sb67wp6jXKNhVvLVjGC/n4udEcxKvpoR7Nc5F7r+h2z1"
    "dzM0v5jdujrH4n61Pq/l/nzPCPaj846PpkyYjX42w+qTPEhhHJa7ffzXgW/7qv2og1Fu9bNz1bc0d5ic/bv5jfV2DBhGP3q9aB/izuv9KJyd7/CN"
    "LS7Ofp7OMvPW09bT+02DNSs5ggd5BPtNLkbi8oUYMRt9K2Nx/yh/FTaOnnzwKGxj8UW8hlNGcJ7t48/GWVhzZZDw5l4/ur/hzWMokvsnfmccXJ9n"
    "+21/4KzyAxVoX3w5F84ZRt/aj+T1cNh6Xt+8XuDav8h1hsXPRnJ/tJ+9XnTe+s/rwanl2f5p/ac/Tztv4CUP/w==")

_U32 = np.uint32
_F32 = np.dtype(np.float32)
_BLOCK = 16384  # elements per step: the temporaries stay in cache
_SSE_SQRT = _cpu.mkl_vml_sse_sqrt()
_SSE = _cpu.mkl_vml_sse()


def _f32(bits: int) -> np.ndarray:
    """The float32 with these bits, as a 0-d array (the fastest scalar operand of a ufunc)."""
    return np.array(bits, _U32).view(np.float32)


def blockwise(x: np.ndarray, steps, *args, block: int = _BLOCK) -> np.ndarray:
    """``steps(block, out_block, *args)`` over ``x`` in C order, ``block`` elements at a time (the temporaries stay
    in cache); a new C-ordered array of ``x``'s shape and dtype. Every vector kernel here and in its siblings
    (``core._mkl_trig``, ``_mkl_erf``, ``_mkl_asin``, ``_mkl_atan``, ``_mkl_tanh``) runs its steps so.

    NOTE: a C-contiguous array of one block (a small layer's activations, twice a training step) goes to the steps
    without the flatten and reshape (~1 us a call)."""
    if x.flags.c_contiguous and 0 < x.size <= block:
        out = np.empty(x.shape, x.dtype)
        steps(x.reshape(-1), out.reshape(-1), *args)
        return out
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty(flat.size, flat.dtype)
    if flat.size <= block:  # (one block: no slicing)
        if flat.size:
            steps(flat, out, *args)
        return out.reshape(x.shape)
    for i in range(0, flat.size, block):
        steps(flat[i:i + block], out[i:i + block], *args)
    return out.reshape(x.shape)


def _quiet(fast: bool):
    """No context on the fast path (it raises no floating-point error); else one that ignores the garbage lanes'."""
    return contextlib.nullcontext() if fast else np.errstate(all="ignore")


def _mend(x: np.ndarray, out: np.ndarray, off: np.ndarray, f) -> None:
    """MKL's scalar path where ``off``: ``f`` computed in float64 and rounded once (``core._precise``)."""
    if off.any():
        out[off] = precise(f, x[off])


# -- sqrt

_HALF = _f32(0x3F000000)
_LOW, _TOP = 0x00800000, 0x7F7FF000  # MKL's vector steps take x whose bits lie in [_LOW, _TOP]
# x's bits >> 11 (its exponent and top 12 mantissa bits) in [_KEY_LOW, _KEY_TOP]: every x of the key takes the
# vector steps (the key of _TOP holds larger x too)
_KEY_LOW, _KEY_TOP = _LOW >> 11, (_TOP >> 11) - 1


@functools.cache
def _table() -> np.ndarray:
    """rsqrtps of every positive float32 whose bits >> 11 are the index (float32; 4 MiB, built on first use): the
    8192 results over [1, 4) scaled by 2^-k for x = 4^k x0. Keys outside the vector steps' range hold 0."""
    drops = np.frombuffer(zlib.decompress(base64.b64decode(_RSQRTPS)), np.uint8).astype(np.int64)
    low = _FIRST[0] - np.concatenate([[0], np.cumsum(drops[:4095])])   # x in [1, 2)
    high = _FIRST[1] - np.concatenate([[0], np.cumsum(drops[4095:])])  # x in [2, 4)
    cells = (126 << 23) + (np.concatenate([low, high]) << 11)         # the estimate's exponent is -1 there
    key = np.arange(1 << 20, dtype=np.int64)
    exponent = (key >> 12) - 127                                       # x = 2^exponent * 1.m
    bits = cells[(exponent & 1) << 12 | (key & 0xFFF)] - ((exponent >> 1) << 23)
    return np.where((key >= _KEY_LOW) & (key <= _TOP >> 11), bits, 0).astype(_U32).view(np.float32)


@functools.cache
def _vector_table() -> np.ndarray:
    """``_table()`` with the cell of ``_TOP``'s key zeroed too: every x whose estimate here is nonzero takes the
    vector steps (that key's one such x, ``_TOP`` itself, gets its estimate back on the slow path)."""
    table = _table().copy()
    table[_TOP >> 11] = 0
    return table


_COUNT_BELOW = 2048  # elements under which np.count_nonzero finds a zero faster than a min reduction


def _sqrt_arith(x: np.ndarray, r: np.ndarray, out: np.ndarray) -> None:
    """The vector steps (module docstring) from the estimates ``r`` (overwritten) into ``out``."""
    y = x * r
    r *= _HALF                 # h
    e = y * r
    np.subtract(_HALF, e, out=e)
    t = y * e
    y += t                     # y1 = y * e + y
    np.multiply(r, e, out=t)
    r += t                     # h1 = h * e + h
    np.multiply(y, y, out=t)
    np.subtract(x, t, out=t)   # x - y1 * y1
    t *= r
    np.add(t, y, out=out)


def _sqrt_steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's vector sqrt (module docstring) of float32 ``x`` into ``out``; NumPy's sqrt outside its range.

    NOTE: one test of the estimates decides the route (a zero cell: x outside [_LOW, _TOP), or a key past the
    table, clipped to its last, zero cell: negative x), where two min/max reductions of the keys did."""
    r = _vector_table().take(np.right_shift(x.view(_U32), 11), mode="clip")
    if (np.count_nonzero(r) == r.size) if r.size < _COUNT_BELOW else r.min() > 0:
        _sqrt_arith(x, r, out)
        return
    top = x.view(_U32) == _U32(_TOP)
    if top.any():
        r[top] = _table()[_TOP >> 11]
    off = r == 0               # (x outside [_LOW, _TOP])
    with np.errstate(all="ignore"):
        _sqrt_arith(x, r, out)
    if off.any():
        out[off] = np.sqrt(x[off])


def vsqrt(x: np.ndarray) -> np.ndarray:
    """MKL's float32 vector sqrt on AMD Zen 4 of a float32 NumPy array (module docstring), C-ordered."""
    return blockwise(x, _sqrt_steps)


# -- exp

_EXP_TOP = _f32(0x42AEAC4F)                              # 87.33654: larger |x| take the scalar path
_LOG2E_128, _SHIFT = _f32(0x4338AA3B), _f32(0x4B400000)  # 128 / ln2; 1.5 * 2^23
_LN2_128_HI, _LN2_128_LO = _f32(0x3BB18000), _f32(0x35DE8083)  # hi - lo = ln2 / 128
_ONE_BITS = _U32(0x3F800000)


@functools.cache
def _exp_table() -> tuple[np.ndarray, np.ndarray]:
    """A_j = 2^(j/128) rounded to float32 and B_j = 2^(j/128) - A_j rounded, j = 0..127 (exact to 60 digits)."""
    decimal.getcontext().prec = 60
    ln2 = decimal.Decimal(2).ln()
    exact = [(ln2 * j / 128).exp() for j in range(128)]
    high = np.array([float(e) for e in exact]).astype(np.float32)
    low = np.array([float(e - decimal.Decimal(float(h))) for e, h in zip(exact, high)]).astype(np.float32)
    return high, low


def _exp_steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's vector exp (module docstring) of float32 ``x`` into ``out``; correctly rounded outside its range."""
    high, low = _exp_table()
    fast = x.min() >= -_EXP_TOP and x.max() <= _EXP_TOP  # (a NaN fails both)
    with _quiet(fast):
        t = x * _LOG2E_128
        t += _SHIFT
        n = t - _SHIFT
        r = n * _LN2_128_HI
        np.subtract(x, r, out=r)
        n *= _LN2_128_LO
        r += n
        p = r * r
        p *= _HALF
        p += r
        bits = t.view(_U32)
        j = bits & _U32(127)
        a = high.take(j)
        p *= a
        p += low.take(j)
        p += a
        bits <<= _U32(16)
        bits += _ONE_BITS
        bits &= _U32(0x7F800000)   # 2^k
        np.multiply(p, t, out=out)
    if not fast:
        _mend(x, out, np.abs(x) > _EXP_TOP, np.exp)


def vexp(x: np.ndarray) -> np.ndarray:
    """MKL's float32 vector exp on an AMD CPU of a float32 NumPy array (module docstring), C-ordered."""
    return blockwise(x, _exp_steps)


# -- log

_TWO_THIRDS_BITS = _U32(0x3F2AAAAB)
_ONE = _f32(0x3F800000)
_C8, _C9 = _f32(0x3E0402C8), _f32(0x3E0F335D)
_POLY = tuple(_f32(b) for b in (0xBDF9889E, 0x3E0F6B8C, 0xBE2ACEE6, 0x3E4CE814, 0xBE7FFF78, 0x3EAAAA83, 0xBF000000))
_LN2_HI, _LN2_LO = _f32(0x3F317200), _f32(0x35BFBE8E)
_MIN_NORMAL, _MAX = _f32(0x00800000), _f32(0x7F7FFFFF)


def _log_steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's vector log (module docstring) of float32 ``x`` into ``out``; correctly rounded outside its range."""
    fast = x.min() >= _MIN_NORMAL and x.max() <= _MAX  # (a NaN fails both)
    with _quiet(fast):
        u = x.view(_U32) - _TWO_THIRDS_BITS
        f = u & _U32(0x7FFFFF)
        f += _TWO_THIRDS_BITS
        f = f.view(np.float32)      # m in [2/3, 4/3)
        f -= _ONE
        p = f * _C8
        np.subtract(_C9, p, out=p)
        for c in _POLY:
            p *= f
            p += c
        p *= f
        p *= f
        p += f
        u = u.view(np.int32)
        u >>= 23
        k = u.astype(np.float32)
        u = u.view(np.float32)
        np.multiply(k, _LN2_LO, out=u)
        p += u
        k *= _LN2_HI
        np.add(k, p, out=out)
    if not fast:
        _mend(x, out, (x.view(_U32) - _U32(0x00800000)) >= _U32(0x7F000000), np.log)


def vlog(x: np.ndarray) -> np.ndarray:
    """MKL's float32 vector log on an AMD CPU of a float32 NumPy array (module docstring), C-ordered."""
    return blockwise(x, _log_steps)


# -- float64 exp

_F64 = np.dtype(np.float64)
_U64 = np.uint64
_D_BLOCK = 8192  # float64 elements per step
_D_SHIFT = 1.5 * 2.0 ** 52
_D_TOP = _U64(0x4086232A)  # |x|'s high 32 bits above this (|x| >= 708.3964..., inf, NaN): the scalar path
_D_BOUND = float(np.array(0x4086232B00000000, _U64).view(_F64))  # the least |x| above _D_TOP
# (MKL's P1..P4 but P4's last 6 bits: Coq.Interval's src/Interval/Float_full_primfloat.v, CeCILL-C; module docstring)
_D_POLY = tuple(float.fromhex(h) for h in ("0x1.111112d9f54c8p-7", "0x1.555573f218b93p-5", "0x1.555555555653ep-3",
                                            "0x1.fffffffffdb3bp-2"))


@functools.cache
def _dexp_constants() -> tuple[float, float, float, np.ndarray, np.ndarray]:
    """64/ln2; ln2/64 split into L1 (rounded, the low 16 bits of its 52 cleared: n * L1 is exact) and L2 = ln2/64
    - L1; T_j = 2^(j/64) rounded and t_j = 2^(j/64) - T_j rounded, j = 0..63 (``decimal``, 80 digits)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 80
        ln2 = decimal.Decimal(2).ln()
        inv = float(64 / ln2)
        l1 = float(np.array(int(np.array(float(ln2 / 64)).view(_U64)) & 0xFFFFFFFFFFFF0000, _U64).view(_F64))
        l2 = float(ln2 / 64 - decimal.Decimal(l1))
        exact = [(ln2 * j / 64).exp() for j in range(64)]
        high = np.array([float(e) for e in exact])
        low = np.array([float(e - decimal.Decimal(float(h))) for e, h in zip(exact, high)])
    return inv, l1, l2, high, low


def _dexp_steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's SSE float64 vector exp (module docstring) of float64 ``x`` into ``out``; NumPy's on its scalar path."""
    inv, l1, l2, high, low = _dexp_constants()
    p4, p3, p2, p1 = _D_POLY
    fast = x.min() > -_D_BOUND and x.max() < _D_BOUND  # (|x|'s high 32 bits <= _D_TOP; a NaN fails both)
    with _quiet(fast):
        t = x * inv
        t += _D_SHIFT
        n = t - _D_SHIFT
        r = n * l1
        np.subtract(x, r, out=r)
        n *= l2
        r -= n                       # r = (x - n L1) - n L2
        p = r * p4
        p += p3
        p *= r
        p += p2
        p *= r
        p += p1
        np.multiply(r, r, out=n)
        p *= n
        p += r                       # r + r^2 (P1 + r (P2 + r (P3 + r P4)))
        bits = t.view(_U64)
        j = t.view(np.int64) & 63  # (int64: take's own index type, no conversion)
        a = high.take(j)
        p *= a
        p += low.take(j)
        p += a                       # (p T_j + t_j) + T_j
        bits <<= _U64(46)
        bits &= _U64(0xFFF0000000000000)
        np.add(p.view(_U64), bits, out=out.view(_U64))  # times 2^k: k added to the exponent field
    if not fast:
        off = ((x.view(_U64) >> _U64(32)) & _U64(0x7FFFFFFF)) > _D_TOP
        out[off] = np.exp(x[off])


def vexp64(x: np.ndarray) -> np.ndarray:
    """MKL's float64 vector exp on an AMD CPU of a float64 NumPy array (module docstring), C-ordered."""
    return blockwise(x, _dexp_steps, block=_D_BLOCK)


# -- float64 sqrt

_DS_LOW, _DS_TOP = 0x0010000000000000, 0x7FD0000000000000  # x's bits in [_DS_LOW, _DS_TOP): the vector steps
# 35/128, 5/16, 3/8 and 1/2, each a few ulps off (MKL's): the series of (1 - e)^(-1/2) - 1 over e
_DS_POLY = tuple(float.fromhex(h) for h in ("0x1.1800032338cbbp-2", "0x1.40000b13001d9p-2", "0x1.80000000000f6p-2",
                                            "0x1.ffffffffffe71p-2"))


@functools.cache
def _dsqrt_table() -> np.ndarray:
    """rsqrtps of the float32s of [1, 4) by their bits >> 11 (8192 cells of ``_table``), as float64."""
    return _table()[0x3F800000 >> 11:0x40800000 >> 11].astype(_F64)


def _dsqrt_steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's float64 vector sqrt (module docstring) of float64 ``x`` into ``out``; NumPy's sqrt off its range."""
    c4, c3, c2, c1 = _DS_POLY
    bits = x.view(np.int64)
    fast = bool((x.view(_U64) - _U64(_DS_LOW)).max() < _U64(_DS_TOP - _DS_LOW))
    scaled = bits & 0x001FFFFFFFFFFFFF                          # x = 4^k x', x' in [1, 4): the mantissa, and
    scaled ^= 1 << 52                                            # the exponent 0 where x's biased exponent is odd,
    scaled += 1023 << 52                                         # else 1
    y = _dsqrt_table().take((scaled >> 40) - (1023 << 12))        # rsqrtps(x' as a float32): 13 bits
    xs = scaled.view(_F64)
    high = (scaled & -(1 << 27)).view(_F64)                      # x' = high + low, 26 and 27 bits: exact products
    low = xs - high
    yy = y * y
    e = high * yy
    np.subtract(1.0, e, out=e)                                   # exact (Sterbenz)
    yy *= low
    e -= yy                                                      # 1 - x' y^2, rounded once
    q = e * c4
    q += c3
    q *= e
    q += c2
    q *= e
    q += c1
    q *= e
    q *= y
    q *= xs                                                      # x' (y (e P(e)))
    low *= y
    q += low
    high *= y
    np.add(high, q, out=out)                                     # x'_high y + (x'_low y + q)
    bits = bits - scaled
    bits >>= 1                                                   # k << 52
    out.view(np.int64)[...] += bits                              # times 2^k
    if not fast:
        off = (x.view(_U64) - _U64(_DS_LOW)) >= _U64(_DS_TOP - _DS_LOW)
        with np.errstate(all="ignore"):
            out[off] = np.sqrt(x[off])


def vsqrt64(x: np.ndarray) -> np.ndarray:
    """MKL's float64 vector sqrt on AMD Zen 4 of a float64 NumPy array (module docstring), C-ordered.

    NOTE: Adam's and RMSprop's float64 steps take it on every parameter, every step."""
    return blockwise(x, _dsqrt_steps, block=_D_BLOCK)


# -- what core's ops call

def sqrt(xp, x):
    """torch's ``sqrt`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse_sqrt()`` holds and ``x`` is a
    float32 or float64 NumPy array, else ``xp.sqrt``."""
    if _SSE_SQRT and type(x) is np.ndarray:
        if x.dtype is _F32:
            return vsqrt(x)
        if x.dtype is _F64:
            return vsqrt64(x)
    return xp.sqrt(x)


def exp(xp, x):
    """torch's ``exp`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse()`` holds and ``x`` is a float32
    NumPy array, else ``core._precise``'s correctly rounded one."""
    if _SSE and type(x) is np.ndarray:
        if x.dtype is _F32:
            return vexp(x)
        if x.dtype is _F64:
            return vexp64(x)
    return precise(xp.exp, x)


def log(xp, x):
    """torch's ``log`` of a backend array: as ``exp``."""
    if _SSE and x.dtype is _F32 and type(x) is np.ndarray:
        return vlog(x)
    return precise(xp.log, x)
