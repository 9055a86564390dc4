"""Stand-ins for recipes_examples_more's scripts (our code): what d2l-pytorch imports but does not need here.

``no_cv2()`` puts an empty ``cv2`` module in ``sys.modules``: d2l-pytorch's package imports OpenCV in
``ssd_utils.py`` and calls it only to draw the Pikachu detection images, which these scripts never do.
``factorial`` is ``scipy.special.factorial`` for arrays of non-negative integers (float64 results), which the
polynomial-fitting notebook divides its features by.
"""

from __future__ import annotations

import math
import sys
import types

import numpy as np


def no_cv2() -> None:
    sys.modules.setdefault("cv2", types.ModuleType("cv2"))


def factorial(n):
    values = np.asarray(n)
    return np.vectorize(lambda k: float(math.factorial(int(k))), otypes=[np.float64])(values)


class ZeroTimer:
    """d2l-pytorch's ``Timer`` with every recorded time 0: its training loops print seconds per epoch."""

    def __init__(self):
        self.times = []

    def start(self):
        pass

    def stop(self):
        self.times.append(0.0)
        return 0.0

    def avg(self):
        return 0.0

    def sum(self):
        return 0.0

    def cumsum(self):
        return [0.0] * len(self.times)
