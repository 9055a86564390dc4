"""``core.nn.functional``: PyTorch's functional layers, activations and losses."""

from core.nn.functional.activation import *  # noqa: F403
from core.nn.functional.activation_more import *  # noqa: F403
from core.nn.functional.attention import *  # noqa: F403
from core.nn.functional.bags import *  # noqa: F403
from core.nn.functional.conv import *  # noqa: F403
from core.nn.functional.extra import *  # noqa: F403
from core.nn.functional.grid import *  # noqa: F403
from core.nn.functional.loss import *  # noqa: F403
from core.nn.functional.loss_more import *  # noqa: F403
from core.nn.functional.misc import *  # noqa: F403
from core.nn.functional.norm import *  # noqa: F403
from core.nn.functional.pooling import *  # noqa: F403
from core.nn.functional.pooling_more import *  # noqa: F403
from core.nn.functional.sliding import *  # noqa: F403
from core.nn.functional.upsampling import *  # noqa: F403
from core.nn.functional.volumetric import *  # noqa: F403
