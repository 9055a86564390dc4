"""``dir()`` of a core package that lists what PyTorch's lists.

core splits some of PyTorch's modules over more files than PyTorch does (``core.nn.functional.activation``,
``core.autograd.engine``...). Importing a submodule binds it in its package, so ``dir(core.autograd)`` would list
names ``dir(torch.autograd)`` has not. The package's ``__dir__`` leaves those internal submodules out; they stay
importable (``import core.autograd.engine``) for core's own modules and tests.
"""

import sys
import types

__all__ = ["hiding_submodules"]


def hiding_submodules(package: str, internal: tuple[str, ...]):
    """A module-level ``__dir__`` for ``package``: its namespace without the submodules named in ``internal``
    (only where the name is bound to that submodule, so a function of the same name still shows)."""

    def __dir__() -> list[str]:
        namespace = vars(sys.modules[package])
        return sorted(name for name, value in namespace.items()
                      if not (name in internal and isinstance(value, types.ModuleType)
                              and value.__name__ == f"{package}.{name}"))

    return __dir__
