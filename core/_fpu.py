"""The x86 FPU's flush-to-zero and denormals-are-zero bits (MXCSR), which ``torch.set_flush_denormal`` sets.

PyTorch sets both bits of the calling thread's MXCSR (``at::globalContext().setFlushDenormal``); NumPy's loops
and Python's floats then read and write denormals as zero just as ATen's kernels do. The register is reached
through the C library's ``fegetenv``/``fesetenv``, whose x86-64 ``fenv_t`` ends with it; elsewhere flushing
is unsupported and ``set_flush_denormal`` returns False, as PyTorch does on such CPUs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform

_FTZ_DAZ = 0x8040  # MXCSR bit 15 (flush to zero) and bit 6 (denormals are zero)
_MXCSR_OFFSET = 28  # after the 28-byte x87 environment
_libm = None


def _lib():
    global _libm
    if _libm is None:
        name = ctypes.util.find_library("m")
        _libm = ctypes.CDLL(name) if name else False
    return _libm


def supported() -> bool:
    return platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64") and bool(_lib())


def set_flush(on: bool) -> bool:
    """Set or clear FTZ and DAZ for this thread; False (and nothing changed) where that is unsupported."""
    if not supported():
        return False
    env = (ctypes.c_uint8 * 32)()
    if _lib().fegetenv(ctypes.byref(env)) != 0:
        return False
    mxcsr = ctypes.c_uint32.from_buffer(env, _MXCSR_OFFSET)
    mxcsr.value = (mxcsr.value | _FTZ_DAZ) if on else (mxcsr.value & ~_FTZ_DAZ)
    return _lib().fesetenv(ctypes.byref(env)) == 0
