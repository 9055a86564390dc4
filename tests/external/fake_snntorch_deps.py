"""What snnTorch's package (``recipes_snntorch.py``) imports and the runner's stand-ins lack (our text).

``snntorch.spikeplot`` imports ``matplotlib.gridspec.GridSpec``, ``matplotlib.figure.Figure``,
``matplotlib.artist.Artist`` and ``matplotlib.animation.ArtistAnimation`` at module level (the tutorials import it
to draw rasters and animations). The runner's matplotlib is a stub that draws nothing, with no such submodules; these
three are stubs of the same kind, so the tutorials' plotting calls do nothing in both runs. Its ``pandas`` (the spike
counter's bar chart) is the runner's stub too.

``tqdm``: the regression tutorials train inside ``with tqdm.trange(n) as pbar`` and show each loss with
``pbar.set_postfix(loss=...)``; the stand-in iterates ``range(n)`` and prints the postfix, so those losses are compared.
"""

from __future__ import annotations

import importlib.machinery
import sys
import types


class _Bar:
    """``tqdm.trange(n)``'s bar: iterates ``range(n)``, a context manager, prints each ``set_postfix``."""

    def __init__(self, iterable=None, *args, **kwargs):
        self.iterable = iterable if iterable is not None else []

    def __iter__(self):
        return iter(self.iterable)

    def __len__(self):
        return len(self.iterable)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def set_postfix(self, *args, **kwargs):
        print("postfix", *args, *(f"{k}={v}" for k, v in kwargs.items()))

    def set_description(self, text="", refresh=True):
        print("description", text)

    def update(self, n=1):
        pass

    def close(self):
        pass


def _trange(*args, **kwargs):
    return _Bar(range(*args), **kwargs)


def modules() -> dict:
    """The stand-in modules by name: stubs of the class of the runner's matplotlib stub."""
    stub = type(sys.modules["matplotlib"])  # the runner's _Stub (its stand-ins stay while snnTorch's scripts run)
    made = {}
    for name in ("matplotlib.gridspec", "matplotlib.figure", "matplotlib.artist"):
        made[name] = stub(name)
    tqdm = types.ModuleType("tqdm")
    tqdm.tqdm, tqdm.trange = _Bar, _trange
    tqdm.__spec__ = importlib.machinery.ModuleSpec("tqdm", None)  # (torch's imports ask find_spec("tqdm"))
    made["tqdm"] = tqdm
    return made
