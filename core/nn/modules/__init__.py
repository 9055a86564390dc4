"""Layer classes by family; ``core.nn`` re-exports all of them."""

from types import ModuleType as _ModuleType

from core._module_dir import hiding_submodules as _hiding_submodules
from core.nn.modules.activation import *  # noqa: F403
from core.nn.modules.activation_more import *  # noqa: F403
from core.nn.modules.adaptive import *  # noqa: F403
from core.nn.modules.conv import *  # noqa: F403
from core.nn.modules.ctc import *  # noqa: F403
from core.nn.modules.deprecated import *  # noqa: F403
from core.nn.modules.dropout import *  # noqa: F403
from core.nn.modules.extra import *  # noqa: F403
from core.nn.modules.lazy import *  # noqa: F403
from core.nn.modules.lazy_more import *  # noqa: F403
from core.nn.modules.linear import *  # noqa: F403
from core.nn.modules.linear_cross_entropy import *  # noqa: F403
from core.nn.modules.loss import *  # noqa: F403
from core.nn.modules.multilabel import *  # noqa: F403
from core.nn.modules.normalization import *  # noqa: F403
from core.nn.modules.padding import *  # noqa: F403
from core.nn.modules.pooling import *  # noqa: F403
from core.nn.modules.pooling_3d_more import *  # noqa: F403
from core.nn.modules.pooling_more import *  # noqa: F403
from core.nn.modules.rnn import *  # noqa: F403
from core.nn.modules.sliding import *  # noqa: F403
from core.nn.modules.transformer import *  # noqa: F403
from core.nn.modules.upsampling import *  # noqa: F403
from core.nn.modules.volumetric import *  # noqa: F403

# core.nn's star import takes the layer classes, not the files they are defined in
__all__ = [_name for _name, _value in globals().items()
           if not _name.startswith("_") and not isinstance(_value, _ModuleType)]

# dir() lists torch.nn.modules' names: core's extra files stay out of it
__dir__ = _hiding_submodules(__name__, (
    "activation_more", "ctc", "deprecated", "extra", "lazy_more", "linear_cross_entropy", "multilabel",
    "pooling_3d_more", "pooling_more", "sliding", "volumetric",
))
