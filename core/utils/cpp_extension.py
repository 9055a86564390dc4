"""``torch.utils.cpp_extension``: the names scripts import, without a compiler behind them.

core runs on NumPy, so a C++/CUDA extension built against libtorch has nothing to link to: ``load`` reads its
sources as torch does first (a missing file is torch's ``FileNotFoundError``), then refuses to build. Code that
tries an optional extension and falls back (peft's BOFT butterfly kernel) takes its fallback, as on a machine
without a CUDA toolchain. There is no CUDA or ROCm toolkit here (``CUDA_HOME`` and ``ROCM_HOME`` are None).
"""

from __future__ import annotations

__all__ = ["load", "load_inline", "include_paths", "library_paths", "CppExtension", "CUDAExtension",
           "BuildExtension", "CUDA_HOME", "ROCM_HOME", "IS_HIP_EXTENSION"]

CUDA_HOME = None
ROCM_HOME = None
SYCL_HOME = None
IS_HIP_EXTENSION = False

_NO_BUILD = "core cannot build C++ extensions: it has no libtorch to compile {} against"


def _refuse(name):
    raise RuntimeError(_NO_BUILD.format(repr(name)))


def load(name, sources, extra_cflags=None, extra_cuda_cflags=None, extra_sycl_cflags=None, extra_ldflags=None,
         extra_include_paths=None, build_directory=None, verbose=False, with_cuda=None, with_sycl=None,
         is_python_module=True, is_standalone=False, keep_intermediates=True):
    """Read ``sources`` (torch hashes them first, so a missing one raises ``FileNotFoundError``), then refuse."""
    for path in [sources] if isinstance(sources, str) else sources:
        with open(path, "rb"):
            pass
    _refuse(name)


def load_inline(name, cpp_sources, cuda_sources=None, sycl_sources=None, functions=None, extra_cflags=None,
                extra_cuda_cflags=None, extra_sycl_cflags=None, extra_ldflags=None, extra_include_paths=None,
                build_directory=None, verbose=False, with_cuda=None, with_sycl=None, is_python_module=True,
                with_pytorch_error_handling=True, keep_intermediates=True, use_pch=False, no_implicit_headers=False):
    _refuse(name)


def include_paths(device_type: str = "cpu", torch_include_dirs=True) -> list:
    return []


def library_paths(device_type: str = "cpu", torch_include_dirs=True, cross_target_platform=None) -> list:
    return []


def CppExtension(name, sources, *args, **kwargs):
    _refuse(name)


def CUDAExtension(name, sources, *args, **kwargs):
    _refuse(name)


class BuildExtension:
    """setuptools' build_ext for torch extensions: nothing to build against here."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError(_NO_BUILD.format("an extension"))

    @classmethod
    def with_options(cls, **options):
        return cls
