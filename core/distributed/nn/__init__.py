"""``torch.distributed.nn``: collectives that autograd differentiates, for a world of one process (``functional``).

PyTorch's module also holds ``RemoteModule`` (RPC), which core's single process does not offer."""

from core.distributed.nn.functional import *  # noqa: F403
from core.distributed.nn.functional import __all__  # noqa: F401
