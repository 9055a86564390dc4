"""``core.backends.cuda``: whether core can reach CUDA (CuPy installed), the matmul precision flags and the
scaled-dot-product-attention backend flags (``enable_flash_sdp``, ``sdp_kernel``...)."""

from __future__ import annotations

import contextlib
import importlib.util

from core._user_warning import warn_in_core


def is_built() -> bool:
    """True when CuPy is installed (core's CUDA backend), whether or not a GPU is present."""
    return importlib.util.find_spec("cupy") is not None


class _MatmulFlags:
    """``torch.backends.cuda.matmul``: readable and settable flags with PyTorch's defaults."""

    def __init__(self):
        self.allow_tf32 = False
        self.allow_fp16_reduced_precision_reduction = True
        self.allow_bf16_reduced_precision_reduction = True


matmul = _MatmulFlags()


# scaled_dot_product_attention's backends, all enabled as in PyTorch. core always computes the math way; the
# flags are kept so that scripts (and nn.attention.sdpa_kernel) can set and read them.
_SDP = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled() -> bool:
    return _SDP["flash"]


def mem_efficient_sdp_enabled() -> bool:
    return _SDP["mem_efficient"]


def math_sdp_enabled() -> bool:
    return _SDP["math"]


def cudnn_sdp_enabled() -> bool:
    return _SDP["cudnn"]


def enable_flash_sdp(enabled: bool) -> None:
    _SDP["flash"] = bool(enabled)


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _SDP["mem_efficient"] = bool(enabled)


def enable_math_sdp(enabled: bool) -> None:
    _SDP["math"] = bool(enabled)


def enable_cudnn_sdp(enabled: bool) -> None:
    _SDP["cudnn"] = bool(enabled)


def sdp_kernel(enable_flash: bool = True, enable_math: bool = True, enable_mem_efficient: bool = True,
               enable_cudnn: bool = True):
    """The deprecated context manager: sets the four flags inside, restores them after. PyTorch's warning comes
    when it is made (from its ``contextlib`` wrapper: not the user's line)."""
    warn_in_core("`torch.backends.cuda.sdp_kernel()` is deprecated. In the future, this context manager will be "
                 "removed. Please see `torch.nn.attention.sdpa_kernel()` for the new context manager, with updated "
                 "signature.", FutureWarning)
    return _sdp_kernel(enable_flash, enable_math, enable_mem_efficient, enable_cudnn)


@contextlib.contextmanager
def _sdp_kernel(enable_flash, enable_math, enable_mem_efficient, enable_cudnn):
    before = dict(_SDP)
    _SDP.update(flash=bool(enable_flash), math=bool(enable_math), mem_efficient=bool(enable_mem_efficient),
                cudnn=bool(enable_cudnn))
    try:
        yield {}
    finally:
        _SDP.update(before)


def preferred_linalg_library(backend=None):
    return "default"
