"""``torch.__config__``: how the library was built, as text (``show``) and its thread settings (``parallel_info``).

Libraries read the build text to choose a code path: PyTorch Geometric checks ``'USE_MKL=OFF' in show()`` before
picking CSR over COO sparse products. core is built on NumPy, without MKL, oneDNN, CUDA or OpenMP, and says so in
PyTorch's ``KEY=VALUE`` form.
"""

from __future__ import annotations

import os

import numpy as np

__all__ = ["show", "parallel_info"]


def _blas_name() -> str:
    try:
        return np.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"]
    except Exception:  # an older NumPy or an unusual build: the name is only informative
        return "unknown"


def show() -> str:
    """The build's description, one ``KEY=VALUE`` setting per comma as PyTorch's ``Build settings`` line."""
    import core

    settings = {"BLAS_INFO": _blas_name(), "BUILD_TYPE": "Release", "TORCH_VERSION": core.__version__.split("+")[0],
                "USE_CUDA": "0", "USE_CUDNN": "OFF", "USE_MKL": "OFF", "USE_MKLDNN": "OFF", "USE_MPI": "OFF",
                "USE_NCCL": "OFF", "USE_OPENMP": "OFF", "USE_ROCM": "OFF", "USE_XPU": "OFF"}
    line = "".join(f"{key}={value}, " for key, value in settings.items())
    return (f"PyTorch built with:\n  - NumPy {np.__version__}\n  - CPU capability usage: NumPy's\n"
            f"  - Build settings: {line}\n")


def parallel_info() -> str:
    """The thread counts ``torch.get_num_threads`` and ``get_num_interop_threads`` report."""
    import core

    return (f"ATen/Parallel:\n\tat::get_num_threads() : {core.get_num_threads()}\n"
            f"\tat::get_num_interop_threads() : {core.get_num_interop_threads()}\n"
            f"std::thread::hardware_concurrency() : {os.cpu_count()}\nEnvironment variables:\n"
            f"\tOMP_NUM_THREADS : {os.environ.get('OMP_NUM_THREADS', '[not set]')}\n"
            f"\tMKL_NUM_THREADS : {os.environ.get('MKL_NUM_THREADS', '[not set]')}\n"
            "ATen parallel backend: NumPy (no OpenMP)\n")
