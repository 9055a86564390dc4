"""Ways out of the app: standalone scripts in ``core`` or ``torch`` (``script``, re-exported here),
DistributedDataParallel scripts and the headless command line."""

from core.nodegraph.export.script import *  # noqa: F403 - the package is the exporter's API
from core.nodegraph.export.script import __all__  # noqa: F401
