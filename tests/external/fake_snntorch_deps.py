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

import sys

from fake_stand_ins import Bar, module


class _Bar(Bar):
    """``tqdm.trange(n)``'s bar: prints each ``set_postfix`` and ``set_description``, named."""

    def set_postfix(self, *args, **kwargs):
        print("postfix", *args, *(f"{k}={v}" for k, v in kwargs.items()))

    def set_description(self, text="", refresh=True):
        print("description", text)


def modules() -> dict:
    """The stand-in modules by name: stubs of the class of the runner's matplotlib stub."""
    stub = type(sys.modules["matplotlib"])  # the runner's _Stub (its stand-ins stay while snnTorch's scripts run)
    made = {}
    for name in ("matplotlib.gridspec", "matplotlib.figure", "matplotlib.artist"):
        made[name] = stub(name)
    made["tqdm"] = module("tqdm", tqdm=_Bar, trange=_Bar.trange)
    return made
