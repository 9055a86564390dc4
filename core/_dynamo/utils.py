"""``torch._dynamo.utils``'s ``is_compile_supported``, which torchvision's ``roi_align`` asks before it takes its
pure-Python path (the one it runs when its C++ ops are missing)."""

from __future__ import annotations

import core

__all__ = ["is_compile_supported"]


def is_compile_supported(device_type) -> bool:
    """Whether ``torch.compile`` can compile code for ``device_type``: on the CPU yes (core's ``compile`` captures and
    replays ops); CUDA, XPU and MTIA need Triton, which core has not, and other devices are unsupported."""
    return core.device(device_type).type == "cpu"
