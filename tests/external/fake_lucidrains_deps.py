"""What lucidrains' packages (``recipes_lucidrains.py``) import and is not installed here (our text).

- ``frozendict``: einx (which vector-quantize-pytorch imports) freezes a call's keyword arguments into a
  ``frozendict.frozendict`` to use them as a cache key; the stand-in is a dict subclass that hashes its items.
- ``fire``: the vector-quantize-pytorch examples end with ``fire.Fire(train)``; the stand-in calls ``train()`` with
  its defaults, as ``fire`` does without command-line arguments.
- ``tqdm``: the examples' ``tqdm.auto.trange`` bar, whose ``set_description`` text (the training losses) is printed
  on stdout, so the losses the examples only show in the bar are compared.
- ``loguru``: x-transformers (``recipes_xtransformers.py``) imports its ``logger`` and warns through it; the
  stand-in's ``logger`` prints each warning on stdout, so a warning one run gives and the other not shows.
- ``beartype``: MEGABYTE (``recipes_lucidrains2.py``) decorates its constructor with ``@beartype``, a runtime type
  check; the stand-in returns the function unchecked (the drivers pass the annotated types).

The runner's other stand-ins (torchvision's stub, whose datasets the recipes replace) stay while such a script runs.
"""

from __future__ import annotations

from fake_stand_ins import PrintingBar
from fake_stand_ins import module as _module


class frozendict(dict):
    """A dict that is hashable by its items (einx only reads it and uses it as a cache key)."""

    def __hash__(self):
        return hash(tuple(sorted(self.items(), key=repr)))


def _fire(component, *args, **kwargs):
    """``fire.Fire(fn)`` without command-line arguments: ``fn()``."""
    return component() if callable(component) else component


class _Logger:
    """loguru's ``logger``: its messages printed with their level."""

    def _log(self, level, message, *args, **kwargs):
        print(f"{level} | {message.format(*args, **kwargs) if args or kwargs else message}")

    def warning(self, message, *args, **kwargs):
        self._log("WARNING", message, *args, **kwargs)

    def info(self, message, *args, **kwargs):
        self._log("INFO", message, *args, **kwargs)


def modules() -> dict:
    """The stand-in modules by name."""
    auto = _module("tqdm.auto", tqdm=PrintingBar, trange=PrintingBar.trange)
    return {"frozendict": _module("frozendict", frozendict=frozendict),
            "fire": _module("fire", Fire=_fire), "loguru": _module("loguru", logger=_Logger()),
            "beartype": _module("beartype", beartype=lambda fn: fn),
            "tqdm": _module("tqdm", tqdm=PrintingBar, trange=PrintingBar.trange, auto=auto), "tqdm.auto": auto}
