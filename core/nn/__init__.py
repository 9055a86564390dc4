"""``core.nn``: modules, parameters, containers, layers, losses, ``functional``, ``init``, ``utils``, ``parallel``."""

import sys as _sys

from core._module_dir import hiding_submodules as _hiding_submodules
from core.nn import _module_paths, attention, common_types, functional, grad, init  # noqa: F401
from core.nn import module as _module_file
from core.nn import utils as _nn_utils
from core.nn.containers import *  # noqa: F403
from core.nn.module import Module  # noqa: F401
from core.nn.modules import *  # noqa: F403
from core.nn.modules.lazy import UninitializedBuffer, UninitializedParameter  # noqa: F401
from core.nn.parallel import DataParallel  # noqa: F401
from core.nn.parameter import Buffer, Parameter  # noqa: F401

utils = _nn_utils  # (``nn.modules``' star import above brought its own ``utils`` module under that name)

_module_paths.place(__name__)  # torch.nn.modules.sparse.Embedding and PyTorch's other class paths
_module_paths.place_classes(__name__, "parameter", "UninitializedParameter UninitializedBuffer")
# torch.nn.modules.module's global hooks, defined beside Module
for _hook_fn in ("register_module_forward_pre_hook", "register_module_forward_hook"):
    setattr(_sys.modules[__name__ + ".modules.module"], _hook_fn, getattr(_module_file, _hook_fn))
del _hook_fn


def factory_kwargs(kwargs):
    """``torch.nn.factory_kwargs``: a module's ``device``/``dtype``/``memory_format`` keywords (and an explicit
    ``factory_kwargs`` dict of them) as one dict for the factory functions, with torch's TypeErrors for unknown
    keys and for a key given twice."""
    if kwargs is None:
        return {}
    simple = {"device", "dtype", "memory_format"}
    allowed = simple | {"factory_kwargs"}
    if not kwargs.keys() <= allowed:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - allowed}")
    out = dict(kwargs.get("factory_kwargs", {}))
    for key in simple & kwargs.keys():
        if key in out:
            raise TypeError(f"{key} specified twice, in **kwargs and in factory_kwargs")
        out[key] = kwargs[key]
    return out


def __getattr__(name: str):
    """``nn.quantized``, ``nn.intrinsic`` and ``nn.qat`` (torch's older names for ``torch.ao.nn``'s), imported when
    first used: ``core.ao`` builds on ``core.nn``."""
    if name in ("quantized", "intrinsic", "qat"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# dir() lists torch.nn's names: core's files for Module and the containers stay out of it
__dir__ = _hiding_submodules(__name__, (
    "containers", "module",
))
