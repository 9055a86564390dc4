"""``core.utils``: data loading (``core.utils.data``) and activation checkpointing, as ``torch.utils``."""

from core.utils import _pytree, backcompat, checkpoint, data, dlpack  # noqa: F401
from core.utils.swap import swap_tensors  # noqa: F401
