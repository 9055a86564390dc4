"""``core.backends.mps``: Apple's Metal backend; core has none, so both answers are False."""


def is_available() -> bool:
    return False


def is_built() -> bool:
    return False
