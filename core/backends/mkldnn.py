"""``core.backends.mkldnn``: oneDNN's switch (core has no oneDNN)."""

enabled = True


def is_available() -> bool:
    return False
