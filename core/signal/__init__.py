"""``torch.signal``: window functions (``core.signal.windows``)."""

from core.signal import windows

__all__ = ["windows"]
