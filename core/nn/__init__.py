"""``core.nn``: modules, parameters, containers, layers, losses, ``functional``, ``init``, ``utils``, ``parallel``."""

from core.nn import _module_paths, attention, functional, grad, init, utils  # noqa: F401
from core.nn.containers import *  # noqa: F403
from core.nn.module import Module  # noqa: F401
from core.nn.modules import *  # noqa: F403
from core.nn.parallel import DataParallel  # noqa: F401
from core.nn.parameter import Buffer, Parameter  # noqa: F401

_module_paths.place(__name__)  # torch.nn.modules.sparse.Embedding and PyTorch's other class paths
