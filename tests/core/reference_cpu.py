"""The CPU core's bit-for-bit claims were measured on, and the one way a test says what holds on other CPUs.

torch 2.13's CPU kernels pick their code by the CPU they run on (``core._cpu``): ATen's vector width, MKL's GEMM
and vector-math kernels, oneDNN's. core reproduces many of them bit for bit as they run on an AMD EPYC Zen 4 with
AVX-512 (``ZEN4_AVX512``); some of those kernels take other orders elsewhere (an AMD EPYC Zen 3 with AVX2: MKL's
vector log, oneDNN's bfloat16 routes), which core does not reproduce. A test of such a kernel stays bit-exact on Zen 4
and, elsewhere, asserts the strongest closeness that holds (``assert_bits_on_zen4``: within ``max_ulp`` units in the
last place, the smallest count measured to hold); ``xfail_off_zen4`` marks what no closeness describes. MKL's
blocked float32 sgemm (M >= 4, N >= 12) core follows on the Zen 3 too (``core._openblas_chains``): its tests ask
``blocked_sgemm_measured`` and ``assert_bits_where_blocked``, which say where core follows it. Orders measured on the
Zen 3 only (``ZEN3_AVX2``: ``core._small_gemm_zen3``) are marked ``xfail_off_zen3``.
"""

from __future__ import annotations

import numpy as np
import pytest

from core import _cpu, _small_gemm
from tests.core.oracle import assert_float32_bits

__all__ = ["ZEN4_AVX512", "blocked_sgemm_measured", "ulp_distance", "assert_ulp_close", "assert_bits_on_zen4",
           "assert_bits_where_blocked", "xfail_off_zen4", "ZEN3_AVX2", "xfail_off_zen3"]

ZEN4_AVX512: bool = _cpu.VENDOR == "AuthenticAMD" and _cpu.FAMILY == "25" and _cpu.capability() == "AVX512"
ZEN3_AVX2: bool = _cpu.VENDOR == "AuthenticAMD" and _cpu.FAMILY == "25" and _cpu.capability() == "AVX2"

_INTS = {np.dtype(np.float16): np.int16, np.dtype(np.float32): np.int32, np.dtype(np.float64): np.int64}


def _ordered(x: np.ndarray) -> np.ndarray:
    """The float's bits as integers that count ulps in order across zero (-0.0 and +0.0 both 0), as int64."""
    bits = x.view(_INTS[x.dtype]).astype(np.int64)
    top = np.int64(1) << (8 * x.dtype.itemsize - 1)
    return np.where(bits < 0, -(bits + top), bits)


def ulp_distance(ours, theirs) -> np.ndarray:
    """How many representable floats of their dtype lie between ``ours`` and ``theirs``, element by element."""
    got, want = np.asarray(ours), np.asarray(theirs)
    assert got.dtype == want.dtype and got.dtype in _INTS, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    return np.abs(_ordered(got) - _ordered(want))


def assert_ulp_close(ours, theirs, max_ulp: int, of_largest: bool = False) -> None:
    """NaN exactly where the other is NaN, infinities equal, every other element within ``max_ulp`` ulps of itself,
    or with ``of_largest`` within ``max_ulp`` ulps of the array's largest magnitude (sums in another order: an element
    that cancels to near zero keeps the rounding errors of its larger terms)."""
    got, want = np.asarray(ours), np.asarray(theirs)
    nan = np.isnan(want)
    assert (np.isnan(got) == nan).all(), "NaN in different places"
    got, want = got[~nan], want[~nan]
    assert (np.isinf(got) == np.isinf(want)).all() and (got[np.isinf(want)] == want[np.isinf(want)]).all()
    if of_largest and want.size:
        finite = np.isfinite(want)
        ulp = np.spacing(np.abs(want[finite]).max())
        far = np.abs(got[finite].astype(np.float64) - want[finite].astype(np.float64)) / ulp
    else:
        far = ulp_distance(got, want)
    worst = float(far.max()) if far.size else 0
    assert worst <= max_ulp, f"{int((far > max_ulp).sum())} of {far.size} elements over {max_ulp} ulps (worst {worst})"


def assert_bits_on_zen4(ours, theirs, max_ulp: int, of_largest: bool = False) -> None:
    """float32 ``ours`` is ``theirs`` bit for bit on the AMD Zen 4 with AVX-512 the kernel was measured on; elsewhere
    ``assert_ulp_close`` with the smallest ``max_ulp`` measured to hold on an AMD Zen 3 with AVX2."""
    if ZEN4_AVX512:
        assert_float32_bits(ours, theirs)
    else:
        assert_ulp_close(ours, theirs, max_ulp, of_largest)


def assert_bits_where_blocked(ours, theirs, max_ulp: int, of_largest: bool = False) -> None:
    """float32 ``ours`` is ``theirs`` bit for bit where core follows MKL's blocked float32 sgemm
    (``core._small_gemm.FMA_BLOCKS``: the AMD Zen 4 and Zen 3); elsewhere ``assert_ulp_close`` with ``max_ulp``."""
    if _small_gemm.FMA_BLOCKS:
        assert_float32_bits(ours, theirs)
    else:
        assert_ulp_close(ours, theirs, max_ulp, of_largest)


def xfail_off_zen4(reason: str):
    """A mark for a bit-for-bit test that no closeness describes off the AMD Zen 4 with AVX-512 (``reason`` says which
    kernel differs there): it still runs everywhere and must pass on Zen 4."""
    return pytest.mark.xfail(not ZEN4_AVX512, strict=False, reason=reason)


def xfail_off_zen3(reason: str):
    """A mark for a bit-for-bit test of a kernel order measured on the AMD Zen 3 with AVX2 only (``reason`` says
    which; ``core._small_gemm_zen3``): it still runs everywhere and must pass on the Zen 3."""
    return pytest.mark.xfail(not ZEN3_AVX2, strict=False, reason=reason)


# NOTE: a mark for a test of MKL's blocked float32 sgemm (M >= 4, N >= 12, ``core._small_gemm._fma_blocks``), which core
# follows on the AMD Zen 4 (AVX-512) and Zen 3 (AVX2) it was measured on (``core._small_gemm.FMA_BLOCKS``); elsewhere
# core keeps NumPy's GEMM there, so no bit-for-bit claim is made
blocked_sgemm_measured = pytest.mark.skipif(
    not _small_gemm.FMA_BLOCKS, reason="MKL's blocked float32 sgemm (M >= 4, N >= 12) is followed on the AMD Zen 4 "
    "and Zen 3 only, where NumPy's BLAS gives its chains (core._small_gemm.FMA_BLOCKS)")
