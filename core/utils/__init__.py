"""``core.utils``: data loading (``core.utils.data``) and activation checkpointing, as ``torch.utils``."""

from core._module_dir import hiding_submodules as _hiding_submodules
from core.utils import _pytree, backcompat, checkpoint, data, dlpack, hooks  # noqa: F401
from core.utils.swap import swap_tensors  # noqa: F401


def __getattr__(name):
    """``flop_counter``, ``module_tracker`` and ``_python_dispatch`` load on first use (they switch core's dispatch
    on when used)."""
    if name in ("flop_counter", "module_tracker", "_python_dispatch"):
        import importlib

        return importlib.import_module(f"core.utils.{name}")
    raise AttributeError(f"module 'core.utils' has no attribute '{name}'")


# dir() lists torch.utils' names: torch.utils.swap_tensors lives in core's own file
__dir__ = _hiding_submodules(__name__, (
    "swap",
))
