"""``core.backends.mkldnn``: oneDNN's switch (core has no oneDNN)."""

import sys

from core.backends import _guard_flags

enabled = True
deterministic = False


def is_available() -> bool:
    return False


_guard_flags(sys.modules[__name__], ("enabled", "deterministic"))
