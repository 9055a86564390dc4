"""What the two SLEEF log "unchanged" tests share (``test_sleef_logf_unchanged.py`` and
``test_sleef_log1pf_unchanged.py``): the last steps of ``logf_u10`` and ``log1pf_u10`` as they stood before the cut
(commit fd5497b3, verbatim but for the name), the float32 bit view the tests compare, and hypothesis's draws of
sizes and seeds, so that both references finish alike and a fix to one reaches both."""

import numpy as np
from hypothesis import strategies as st

F32, F64 = np.float32, np.float64
K_TWO = np.array(2, F32)
SEEDS = st.integers(0, 2**32 - 1)


def sizes(middle: int):
    """Array sizes: the empty one, around SLEEF's 8-lane and 8192-element block edges, ``middle`` (a size the test's
    callers use), 1600, 100,000, and any size up to 20,000."""
    fixed = [0, 1, 7, 8, 9, 16, middle, 1600, 8192, 8193, 100_000]
    return st.one_of(st.sampled_from(fixed), st.integers(1, 20_000))


def bits(x) -> np.ndarray:
    """``x``'s float32 bit patterns, so that NaNs and signed zeros compare exactly."""
    return np.asarray(x, F32).view(np.uint32)


def old_log_finish(pair, sx, sy, xx, x2, poly):
    """The last steps SLEEF's ``logf_u10`` and ``log1pf_u10`` share: ``e ln 2`` as the double-float ``(sx, sy)``,
    plus ``2 x`` (``pair`` holds ``x`` and its error part, doubled by one multiply), plus ``x2 x poly``, summed as
    its double-float additions do and rounded once."""
    a, b = np.multiply(pair, K_TWO)  # s += 2 x, then s += x2 x poly
    s0 = sx + a
    s1 = sx - s0
    s1 += a
    s1 += sy
    s1 += b
    w = x2 * xx
    w *= poly
    r0 = s0 + w
    s0 -= r0
    s0 += w
    s0 += s1
    r0 += s0
    return r0
