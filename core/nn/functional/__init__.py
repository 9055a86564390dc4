"""``core.nn.functional``: PyTorch's functional layers, activations and losses."""

from core._module_dir import hiding_submodules as _hiding_submodules
from core.nn import grad  # noqa: F401  (torch.nn.functional.grad is torch.nn.grad)
from core.nn.functional.activation import *  # noqa: F403
from core.nn.functional.activation_more import *  # noqa: F403
from core.nn.functional.attention import *  # noqa: F403
from core.nn.functional.attention import _canonical_mask  # noqa: F401  (imported by copied attention code)
from core.nn.functional.bags import *  # noqa: F403
from core.nn.functional.conv import *  # noqa: F403
from core.nn.functional.ctc import *  # noqa: F403
from core.nn.functional.extra import *  # noqa: F403
from core.nn.functional.fractional_pool import *  # noqa: F403
from core.nn.functional.grid import *  # noqa: F403
from core.nn.functional.inplace_forms import *  # noqa: F403
from core.nn.functional.linear_cross_entropy import *  # noqa: F403
from core.nn.functional.loss import *  # noqa: F403
from core.nn.functional.loss_more import *  # noqa: F403
from core.nn.functional.misc import *  # noqa: F403
from core.nn.functional.multilabel import *  # noqa: F403
from core.nn.functional.norm import *  # noqa: F403
from core.nn.functional.pooling import *  # noqa: F403
from core.nn.functional.pooling_3d import *  # noqa: F403
from core.nn.functional.pooling_more import *  # noqa: F403
from core.nn.functional.sliding import *  # noqa: F403
from core.nn.functional.upsampling import *  # noqa: F403
from core.nn.functional.volumetric import *  # noqa: F403
from core.ops.native_forms import conv_tbc  # noqa: F401  (torch.nn.functional.conv_tbc is torch.conv_tbc)
from core.overrides import (  # noqa: F401  (torch.nn.functional imports them: code reaches them through it)
    handle_torch_function,
    has_torch_function,
    has_torch_function_unary,
    has_torch_function_variadic,
)


def assert_int_or_pair(arg, arg_name: str, message: str) -> None:
    """torch.nn.functional's check that ``arg`` is an int or a pair (``message`` formatted with ``arg_name``)."""
    if not (isinstance(arg, int) or len(arg) == 2):
        raise AssertionError(message.format(arg_name))


# dir() lists torch.nn.functional's names: the files core groups the functions in stay out of it
__dir__ = _hiding_submodules(__name__, (
    "activation", "activation_gelu", "activation_kernels", "activation_more", "attention", "bags", "conv", "ctc",
    "extra", "extra_kernels", "fractional_pool", "grid", "inplace_forms", "linear_cross_entropy", "loss", "loss_more",
    "misc", "multilabel", "norm", "pooling", "pooling_3d", "pooling_more", "sliding", "upsampling", "volumetric",
))
