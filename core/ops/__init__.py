"""All of core's ops, by family; ``core`` and ``Tensor``'s methods take them from here."""

from core.autograd.grad_mode import is_grad_enabled  # noqa: F401 - used by backward formulas
from core._dtype import from_numpy_dtype  # noqa: F401
from core._factories import *  # noqa: F401,F403
from core.ops.conversion import *  # noqa: F401,F403
from core.ops.elementwise import *  # noqa: F401,F403
from core.ops.reduction import *  # noqa: F401,F403
from core.ops.views import *  # noqa: F401,F403

import importlib as _importlib

# Families filled in by later work; each is optional until its module exists.
for _family in ("math", "comparison", "inplace", "indexing", "joining", "linalg", "movement",
                "statistics", "sorting"):
    try:
        _mod = _importlib.import_module(f"core.ops.{_family}")
    except ModuleNotFoundError as _exc:
        if _exc.name != f"core.ops.{_family}":
            raise
        continue
    for _n in getattr(_mod, "__all__", ()):
        globals()[_n] = getattr(_mod, _n)
