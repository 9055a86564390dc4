"""Training a document: the canonical loop (``trainer.Training``, re-exported here), runs and their
metrics, the validation split, the watch list. Holds a session; never builds one."""

from core.nodegraph.training.trainer import *  # noqa: F403 - the package is the trainer's API
from core.nodegraph.training.trainer import __all__  # noqa: F401
