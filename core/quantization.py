"""``torch.quantization``: torch's older name for ``torch.ao.quantization`` (the same functions)."""

from core.ao.quantization import *  # noqa: F403
from core.ao.quantization import __all__  # noqa: F401
