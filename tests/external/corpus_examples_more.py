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


def fra_zip(path=None) -> bytes:
    """``fra-eng.zip`` as manythings.org serves it, with ``fra.txt`` holding ``corpus_d2l``'s 650 English-French
    pairs (tab-separated); written to ``path`` when given (the notebook's ``!wget`` download)."""
    import io
    import zipfile

    from corpus_d2l import fra_eng

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as f:
        f.writestr("fra.txt", fra_eng())
    if path is not None:
        with open(path, "wb") as out:
            out.write(buffer.getvalue())
    return buffer.getvalue()


class _Response:
    def __init__(self, content: bytes):
        self.content = content

    def iter_content(self, chunk_size=1):
        for i in range(0, len(self.content), chunk_size):
            yield self.content[i:i + chunk_size]


def fra_requests():
    """A ``requests`` whose ``get`` answers with ``fra_zip()``: d2l-pytorch's ``load_data_nmt`` downloads it."""
    return types.SimpleNamespace(get=lambda url, **kwargs: _Response(fra_zip()))
