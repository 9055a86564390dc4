"""``core.utils``: data loading utilities (``core.utils.data``), as ``torch.utils``."""

from core.utils import data  # noqa: F401
