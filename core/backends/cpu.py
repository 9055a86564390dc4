"""``core.backends.cpu``: what the CPU kernels use (NumPy's, whatever SIMD it was built with)."""

import numpy as np


def get_cpu_capability() -> str:
    """PyTorch's name of the widest SIMD level NumPy reports, or 'DEFAULT'."""
    try:
        found = np._core._multiarray_umath.__cpu_features__  # NumPy's only report of it
    except AttributeError:
        try:
            found = np.core._multiarray_umath.__cpu_features__
        except AttributeError:
            return "DEFAULT"
    for name, ours in (("AVX512F", "AVX512"), ("AVX2", "AVX2")):
        if found.get(name):
            return ours
    return "DEFAULT"
