"""``torch.utils.hooks``: the handle every ``register_*hook`` returns (``RemovableHandle``)."""

from core.autograd.hooks import RemovableHandle

__all__ = ["RemovableHandle"]
