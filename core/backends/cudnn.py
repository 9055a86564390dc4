"""``core.backends.cudnn``: cuDNN's flags (no cuDNN in core: ``is_available()`` is False)."""

enabled = True
benchmark = False
benchmark_limit = 10
deterministic = False
allow_tf32 = True


def is_available() -> bool:
    return False


def version():
    return None
