"""``core.backends.cpu``: what the CPU kernels use."""

from core import _cpu


def get_cpu_capability() -> str:
    """PyTorch's name of the SIMD level its CPU kernels use here ('AVX512', 'AVX2' or 'DEFAULT'), by ATen's rule
    (``core._cpu.capability``: ``ATEN_CPU_CAPABILITY``, else the CPU's flags)."""
    return _cpu.capability()
