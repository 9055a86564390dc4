"""``core.backends.openmp``: core's kernels are NumPy's; no OpenMP of its own."""


def is_available() -> bool:
    return False
