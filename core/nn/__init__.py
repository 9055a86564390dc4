"""``core.nn``: modules, parameters, containers, layers, losses, ``functional``, ``init``, ``utils``, ``parallel``."""

from core.nn import attention, functional, init, utils  # noqa: F401
from core.nn.containers import *  # noqa: F403
from core.nn.module import Module  # noqa: F401
from core.nn.modules import *  # noqa: F403
from core.nn.parallel import DataParallel  # noqa: F401
from core.nn.parameter import Buffer, Parameter  # noqa: F401
