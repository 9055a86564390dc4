"""``core.backends.cuda``: whether core can reach CUDA (CuPy installed) and the matmul precision flags."""

from __future__ import annotations

import importlib.util


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


def flash_sdp_enabled() -> bool:
    return False


def math_sdp_enabled() -> bool:
    return True


def preferred_linalg_library(backend=None):
    return "default"
