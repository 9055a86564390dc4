"""This machine's CPU as PyTorch's CPU kernels see it: read once, here, for every route that depends on it.

PyTorch picks its kernels by the CPU it runs on: ATen's vectorized kernels by ``get_cpu_capability()`` (the
width of ``Vectorized<T>``, so where a loop's vector steps end and its scalar tail begins), oneDNN's kernels by
the data types the CPU converts natively, MKL's GEMM by vendor and instruction set. core cannot ask torch, so it
reads the first processor's ``vendor_id``, ``cpu family`` and ``flags`` from ``/proc/cpuinfo`` (Linux's names
for cpuinfo's checks); where that file is missing it takes NumPy's report of the instruction sets (no vendor).

- ``capability()``: ``torch.backends.cpu.get_cpu_capability()``'s answer, by ATen's ``compute_cpu_capability``:
  ``ATEN_CPU_CAPABILITY`` when set, else 'AVX512' with avx512vl, avx512bw, avx512dq and fma, 'AVX2' with avx2
  and fma, else 'DEFAULT';
- ``vector_bytes()``: the bytes of one ``Vectorized<T>`` at that capability (64 for AVX-512, else 32);
- ``onednn_takes_half(name)``: whether PyTorch's ``mkldnn_bf16_device_check`` / ``mkldnn_fp16_device_check``
  holds (oneDNN's ``has_data_type_support``): bfloat16 with AVX-512 core or avx_ne_convert, float16 with
  avx512_fp16 or avx_ne_convert. Ops such as GELU hand those dtypes to oneDNN only then;
- ``mkl_fuses()``: whether MKL's unblocked LAPACK kernels (``getf2``, so ``lu_factor``, ``det``, ``slogdet``)
  update with fused multiply-adds. MKL picks its code path by CPU vendor: measured with torch 2.13's MKL, they
  fuse on the Intel CPU core's LU reproduction was written on, and on an AMD EPYC (Zen 4, AVX-512) they round
  each product before subtracting it;
- ``mkl_vml_rounds_correctly()``: whether MKL's vector math (PyTorch's float32 ``exp``, ``log`` and their
  neighbours, ``VML_HA``) gives the correctly rounded results core computes (``core._precise``). On the AMD EPYC
  it does not: about 3% of float32 logs in [0.5, 100] and 1% of exps in [-10, 0] are one ulp off (at most 0.81
  ulp from the exact value). core reproduces MKL's exp and log there (``mkl_vml_sse``) and its sqrt on Zen 4
  (``mkl_vml_sse_sqrt``); its erf and log1p not yet;
- ``mkl_vml_sse()``: whether MKL's float32 vector math runs its SSE kernels (``exp``, ``log``...), and its
  float64 ``exp`` its SSE kernel, as ``core._mkl_vml`` reproduces them: on an AMD CPU (measured on the Zen 4),
  where MKL does not take its AVX-512 or AVX2 kernels;
- ``mkl_vml_sse_sqrt()``: whether MKL's float32 and float64 vector sqrt (every float32 and float64 ``torch.sqrt``)
  are its SSE kernels started from this CPU's ``rsqrtps`` estimate, as ``core._mkl_vml`` reproduces them: on an
  AMD Zen 4 or Zen 3 (family 25), where those kernels and that instruction's table were measured.
"""

from __future__ import annotations

import functools
import os

import numpy as np

__all__ = ["VENDOR", "FAMILY", "FLAGS", "capability", "vector_bytes", "onednn_takes_half", "mkl_fuses",
           "mkl_vml_rounds_correctly", "mkl_vml_sse",
           "mkl_vml_sse_sqrt"]

# NumPy's names of the instruction sets (its ``__cpu_features__``) -> Linux's flags, where /proc/cpuinfo is missing
_NUMPY_NAMES = {"AVX512F": "avx512f", "AVX512VL": "avx512vl", "AVX512BW": "avx512bw", "AVX512DQ": "avx512dq",
                "AVX512FP16": "avx512_fp16", "AVX512BF16": "avx512_bf16", "AVX2": "avx2", "FMA3": "fma"}


def _first_processor() -> dict:
    """The first processor's block of /proc/cpuinfo as a dict, or {} where it cannot be read."""
    info = {}
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                if not key.strip():
                    break  # the first processor's block is enough
                info[key.strip()] = value.strip()
    except OSError:
        return {}
    return info


def _numpy_flags() -> frozenset:
    try:
        found = np._core._multiarray_umath.__cpu_features__
    except AttributeError:
        return frozenset()
    return frozenset(flag for name, flag in _NUMPY_NAMES.items() if found.get(name))


_INFO = _first_processor()
VENDOR: str = _INFO.get("vendor_id", "")  # 'AuthenticAMD', 'GenuineIntel'; '' where unknown
FAMILY: str = _INFO.get("cpu family", "")
FLAGS: frozenset = frozenset(_INFO["flags"].split()) if "flags" in _INFO else _numpy_flags()
_AVX512_CORE = {"avx512f", "avx512vl", "avx512bw", "avx512dq"}


@functools.cache
def capability() -> str:
    """What ``torch.backends.cpu.get_cpu_capability()`` answers on this machine (module docstring); read once, as
    ATen reads it."""
    asked = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    if asked in ("avx512", "avx2", "default"):
        return asked.upper()
    if {"avx512vl", "avx512bw", "avx512dq", "fma"} <= FLAGS:
        return "AVX512"
    if {"avx2", "fma"} <= FLAGS:
        return "AVX2"
    return "DEFAULT"


def vector_bytes() -> int:
    """The bytes of one ``Vectorized<T>``: 64 in ATen's AVX-512 build, 32 in its AVX2 and default ones."""
    return 64 if capability() == "AVX512" else 32


def onednn_takes_half(name: str) -> bool:
    """Whether PyTorch's oneDNN device check holds for the half type ``name`` ('float16' or 'bfloat16')."""
    if "avx_ne_convert" in FLAGS:
        return True
    if name == "bfloat16":
        return _AVX512_CORE <= FLAGS
    return name == "float16" and "avx512_fp16" in FLAGS and _AVX512_CORE <= FLAGS


def mkl_fuses() -> bool:
    """Whether MKL's unblocked LAPACK kernels fuse their multiply-adds here: not on an AMD CPU (module docstring)."""
    return VENDOR != "AuthenticAMD"


def mkl_vml_rounds_correctly() -> bool:
    """Whether MKL's float32 vector math (torch's float32 exp, log, sqrt of any layout) is correctly rounded here:
    not on an AMD CPU, where 1-17% of those results (and of erf, log1p) are an ulp off (measured on an AMD EPYC
    Zen 4 against torch 2.13, 2026-12-06); ``mkl_vml_sse`` and ``mkl_vml_sse_sqrt`` say where core follows them."""
    return VENDOR != "AuthenticAMD"


def mkl_vml_sse() -> bool:
    """Whether MKL's float32 vector math runs its SSE kernels here (module docstring): on an AMD CPU."""
    return VENDOR == "AuthenticAMD"


def mkl_vml_sse_sqrt() -> bool:
    """Whether torch's float32 and float64 sqrt are MKL's SSE kernels on AMD Zen 4's ``rsqrtps`` here (module
    docstring): MKL takes those kernels on AMD CPUs, and ``rsqrtps``'s table was read on a Zen 4 (family 25). A Zen 3
    (family 25 too, AVX2) gives the same bits: measured 2026-12-07 against torch 2.13, every float32 in [1, 4) and
    3 million float32 and float64 values from 1e-300 to 1e300 (subnormals, zeros, infinity) bit for bit."""
    return VENDOR == "AuthenticAMD" and FAMILY == "25"
