"""``torch.nn.quantized.dynamic``: torch's older name for ``torch.ao.nn.quantized.dynamic`` (the same classes)."""

from core.ao.nn.quantized.dynamic import *  # noqa: F403
from core.ao.nn.quantized.dynamic import __all__  # noqa: F401
