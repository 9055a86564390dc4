"""``torch.nn.qat``: torch's older name for ``torch.ao.nn.qat`` (the same classes)."""

from core.ao.nn.qat import *  # noqa: F403
from core.ao.nn.qat import __all__  # noqa: F401
