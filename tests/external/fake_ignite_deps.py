"""What PyTorch-Ignite's scripts import and is not installed here, for ``recipes_ignite.py`` (our text).

- ``tqdm``: Ignite's ``ProgressBar`` builds ``tqdm.autonotebook.tqdm`` bars (drawn on stderr, not compared) and its
  examples log through ``tqdm.write`` (stdout): ``fake_pyro_deps``' bar, which counts and draws nothing, and whose
  ``write`` writes the message, also as ``tqdm.autonotebook``.

Ignite itself needs only torch and ``packaging`` (installed); the runner's other stand-ins (torchvision's stub, whose
datasets the recipes replace, and matplotlib's) stay while an Ignite script runs.
"""

from __future__ import annotations

import importlib


def modules() -> dict:
    """The stand-in modules by name."""
    made = importlib.import_module("fake_pyro_deps").modules()
    tqdm = made["tqdm"]
    tqdm.autonotebook = importlib.import_module("fake_lightning_deps")._module("tqdm.autonotebook", tqdm=tqdm.tqdm)
    return {**made, "tqdm.autonotebook": tqdm.autonotebook}
