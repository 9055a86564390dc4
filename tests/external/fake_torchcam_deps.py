"""What torch-cam (``recipes_torchcam.py``) needs and this checkout lacks (our text): its package metadata.

``torchcam/__init__.py`` sets ``__version__ = importlib.metadata.version("torchcam")``, which an installed wheel
answers; loaded from a script's folder, the package has no ``.dist-info``. ``MetadataFinder`` (which the runner puts
on ``sys.meta_path`` while such a script runs) gives ``importlib.metadata`` the release's version, 0.4.1, and finds no
module. Pillow and matplotlib, which ``torchcam.utils`` imports, are the runner's stand-ins (no script draws).
"""

from __future__ import annotations

import importlib.abc
import importlib.metadata

VERSION = "0.4.1"


class _Distribution(importlib.metadata.Distribution):
    def read_text(self, filename):
        return f"Metadata-Version: 2.1\nName: torchcam\nVersion: {VERSION}\n" if filename in ("METADATA",
                                                                                            "PKG-INFO") else None

    def locate_file(self, path):
        return path


class MetadataFinder(importlib.abc.MetaPathFinder):
    """``importlib.metadata`` finds torchcam's distribution through this; it finds no module."""

    def find_spec(self, fullname, path=None, target=None):
        return None

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        if context.name is None or context.name.lower() == "torchcam":
            yield _Distribution()
