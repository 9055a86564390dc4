"""PyTorch's float32 ``tanh`` on an AMD CPU as MKL's vector math computes it: the same steps in NumPy, bit for bit.

torch 2.13's float32 ``tanh`` (any size from one element, any layout, in place or not, ``nn.Tanh``: ATen's
``vml::vtanh``) is MKL's ``vmsTanh`` with ``VML_HA``; on an AMD CPU its SSE kernel ``mkl_vml_kernel_sTanh_EXHAynn``
(libtorch_cpu, read with objdump, checked by calling it through ctypes; E2 and L9 give the same bits, Z0 differs in
0.6% of sampled inputs). It is not correctly rounded: ~0.05% of its results differ from the correctly rounded
ones core computes elsewhere (``core._precise``). With ``a = |x|`` it picks one of 27 intervals by a's exponent and
top two mantissa bits (a < 0.125 the first; then one per quarter binade; a >= 10 the last, whose polynomial is 1) and
evaluates that interval's degree-6 polynomial in float64, each step rounded (no fused multiply-adds)::

    i = 0 if a < 0.125 else min(26, (bits(a) - 0x3DE00000) >> 21)    # on a's exponent and top 2 mantissa bits
    p = ((((((C6_i a + C5_i) a + C4_i) a + C3_i) a + C2_i) a + C1_i) a + C0_i      # a in float64
    tanh = float32(p) with x's sign

``_COEFFS`` holds the kernel's 27 x 7 float64 coefficients bit for bit (its table ``vstanh_data`` at offset 0x540,
eight doubles per interval whose last is 0; little-endian, base64). |x| >= 1.25 * 2^127 and inf give +-1, NaN
``x + x`` (MKL's scalar path). Measured against torch 2.13 on an AMD EPYC Zen 4 (2026-12-06): bit for bit on every
non-negative float32 bit pattern (the 2^31 of them), 2M random bit patterns, 1M negative x, +-0, subnormals, +-inf,
NaN, sizes 1-69 and larger, strided and transposed inputs, in place and ``nn.Tanh``. The steps use no CPU estimate
(as ``rsqrtps``), so they are taken wherever ``core._cpu.mkl_vml_sse()`` holds (an AMD CPU); elsewhere tanh stays
core's correctly rounded one. Its gradient, ``tanh_backward``, is plain float32 arithmetic
(``core.ops.activation_backward``), unchanged. Cost (timeit medians on the loaded AMD EPYC): 200 floats ~14 us,
10^6 ~10 ms (NumPy's float32 tanh 0.4 us and 0.37 ms; the correctly rounded float64 route 1.5 us and 2.1 ms): the
gather of seven coefficients per element and Horner's twelve float64 steps.
"""

from __future__ import annotations

import base64
import functools

import numpy as np

from core import _cpu, _mkl_vml
from core._numpy_c import copyto as _copyto
from core._precise import precise
from core._thread_scratch import kept_per_thread

__all__ = ["vtanh", "tanh"]

_U32, _F32 = np.uint32, np.dtype(np.float32)
_BLOCK = 8192  # elements per step: the temporaries (and the gathered coefficients, 56 bytes each) stay in cache
_SSE = _cpu.mkl_vml_sse()
_COEFFS = (  # C0..C6 of each interval (module docstring), 27 x 7 float64 bit patterns
    "AAAAAAAAAAAdowYAAADwP5v3xJLe722+3fCUcj9V1b8Bt83MvWwnvxn7YUXia8E/r6PqpMRblL8ur8VhdydovgV6FmMCAPA/dbGF3c7rCb+1WXpu"
    "iEvVvzOiJLym33G/v+rPva+Iwz/S9YnDAqyov5N99XTb1YW+22DUFQcA8D+Ig/TG2qIfvzseLU+cQdW/pyuiV7LDfb+XiQA3fXzEPyaJByoIwKy/"
    "vySqNijlnb4kc1GHEADwPyltTAEYgi+/XNGt5a4z1b9JhQfsJtmFv71QBjLBasU/GGBXzzUJsL8dHCYT52iwvlyjFtEfAPA/p13/MoOqOr9fSy/6"
    "CyPVvxwEHUur/Yy/GwxfHl48xj9lSYfuAEqxv1pGW5nM0cG+p5+f/DsA8D8Sg7deQPJFv3TwSBOIDNW/FAq9Bzykkr+zRt2ePw3HP9LFz+KTXLK/"
    "rVXkUVn8ur6cfIqOMwDwP24bS9CLUkS/x/m1gvgO1b+tSoQizm2Sv/K9lszRCsc/xZy45rVgsr+hPom2mynwPhi8wsY2/u8/99R70B+CUj933Urv"
    "P3PVv2Iu2GXhUXi/PKyjJvFqxT9aGe9EbfOwv5lUhfkJ3RY/vR555zn27z9GCITuekB7PxxR4xz/hNa/nTf+EfAQlz+ExqWQhBrCP6ozuNH03qy/"
    "x3vvTjS3PT/K2v5jmtPvP54Hli7QqJs/QPOG2VXf2b8tbgCHFze5P0arwosmI7U/9RRE8RQfo7+mDzkEvXpgPz5wD3MrWu8/Zjb1Ivz9tT8LTPmP"
    "gPDgv/7gLnqEyc8/e/JQamRqi79TXtKO2+uHv1D0y6QQx3U/Oby2BeyB7j8OQuAUc0LGP0rSO1VP9OW/nqz0eVr12T+/g/2nvAK5v0lT9RShbn0/"
    "FfbGMBh0gz8stc8C4ZXtP7k1va4xbtA/Gzpak7oF6r9pRpA1737gP6NoVKmc/8K/vhtRSGBckT8Wz7rg+r6EP9MJre/+bu0/RSq5wW9W0T9blti2"
    "4rjqv/oAGyr0FuE/nqsczj4OxL9Lv1gpx+iSP8vBWC8xQJW/possKKkL8T+SCtRPDrePvzMs/XrNFeG/4LVVtRrB1j/X6JpI3qG5v0qPA21lfoY/"
    "VmAY3er+uL9bL5hlU/X1PxhY6hNb3+C/a1Ay2T8EtL+B0v05pD3AP/ufFP4h4qO/7FhE64fmcD9IFNAop7bIv+MMyHo6N/s/76NpAPX5778u7fl0"
    "xirSP/cyk5yoPJ6/NabnW6SMZr8SC2NLNGtFP5ro7vmKA9K/WtCjlk9v/z/TeA1qxj31vw6a0oFdEuA/0rZWjaKCvL8mEckMp+qLP9HmqJb6bke/"
    "3tNARCR6zL+6xbJIDUr9PxiEVclINvO/91UjTWEO3D+9AO8fnuO3vzwWhMuCW4Y/MHfS5pLgQb9ofpLMRGt6v/Cff89gYvY/LGhyfNbo6r9n5sRb"
    "S8zRP/my5HlWLqu/1SLEVdiedj8opqWyGfEvv7gCXAnLR9A/Y24Eca1n7j9iZmlb4Zjgvx6zXs8IyMM/QLiGEQ8Lm7+nrxvGcgpkPwe5jUfHFxm/"
    "KhOALmdx4j9IDdzM52veP33f2lFK+My/d2i+JPrhrT9AWFk8X5CBv7r7ismEQ0Y/Qp++1+O7977YXOXTN87qP92p9SlX4cM/E/caBLAJsL8cPnD/"
    "9eCLP62W4mSSflu/J2wmhgUjHT+EZlykGOXJvkUFsvP2SO4/D8lLmSjMpj8J69fzhNKPv2V2G/1E22c/oaGJBTo+NL89QNcOdmvyPl+XQo2qEJy+"
    "DKJj1WJ+7z9k7q1QDr+HPx0ys48uLG2/mAkvslY2Qz//HKrnCJkMv8rDkh9ly8Y+NPtm4M1jbr5nqmQnMezvPw6LeZ9KtFg/o2ILLi3COb/KEX0W"
    "iboMP+DPsQk2EdK+srEpJYZKiD7DOanZF0QrvgAAAAAAAPA/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
)


def _u32(bits: int) -> np.ndarray:
    """A uint32 constant as a 0-d array (a ufunc converts a Python or NumPy scalar operand on every call)."""
    return np.array(bits, _U32)


_SHIFT = _u32(21)  # |x|'s bits >> 21: its exponent and top two mantissa bits, the kernel's key
_RARE = _u32(0x7F200000)  # |x|'s bits from here (|x| >= 1.25 * 2^127, inf, NaN) take MKL's scalar path


@functools.cache
def _interval() -> np.ndarray:
    """The interval of each key (|x|'s bits >> 21): 0 below 0.125, then one per quarter binade, 26 from 10 on."""
    return np.clip(np.arange(1 << 10) - (0x3DE00000 >> 21), 0, 26).astype(np.intp)


@functools.cache
def _rows() -> np.ndarray:
    """The coefficients, one row per power in Horner's order (C6, C5, ..., C0), one column per interval: (7, 27)."""
    table = np.frombuffer(base64.b64decode("".join(_COEFFS)), "<f8").reshape(27, 7)
    return np.ascontiguousarray(table.T[::-1], np.float64)


@functools.cache
def _by_key() -> np.ndarray:
    """``_rows()``'s column for each key of x's own bits >> 21, sign bit included: (7, 2048), one gather per block
    with no ``abs`` or interval lookup first. The upper 1024 keys (x < 0 or -0) hold the coefficient of x^k times
    (-1)^(k+1), so Horner's steps on x itself (not |x|) give -p(|x|): each step rounds to nearest, which commutes with
    negation, and every partial value is the one at |x| with the sign (-1)^(k+1) (``_steps``' NOTE). The keys of
    |x| >= 1.25 * 2^127, inf and NaN (``_RARE`` and up, either sign) hold NaN: their p is NaN, found by one ``max``,
    and MKL's scalar path is taken there."""
    table = _rows()[:, np.tile(_interval(), 2)]
    power = np.arange(6, -1, -1)[:, None]  # (the rows run from C6 down to C0)
    table[:, 1 << 10:] *= np.where(power % 2 == 1, 1.0, -1.0)
    rare = (np.arange(1 << 11) & 0x3FF) >= (0x7F200000 >> 21)
    table[:, rare] = np.nan
    return np.ascontiguousarray(table)


def _steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's SSE tanh (module docstring) of a float32 block into ``out`` (not ``x`` itself).

    NOTE: the coefficients come from x's bits in one gather (``_by_key``, ``mode="clip"``: an 11-bit key can't be
    out of range). x's sign goes with its coefficients, and the history of that: first a copysign of p in float64,
    then of the float32 result (1600 elements 25.0 -> 24.2 us); then the upper half of the table negated, Horner's
    steps on |x| giving -p exactly ((200, 8) 34.3 -> 30.2 us, (64, 256) 210 -> 179); now the coefficient of x^k
    times (-1)^(k+1) and Horner's steps on x itself: at -a each partial value is (-1)^(k+1) times the one at a
    (by induction: its product with -a and the sum with (-1)^k c_k are those at a negated, and rounding to nearest
    commutes with negation), so p comes out as -p(a), and x goes to float64 by a plain copy where |x| took a cast
    through NumPy's buffers; -0 still gives -0 (p's last step is x c1 + (-0) with c1 > 0: -0 + -0), +0 gives +0.
    The rare keys' NaN coefficients leave NaN in their p alone (no floating-point flag: inf times NaN raises none),
    so one ``max`` of p finds them, with no ``errstate`` around the steps. The gather, x, Horner's steps and the key
    write into scratch kept per thread and size (``_scratch``: no allocation, the buffers stay in cache)."""
    c, rows, a, p, key = _scratch(x.size)
    np.right_shift(x.view(_U32), _SHIFT, out=key)
    _by_key().take(key, axis=1, mode="clip", out=c)
    _copyto(a, x)
    _horner(rows, a, p, out)
    if np.maximum.reduce(p) < 2:  # (|p| <= 1 but for the rare keys' NaN, which compares False)
        return
    at = (x.view(_U32) & _U32(0x7FFFFFFF)) >= _RARE
    xr = x[at]
    out[at] = np.where(np.isnan(xr), xr + xr, np.copysign(np.float32(1), xr))


def _horner(c: tuple, a: np.ndarray, p: np.ndarray, out: np.ndarray) -> None:
    """Horner's steps on the gathered coefficients' rows ``c`` (C6 first) and x ``a`` in float64, each rounded, into
    ``p``; ``p`` rounded to float32 into ``out`` (it carries x's sign: MKL's or of it onto p >= 0)."""
    mul, add = np.multiply, np.add
    mul(c[0], a, out=p)
    for j in range(1, 6):
        add(p, c[j], out=p)
        mul(p, a, out=p)
    add(p, c[6], out=p)
    _copyto(out, p, casting="same_kind")


def _new_scratch(size: int) -> tuple:
    """``(c, rows, a, p, key)``: float64 scratch of (7, size) with its rows' views made once (~0.1 µs each a call),
    (size,) and (size,), and the keys' (size,) for ``_steps``."""
    c = np.empty((7, size))
    return c, tuple(c), np.empty(size), np.empty(size), np.empty(size, _U32)


# NOTE: a block's scratch (the 7 gathered coefficient rows, x, Horner's value and the key: 76 bytes an element) kept per
# thread (``core._thread_scratch``) for the last 4 sizes up to a whole block (576 KiB each at most, 2.3 MiB a
# thread); kept only up to 2,048 elements, a (64, 256) tanh (two blocks of fresh scratch) took ~4% longer than
# allocating as before. ``_steps`` is not reentrant on a thread.
_scratch = kept_per_thread(_new_scratch, up_to=_BLOCK, sizes=4)


def vtanh(x: np.ndarray) -> np.ndarray:
    """MKL's float32 SSE vector tanh on an AMD CPU of a float32 NumPy array (module docstring), C-ordered."""
    return _mkl_vml.blockwise(x, _steps, block=_BLOCK)


def tanh(xp, x):
    """torch's ``tanh`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse()`` holds (an AMD CPU) and ``x``
    is a float32 NumPy array, else ``core._precise``'s correctly rounded one."""
    if _SSE and x.dtype is _F32 and type(x) is np.ndarray:
        return vtanh(x)
    return precise(xp.tanh, x)
