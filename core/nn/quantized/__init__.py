"""``torch.nn.quantized``: torch's older name for ``torch.ao.nn.quantized`` (the same classes)."""

from core.ao.nn.quantized import *  # noqa: F403
from core.ao.nn.quantized import __all__, dynamic  # noqa: F401
