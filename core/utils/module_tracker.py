"""``torch.utils.module_tracker.ModuleTracker``: which ``nn.Module``s are running, by fully qualified name.

Inside ``with ModuleTracker() as tracker:``, ``tracker.parents`` is ``{"Global"}`` plus the name of every module
whose call is on the stack (``"Sequential"``, ``"Sequential.0"``: a top module by its class name, a child by its
parent's name and its attribute, as torch names them). Core reads the modules from the Python call stack (frames
of ``Module._call_impl``) instead of torch's global module hooks, so it costs nothing outside the tracker; during a
backward ``parents`` is ``{"Global"}`` and ``is_bw`` stays False (torch follows the modules into the backward).
"""

from __future__ import annotations

import sys
import weakref

__all__ = ["ModuleTracker"]


def _call_codes() -> tuple:
    from core.nn.module import Module

    return (Module._call_impl.__code__,)


class ModuleTracker:
    """Tracks the module hierarchy during execution; ``parents`` is never empty (it holds "Global")."""

    def __init__(self) -> None:
        self._known_modules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seen_modules: weakref.WeakSet = weakref.WeakSet()
        self._active = False
        self.is_bw = False

    def _get_mod_name(self, mod) -> str:
        if mod not in self._known_modules:
            self._known_modules[mod] = type(mod).__name__
        name = self._known_modules[mod]
        if mod not in self._seen_modules:
            for child_name, child in mod.named_children():
                self._known_modules[child] = f"{name}.{child_name}"
                self._get_mod_name(child)
            self._seen_modules.add(mod)
        return name

    def running_modules(self) -> list:
        """The modules whose call is on the stack, outermost first."""
        codes, found = _call_codes(), []
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code in codes:
                module = frame.f_locals.get("self")
                if module is not None:
                    found.append(module)
            frame = frame.f_back
        return found[::-1]

    @property
    def parents(self) -> set:
        if not self._active:
            return {"Global"}
        return {"Global", *(self._get_mod_name(m) for m in self.running_modules())}

    def __enter__(self):
        self._active = True
        return self

    def __exit__(self, *args):
        self._active = False
