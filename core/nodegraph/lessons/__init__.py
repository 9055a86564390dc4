"""The chapter's lessons: their texts and promises (``texts``, re-exported here), the runner that
checks them headless and the learner's checklist."""

from core.nodegraph.lessons.texts import *  # noqa: F403 - the package is the lessons' API
from core.nodegraph.lessons.texts import __all__  # noqa: F401
