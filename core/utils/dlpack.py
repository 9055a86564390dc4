"""``torch.utils.dlpack``: ``from_dlpack`` and the legacy ``to_dlpack`` capsule (``core/_dlpack.py``)."""

from core._dlpack import from_dlpack, to_dlpack

__all__ = ["from_dlpack", "to_dlpack"]
