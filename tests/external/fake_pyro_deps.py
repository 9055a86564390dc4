"""What Pyro imports and is not installed here, for ``recipes_pyro.py``'s scripts (our text).

- ``tqdm``: ``pyro.infer.mcmc`` imports ``tqdm.tqdm`` and ``tqdm.auto.tqdm``; MCMC draws a progress bar per chain (on
  stderr, not compared) and logs its warm-up messages through ``tqdm.write``. The bar is ``fake_lightning_deps``'
  class (it iterates, counts and draws nothing; it has no ``ncols``, which Pyro clamps when a real bar has one) with
  ``write``, which writes the message to the file it names, as tqdm's does.

Pyro's other dependencies are pure Python and fetched beside each script (``pyroapi``, ``opt_einsum``); the runner's
other stand-ins (matplotlib, pandas...) stay while a Pyro script runs.
"""

from __future__ import annotations

import importlib
import sys


def modules() -> dict:
    """The stand-in modules by name."""
    deps = importlib.import_module("fake_lightning_deps")

    class Tqdm(deps._Tqdm):
        @staticmethod
        def write(s, file=None, end="\n", nolock=False):
            (file or sys.stdout).write(f"{s}{end}")

    tqdm = deps._module("tqdm", tqdm=Tqdm, __version__="4.67.1")
    tqdm.auto = deps._module("tqdm.auto", tqdm=Tqdm)
    return {"tqdm": tqdm, "tqdm.auto": tqdm.auto}
