"""``core.utils.backcompat``: PyTorch's switches for warnings about pre-broadcasting behaviour.

``broadcast_warning`` and ``keepdim_warning`` each hold an ``enabled`` flag (off by default), as in PyTorch, where
they are flags that no kernel reads any more: setting one changes no result and warns about nothing.
"""

from __future__ import annotations

__all__ = ["Warning", "broadcast_warning", "keepdim_warning"]


class Warning:  # (PyTorch's name, shadowing the builtin inside this module only)
    """One switch: ``enabled`` reads and writes the flag through ``getter`` and ``setter``."""

    def __init__(self, setter, getter) -> None:
        self.setter = setter
        self.getter = getter

    def set_enabled(self, value) -> None:
        self.setter(value)

    def get_enabled(self):
        return self.getter()

    enabled = property(get_enabled, set_enabled)


_flags = {"broadcast": False, "keepdim": False}


def _switch(name: str) -> Warning:
    return Warning(lambda value: _flags.__setitem__(name, bool(value)), lambda: _flags[name])


broadcast_warning = _switch("broadcast")
keepdim_warning = _switch("keepdim")
