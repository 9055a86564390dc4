"""GELU (erf form) of a contiguous float32 CPU tensor as PyTorch computes it: through oneDNN's ``eltwise_gelu_erf``.

PyTorch hands a contiguous float32 input of more than one element to oneDNN, whose AVX-512 kernel does not call erf
(below AVX-512, e.g. AVX2, oneDNN takes the derivative's erf below, then ``fma(erf, x / 2, x / 2)``):
it evaluates ``1 + erf(x / sqrt 2)`` as a degree-5 minimax polynomial in ``|x|``, one of 25 picked by the exponent
and top two mantissa bits of ``|x|`` (``(bits + 0xc21fffff) >> 21``, clamped to 1..24; past ``rbound`` ~5.54 the
constant 1), evaluated with fused multiply-adds, its sign flipped for negative x, then ``(x * (1 + p)) * 0.5``.
The coefficients below are oneDNN's (Apache-2.0), as float32 bit patterns per degree, indexed by that number.
Each fma is one float64 multiply-add rounded to float32 (a product of float32 values is exact in float64).

The backward (``gelu_erf_grad_f32``, the derivative the incoming gradient is multiplied by) is oneDNN's other
formula: Abramowitz and Stegun's erf (``1 - t * r(t) * exp(-u^2)``, ``t = 1 / (1 + p |u|)``, ``u = x / sqrt 2``) with
oneDNN's own exp (a Cody-Waite reduction by ln 2, a degree-5 polynomial, ``2 * 2^(n-1)``), then
``0.5 + u exp(-u^2) / sqrt(pi) + 0.5 erf(u)``.
"""

from __future__ import annotations

import numpy as np

from core import _cpu

__all__ = ["gelu_erf_onednn_f32", "gelu_erf_f32", "gelu_erf_as_f32", "gelu_erf_grad_f32"]

_DEGREES = (  # degree 0 .. 5, entries 0 .. 24
    "a6f2cb94 32827792 3381cc0c 34523d4a 351ac44d 35f36d88 36ee8229 37b8a3bb 3867a213 3940033b 3a2a5a1d 3ae35863 "
    "3b7828f2 3c08b14b 3c515ed3 bb503236 bd8d8e5e be8abcd9 bf0c19a2 beccb328 3e176ced 3f470d99 3f7abb28 3f800000 0",
    "3f4c422a 3f4c421f 3f4c4207 3f4c41cb 3f4c413b 3f4c3fad 3f4c3a2f 3f4c2d40 3f4c146a 3f4bc341 3f4ad08c 3f48f8cf "
    "3f45fac7 3f404e07 3f3b980f 3f48dff3 3f78b21b 3fbb0704 40019c32 3fe536d6 3f81331e 3e6c8684 3c98f936 0 3f800000",
    "b62173f4 3735e4cf 37f2ff89 388c23be 3917535c 39ab2ab0 3a60fadb 3af9b960 3b6e5491 3c0a4ec5 3ca5aa8c 3d2138d9 "
    "3d8737d4 3ddfb660 3e0f27ab 3d94004b be0efdeb bf1d96c3 bf89db58 bf6d9897 bef69fb8 bdc4f8a8 bbde6422 0 0",
    "be081a19 be084570 be08639b be089837 be08f409 be09ab95 be0b66d0 be0e400a be124df8 be1bde02 be2f19c9 be4931bf "
    "be685fbc be89c95f be96cbca be8044aa be0550f2 3dcfd6a1 3e94c826 3e79345f 3decec91 3ca46568 3aa1e00a 0 0",
    "ba3d61db 39f097a3 3a5845dc 3ab1fa35 3b0cefb8 3b653ab6 3bcae527 3c221712 3c6c5840 3cc0a703 3d1dcc19 3d63656d "
    "3d955907 3dbf9910 3dd53f69 3db7dcef 3d639ebe ba6ede48 bd22be69 bd041cf1 bc64f5ab bb097a32 b8ebf380 0 0",
    "3cb7d80c 3c9b6050 3c978d11 3c92e850 3c8d058b 3c848454 3c6cd623 3c4c824b 3c2a7935 3be0b390 3b0651ac bb232f53 "
    "bbd42fa0 bc2c5366 bc492c9e bc2a7aa6 bbd55d04 ba823a76 3b102aa8 3ae25a7e 3a31f792 38b84375 3689bb5a 0 0",
)
_COEFFS = [np.array([int(h, 16) for h in row.split()], dtype=np.uint32).view(np.float32).astype(np.float64)
           for row in _DEGREES]
_IDX_BIAS = np.int64(np.array(0xc21fffff, dtype=np.uint32).view(np.int32))
_IDX_BIAS32, _SIGN_BIT = np.int32(_IDX_BIAS), np.int32(-2 ** 31)
_RBOUND = np.array(0x40b15cee, dtype=np.uint32).view(np.float32)
_AVX512_CORE = frozenset({"avx512f", "avx512bw", "avx512vl", "avx512dq"})  # oneDNN's avx512_core: the polynomials


# NOTE: elements per block: the float64 temporaries of one block stay in a core's L2 (the derivative's ~60 NumPy calls
# a block made 8192 ~15% slower here: GELU's forward and backward of 131072 elements 4.5 -> 3.8 ms, of 1M 36 -> 30)
_BLOCK = 16384


def _blockwise(x, block, scratch_type) -> tuple:
    """``x`` as a flat contiguous float32 array and ``block`` run over it ``_BLOCK`` elements at a time into a new
    array, with one ``scratch_type`` of temporaries (sized for one block) shared by every block."""
    flat = np.ascontiguousarray(x, np.float32).reshape(-1)
    out = np.empty_like(flat)
    scratch = scratch_type(min(flat.size, _BLOCK))
    for start in range(0, flat.size, _BLOCK):
        block(flat[start:start + _BLOCK], out[start:start + _BLOCK], scratch)
    return flat, out


def gelu_erf_onednn_f32(x: np.ndarray) -> np.ndarray:
    """oneDNN's ``gelu_erf`` of a float32 array on this CPU: its AVX-512 kernel's polynomials (``gelu_erf_f32``)
    with ``_AVX512_CORE``, else its Abramowitz and Stegun form (``gelu_erf_as_f32``; measured on an AMD Zen 3 with
    AVX2 against torch 2.13, 2026-12-07: the polynomials differed in the last bit on half of 200,000 inputs in
    [-10, 10], this form on none, NaN and infinities included)."""
    return gelu_erf_f32(x) if _AVX512_CORE <= _cpu.FLAGS else gelu_erf_as_f32(x)


def gelu_erf_f32(x: np.ndarray) -> np.ndarray:
    """oneDNN's AVX-512 ``gelu_erf`` of a float32 array, element for element.

    NOTE: ``_BLOCK`` elements at a time through preallocated temporaries (``out=``), the table lookups as
    ``np.take(..., mode="clip")`` on a pointer-sized index (the fastest gather NumPy has): about 2.5 times the
    speed of whole-array steps on 512x512."""
    flat, out = _blockwise(x, _gelu_block, _GeluScratch)
    return out.reshape(np.shape(x))


def gelu_erf_as_f32(x: np.ndarray) -> np.ndarray:
    """oneDNN's ``gelu_erf`` of a float32 array below AVX-512 (AVX2), element for element (``_gelu_as_block``)."""
    with np.errstate(over="ignore", invalid="ignore"):
        flat, out = _blockwise(x, _gelu_as_block, _GradScratch)
        nan = np.isnan(flat)
        if nan.any():  # the input's NaN back (quieted), sign included, as the derivative's
            out[nan] = flat[nan] + np.float32(0)
    return out.reshape(np.shape(x))


class _GeluScratch:
    """One block's temporaries: |x| (float32 and float64), the polynomial, a coefficient, the table index."""

    def __init__(self, size: int):
        self.pos, self.p = np.empty(size, np.float32), np.empty(size, np.float32)
        self.pos64, self.t, self.c = np.empty(size, np.float64), np.empty(size, np.float64), np.empty(size, np.float64)
        self.bits, self.idx, self.beyond = np.empty(size, np.int32), np.empty(size, np.intp), np.empty(size, bool)

    def cut(self, size: int) -> tuple:
        return (self.pos[:size], self.p[:size], self.pos64[:size], self.t[:size], self.c[:size], self.bits[:size],
                self.idx[:size], self.beyond[:size])


def _gelu_block(x: np.ndarray, out: np.ndarray, scratch: _GeluScratch) -> None:
    """oneDNN's steps on one block ``x``, into ``out``."""
    pos, p, pos64, t, c, bits, idx, beyond = scratch.cut(x.size)
    np.abs(x, out=pos)
    np.add(pos.view(np.int32), _IDX_BIAS32, out=bits)  # (wraps as oneDNN's 32-bit integer add)
    np.right_shift(bits, 21, out=bits)
    np.clip(bits, 1, 24, out=bits)
    np.greater(pos, _RBOUND, out=beyond)
    np.copyto(bits, 23, where=beyond)  # NaN keeps 24 (p = |x|, NaN)
    np.copyto(idx, bits)
    np.copyto(pos64, pos)
    _COEFFS[5].take(idx, out=t, mode="clip")  # (float32 values: no rounding to do)
    for degree in (4, 3, 2, 1, 0):  # p = fma(p, |x|, c), each rounded to float32
        np.multiply(t, pos64, out=t)
        _COEFFS[degree].take(idx, out=c, mode="clip")
        np.add(t, c, out=t)
        np.copyto(p, t, casting="same_kind")
        if degree:
            np.copyto(t, p)
    np.bitwise_and(x.view(np.int32), _SIGN_BIT, out=bits)  # the sign bit of x xor-ed in
    np.bitwise_xor(p.view(np.int32), bits, out=p.view(np.int32))
    p += np.float32(1)
    np.multiply(x, p, out=out)
    out *= np.float32(0.5)


def _f32(bits: int) -> np.float32:
    return np.array(bits, dtype=np.uint32).view(np.float32)[()]


_LOG2E, _LN2, _LN_MAX, _LN_MIN = _f32(0x3fb8aa3b), _f32(0x3f317218), _f32(0x42b17218), _f32(0xc2aeac50)
_EXP_POL = [_f32(b) for b in (0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce)]  # degree 1 .. 5
_AS_P, _ONE_OVER_SQRT2, _ONE_OVER_SQRTPI = _f32(0x3ea7ba05), _f32(0x3f3504f3), _f32(0x3f106eba)
_AS_POL = [_f32(b) for b in (0x3e827906, 0xbe91a98e, 0x3fb5f0e3, 0xbfba00e3, 0x3f87dc22)]  # degree 1 .. 5
_ONE, _HALF = np.float32(1), np.float32(0.5)
_LN2_64, _AS_P_64 = np.float64(_LN2), np.float64(_AS_P)


def gelu_erf_grad_f32(x: np.ndarray) -> np.ndarray:
    """oneDNN's ``gelu_erf`` derivative at a float32 array, element for element.

    NOTE: blockwise through preallocated temporaries, as ``gelu_erf_f32``; each fma is a float64 multiply-add of
    float64 copies of its float32 operands, rounded to float32 by one cast (mixed float32/float64 NumPy calls
    cost twice as much)."""
    with np.errstate(over="ignore", invalid="ignore"):
        flat, out = _blockwise(x, _gelu_grad_block, _GradScratch)
        nan = np.isnan(flat)
        if nan.any():  # oneDNN gives the input's NaN back (quieted), sign included; the steps here set the sign
            out[nan] = flat[nan] + np.float32(0)
    return out.reshape(np.shape(x))


class _GradScratch:
    """One block's temporaries: eight float32 rows, three float64 rows, the exponent bits, the underflow mask."""

    def __init__(self, size: int):
        self.f32, self.f64 = np.empty((8, size), np.float32), np.empty((3, size), np.float64)
        self.k, self.under = np.empty(size, np.int32), np.empty(size, bool)

    def cut(self, size: int) -> tuple:
        return (*self.f32[:, :size], *self.f64[:, :size], self.k[:size], self.under[:size])


def _horner(p: np.ndarray, z64: np.ndarray, acc: np.ndarray, coeffs) -> None:
    """``p = fma(p, z, c)`` for each ``c`` in turn, each rounded to float32 (``acc``: float64 scratch)."""
    for c in coeffs:
        np.copyto(acc, p)
        np.multiply(acc, z64, out=acc)
        np.add(acc, c, out=acc)
        np.copyto(p, acc, casting="same_kind")


def _gelu_grad_block(x: np.ndarray, out: np.ndarray, scratch: _GradScratch) -> None:
    """oneDNN's derivative steps on one block ``x``, into ``out``."""
    u, v, n, r, p, q, t, w, acc, z64, other64, k, under = scratch.cut(x.size)
    np.multiply(x, _ONE_OVER_SQRT2, out=u)
    _exp_neg_square(u, q, v, n, r, p, acc, z64, k, under)
    np.multiply(u, _ONE_OVER_SQRTPI, out=t)  # t = u exp(-u^2) / sqrt(pi)
    t *= q
    _erf(u, q, v, w, p, acc, z64, other64, k)
    t += _HALF  # fma(erf, 1/2, t + 1/2)
    np.copyto(acc, p)
    np.multiply(acc, 0.5, out=acc)
    np.copyto(other64, t)
    np.add(acc, other64, out=acc)
    np.copyto(out, acc, casting="same_kind")


def _exp_neg_square(u, q, v, n, r, p, acc, z64, k, under) -> None:
    """``q = exp(-u^2)`` by oneDNN's exp (the other arguments: scratch rows of ``u``'s size)."""
    np.multiply(u, u, out=v)
    np.negative(v, out=v)  # q = exp(-u^2), oneDNN's exp: below ln(FLT_MIN) the result is 0
    np.less(v, _LN_MIN, out=under)
    np.minimum(v, _LN_MAX, out=v)
    np.maximum(v, _LN_MIN, out=v)
    np.multiply(v, _LOG2E, out=n)
    np.add(n, _HALF, out=n)
    np.floor(n, out=n)
    np.copyto(acc, n)  # r = fma(-n, ln 2, v) (negated first, as oneDNN: a NaN keeps that sign)
    np.negative(acc, out=acc)
    np.multiply(acc, _LN2_64, out=acc)
    np.add(acc, v, out=acc)
    np.copyto(r, acc, casting="same_kind")
    np.subtract(n, _ONE, out=n)  # 2^(n-1) from its exponent bits
    np.rint(n, out=n)
    np.copyto(k, n, casting="unsafe")
    k += 127
    np.left_shift(k, 23, out=k)
    scale = k.view(np.float32)
    np.copyto(scale, np.float32(0), where=under)
    p.fill(_EXP_POL[4])
    np.copyto(z64, r)
    _horner(p, z64, acc, (_EXP_POL[3], _EXP_POL[2], _EXP_POL[1], _EXP_POL[0], _ONE))
    np.multiply(p, scale, out=q)
    q *= np.float32(2)


def _erf(u, q, v, w, p, acc, z64, other64, k) -> None:
    """``p = erf(u)`` by Abramowitz and Stegun's formula as oneDNN evaluates it, from ``q = exp(-u^2)``."""
    np.abs(u, out=w)  # w = 1 / fma(p, |u|, 1), then erf = 1 - w r(w) exp(-u^2)
    np.copyto(acc, w)
    np.multiply(acc, _AS_P_64, out=acc)
    np.add(acc, 1.0, out=acc)
    np.copyto(w, acc, casting="same_kind")
    np.divide(_ONE, w, out=w)
    p.fill(_AS_POL[4])
    np.copyto(z64, w)
    _horner(p, z64, acc, (_AS_POL[3], _AS_POL[2], _AS_POL[1], _AS_POL[0]))
    np.negative(q, out=v)  # fma(-q * w, r(w), 1)
    np.multiply(v, w, out=v)
    np.copyto(acc, v)
    np.copyto(other64, p)
    np.multiply(acc, other64, out=acc)
    np.add(acc, 1.0, out=acc)
    np.copyto(p, acc, casting="same_kind")  # erf, with the sign of u xor-ed in
    np.bitwise_and(u.view(np.int32), _SIGN_BIT, out=k)
    np.bitwise_xor(p.view(np.int32), k, out=p.view(np.int32))


def _gelu_as_block(x: np.ndarray, out: np.ndarray, scratch: _GradScratch) -> None:
    """oneDNN's steps below AVX-512 (``gelu_erf_compute_vector_fwd``) on one block ``x``, into ``out``: the
    derivative's erf, then ``fma(erf, x / 2, x / 2)``."""
    u, v, n, r, p, q, t, w, acc, z64, other64, k, under = scratch.cut(x.size)
    np.multiply(x, _ONE_OVER_SQRT2, out=u)
    _exp_neg_square(u, q, v, n, r, p, acc, z64, k, under)
    _erf(u, q, v, w, p, acc, z64, other64, k)
    np.multiply(x, _HALF, out=t)
    np.copyto(acc, p)
    np.copyto(other64, t)
    np.multiply(acc, other64, out=acc)
    np.add(acc, other64, out=acc)
    np.copyto(out, acc, casting="same_kind")
