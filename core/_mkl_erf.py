"""PyTorch's float32 ``erf`` on an AMD CPU as MKL's vector math computes it: the same steps in NumPy, bit for bit.

torch 2.13's float32 ``torch.erf``/``torch.special.erf`` (any size from one element, any layout: ATen's ``vml::verf``;
GELU's exact form has its own vectorised erf and does not come here) is MKL's ``vmsErf`` with ``VML_HA``. On an AMD
CPU MKL runs its SSE kernel (``mkl_vml_kernel_sErf_EXHAynn`` in libtorch_cpu, read with objdump, checked by calling
it through ctypes; E2 and H8 give the same bits, the AVX2 and AVX-512 kernels that torch runs on an Intel CPU do not),
which is not correctly rounded: about 1.4% of its results for x in [-5, 5] differ from the ones core computes
elsewhere (``core.ops._special.erf``). All in float32, each step rounded (no fused multiply-adds)::

    y = min(|x|, 1006/256);  x0 = y rounded to a multiple of 1/256 (0 below 3.5/256);  d = y - x0
    q = (2/sqrt(pi) - 1) - (d^2) * (2/sqrt(pi))/3                       # d^2 taken as 0 where y <= 2^-48
    p = ((x0 d) * C1 + C0) * (x0 d) + q                                 # C1 ~ (2/3)(2/sqrt(pi)), C0 ~ -2/sqrt(pi)
    D = B_j * d                                                         # B_j = 64 exp(-x0^2) rounded
    erf = sign(x) * (((p * D + E) + D) * (1/64) + H)

with j = 256 x0, ``H = min(A_j, |x|)``, A_j = erf(x0) rounded toward zero, and ``E = H * (1 + L_j 2^-23) - H``
with L_j = floor((erf(x0) - A_j) / A_j * 2^29) (MKL packs A_j and L_j in one 32-bit word; j < 4: A_j = 0,
B_j = 64). q and p are the Taylor series of exp(-x^2)'s integral about x0 (``_C1``, ``_C0``, ``_Q0``, ``_Q2``: the
kernel's bit patterns, within a few ulps of the series' coefficients). The table is computed here with ``decimal``
(equal to the kernel's bit for bit). Measured against torch 2.13 on an AMD EPYC Zen 4 (2026-12-06): bit for bit on
every float32 in [0, 4] and random bit patterns, zeros, subnormals, inf and NaN.
"""

from __future__ import annotations

import decimal
import functools

import numpy as np

from core import _cpu, _mkl_vml
from core._mkl_trig import _pi_bits

__all__ = ["verf", "erf"]

_U32, _F32 = np.uint32, np.dtype(np.float32)
_BLOCK = 16384  # elements per step: the temporaries stay in cache
_SSE = _cpu.mkl_vml_sse()
_ROWS = 1007  # x0 = j/256 up to 1006/256, where erf rounds to 1


def _f32(bits: int) -> np.ndarray:
    """The float32 with these bits, as a 0-d array (the fastest scalar operand of a ufunc)."""
    return np.array(bits, _U32).view(np.float32)


_TOP, _SHIFT, _MINUS_SHIFT = _f32(0x407B8000), _f32(0x47000000), _f32(0xC7000000)  # 1006/256, +-2^15
_SMALL, _TINY = _f32(0x3C600000), _f32(0x27800000)                   # 3.5/256, 2^-48
_C1, _C0, _Q2, _Q0 = _f32(0x3F4093A6), _f32(0xBF906EBC), _f32(0x3EC093B2), _f32(0x3E0375D4)  # the kernel's
_SCALE, _SIXTY_FOURTH = _f32(0x7B800000), _f32(0x3C800000)          # 2^120, 1/64
_ONE_BITS, _HEAD = _U32(0x3F800000), _U32(0x03FFFFFF)


@functools.cache
def _table() -> tuple[np.ndarray, np.ndarray]:
    """The kernel's table for j = 0..1006 (x0 = j/256): uint32 words (L_j << 26) | (A_j's bits - 120 << 23) and
    float32 B_j (module docstring), from ``decimal`` to 50 digits (erf by its Taylor series)."""
    d = decimal.Decimal
    words, heads = np.zeros(_ROWS, _U32), np.full(_ROWS, 64.0, np.float32)
    with decimal.localcontext() as ctx:
        ctx.prec = 50
        two_over_root_pi = 2 / (d(_pi_bits(240)) / d(2) ** 240).sqrt()
        for j in range(4, _ROWS):
            x0 = d(j) / 256
            heads[j] = np.float32(float(64 * (-x0 * x0).exp()))
            total, term, n = d(0), x0, 0                                 # erf: sum of (-1)^n x^(2n+1) / (n! (2n+1))
            while abs(term) > d(10) ** -45:
                total += term / (2 * n + 1)
                n += 1
                term = -term * x0 * x0 / n
            exact = total * two_over_root_pi
            head = np.float32(float(exact))
            if d(float(head)) > exact:                                   # toward zero
                head = np.nextafter(head, np.float32(0))
            rest = int(((exact - d(float(head))) / d(float(head)) * 2 ** 29).to_integral_value(decimal.ROUND_FLOOR))
            words[j] = (rest << 26) | (int(np.array(head).view(_U32)) - (120 << 23))
    return words, heads


def _steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's SSE vector erf (module docstring) of a float32 block into ``out``."""
    words, heads = _table()
    a = np.abs(x)
    y = np.minimum(a, _TOP)
    t = y + _SHIFT
    j = t.view(_U32) - _U32(0x47000000)
    if np.isnan(y).any():                           # (NaN: MKL's result is NaN; keep the index in the table)
        j[np.isnan(y)] = 0
    x0 = t + _MINUS_SHIFT
    x0[y < _SMALL] = 0
    dd = y - x0
    m = np.where(y > _TINY, dd, np.float32(0))
    m *= m
    m *= _Q2
    q = _Q0 - m
    w = words.take(j)
    h = np.minimum(w & _HEAD, a.view(_U32)).view(np.float32)  # (both non-negative: the bits order as the floats)
    xd = x0 * dd
    p = xd * _C1
    p += _C0
    p *= xd
    p += q
    big_d = heads.take(j) * dd
    hc = h * _SCALE
    w >>= _U32(26)
    w |= _ONE_BITS
    e = w.view(np.float32) * hc
    e -= hc
    p *= big_d
    p += e
    p += big_d
    p *= _SIXTY_FOURTH
    p += hc
    np.bitwise_xor(p.view(_U32), x.view(_U32) & _U32(0x80000000), out=out.view(_U32))


def verf(x: np.ndarray) -> np.ndarray:
    """MKL's float32 SSE vector erf of a float32 NumPy array (module docstring), C-ordered."""
    return _mkl_vml.blockwise(x, _steps, block=_BLOCK)


def erf(x, fallback):
    """torch's ``erf`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse()`` holds (an AMD CPU) and ``x``
    is a float32 NumPy array, else ``fallback(x)``."""
    if _SSE and x.dtype is _F32 and type(x) is np.ndarray:
        return verf(x)
    return fallback(x)
