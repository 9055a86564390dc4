"""What Pyro imports and is not installed here, for ``recipes_pyro.py``'s scripts (our text).

- ``tqdm``: ``pyro.infer.mcmc`` imports ``tqdm.tqdm`` and ``tqdm.auto.tqdm``; MCMC draws a progress bar per chain (on
  stderr, not compared) and logs its warm-up messages through ``tqdm.write``. The bar is ``fake_stand_ins.Bar`` (it
  iterates, counts and draws nothing; it has no ``ncols``, which Pyro clamps when a real bar has one), whose
  ``write`` writes the message to the file it names, as tqdm's does.

Pyro's other dependencies are pure Python and fetched beside each script (``pyroapi``, ``opt_einsum``); the runner's
other stand-ins (matplotlib, pandas...) stay while a Pyro script runs.
"""

from __future__ import annotations

from fake_stand_ins import Bar, module


def modules() -> dict:
    """The stand-in modules by name."""
    tqdm = module("tqdm", tqdm=Bar, __version__="4.67.1")
    tqdm.auto = module("tqdm.auto", tqdm=Bar)
    return {"tqdm": tqdm, "tqdm.auto": tqdm.auto}
