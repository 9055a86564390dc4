"""``torch.nn.intrinsic``: torch's older name for ``torch.ao.nn.intrinsic`` (the same classes)."""

from core.ao.nn.intrinsic import *  # noqa: F403
from core.ao.nn.intrinsic import __all__, qat  # noqa: F401
