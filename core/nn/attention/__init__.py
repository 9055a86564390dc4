"""``torch.nn.attention``: ``SDPBackend`` and the ``sdpa_kernel`` context manager.

``sdpa_kernel(backends)`` enables only the listed backends of ``scaled_dot_product_attention`` inside its
``with`` block (through ``core.backends.cuda``'s flags) and restores the flags after, as PyTorch's does. core
computes attention one way whatever the flags say, so the numbers are the same under any choice.
"""

import contextlib
import enum as _enum

from core.backends import cuda as _cuda_flags

__all__ = ["SDPBackend", "sdpa_kernel"]


class _BoundEnumType(_enum.EnumType):
    """Prints an enum class as PyTorch prints its C++-bound ones (``<class 'torch.nn.attention._SDPBackend'>``)."""

    def __repr__(cls):
        return f"<class '{cls.__module__}.{cls.__qualname__}'>"


class SDPBackend(_enum.Enum, metaclass=_BoundEnumType):
    """The attention implementations PyTorch can pick from (``<SDPBackend.MATH: 0>``)."""

    __qualname__ = "_SDPBackend"  # NOTE: PyTorch's class is its C++ binding's, named so

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


_FLAG = {SDPBackend.MATH: "math", SDPBackend.FLASH_ATTENTION: "flash",
         SDPBackend.EFFICIENT_ATTENTION: "mem_efficient", SDPBackend.CUDNN_ATTENTION: "cudnn"}


@contextlib.contextmanager
def sdpa_kernel(backends, set_priority: bool = False):
    """Inside the block only ``backends`` (one or a list of ``SDPBackend``) are enabled."""
    if not isinstance(backends, (list, SDPBackend)):
        raise AssertionError(f"Backend must be an instance of SDPBackend or a list of SDPBackend instances, got "
                             f"{type(backends).__name__}")
    chosen = [backends] if isinstance(backends, SDPBackend) else backends
    flags = _cuda_flags._SDP
    before = dict(flags)
    flags.update({name: backend in chosen for backend, name in _FLAG.items()})
    try:
        yield {}
    finally:
        flags.update(before)
