"""Stand-ins for recipes_tutorials_more's pages (our code): the face-landmarks data of "Writing Custom Datasets,
DataLoaders and Transforms" (a download), read through the two libraries the page imports and we do not install.

``pd.read_csv`` returns a frame of 69 faces (as the real set has) named ``face_00.jpg`` ... with 68 landmarks each,
integer (x, y) pairs drawn from a seeded NumPy generator inside each face's image; ``frame.iloc[i, 0]`` is the name,
``frame.iloc[i, 1:]`` the row of 136 coordinates (with pandas' ``to_numpy``). ``io.imread`` gives each face its own
seeded uint8 RGB image of 260 to 400 rows and columns; ``transform.resize`` scales to the asked size by nearest
neighbours and to floats in [0, 1] as scikit-image's does (not its interpolation). Only NumPy: both runs see the same
arrays, so what differs is what torch (or core) makes of them.

``write_ani(root)`` writes the Customizing Data Loading page's simplified ANI-1 set (a download): 100 molecules, each
``<i>.xyz.npy`` (conformations, atoms, 3) in float32 and ``<i>.energy.npy`` (conformations,) in float64, with 3 to 20
atoms and 1 to 200 seeded conformations, so that its 64-conformation chunks split some molecules and not others.

``tick_clock()`` stands in for the ``time`` module of the Data Loading Optimization page, whose prints are timings:
``perf_counter`` counts one second per call (so each measured span is 1.0 s and each speedup 1.00x, in both runs) and
``sleep`` (its simulated transform cost) returns at once.
"""

from __future__ import annotations

import itertools
import os
import types

import numpy as np

FACES = 69
POINTS = 68


def _size(i: int) -> tuple[int, int]:
    rows, cols = np.random.RandomState(1000 + i).randint(260, 401, size=2)
    return int(rows), int(cols)


class _Row(np.ndarray):
    def to_numpy(self):
        return np.asarray(self)


class _ILoc:
    def __init__(self, frame: _Frame):
        self._frame = frame

    def __getitem__(self, key):
        i, columns = key
        name, values = self._frame.rows[i]
        if columns == 0:
            return name
        assert columns == slice(1, None), "the stand-in knows the page's two column picks"
        return values.view(_Row)


class _Frame:
    def __init__(self):
        self.rows = []
        for i in range(FACES):
            rows, cols = _size(i)
            rng = np.random.RandomState(i)
            points = np.stack([rng.randint(0, cols, POINTS), rng.randint(0, rows, POINTS)], axis=1)
            self.rows.append((f"face_{i:02d}.jpg", points.reshape(-1).astype(np.int64)))
        self.iloc = _ILoc(self)

    def __len__(self):
        return len(self.rows)


def _read_csv(path, *args, **kwargs) -> _Frame:
    assert os.path.basename(path) == "face_landmarks.csv", path
    return _Frame()


def _imread(path) -> np.ndarray:
    i = int(os.path.basename(path)[len("face_"):-len(".jpg")])
    rows, cols = _size(i)
    return np.random.RandomState(100 + i).randint(0, 256, size=(rows, cols, 3)).astype(np.uint8)


def _resize(image: np.ndarray, output_shape) -> np.ndarray:
    rows, cols = int(output_shape[0]), int(output_shape[1])
    r = (np.arange(rows) * image.shape[0]) // rows
    c = (np.arange(cols) * image.shape[1]) // cols
    return image[r][:, c].astype(np.float64) / 255.0


def write_ani(root: str) -> None:
    os.makedirs(root, exist_ok=True)
    rng = np.random.RandomState(0)
    for i in range(100):
        conformations, atoms = rng.randint(1, 201), rng.randint(3, 21)
        np.save(os.path.join(root, f"{i}.xyz.npy"), rng.randn(conformations, atoms, 3).astype(np.float32))
        np.save(os.path.join(root, f"{i}.energy.npy"), rng.randn(conformations) - 100.0)


def tick_clock() -> types.SimpleNamespace:
    ticks = itertools.count()
    return types.SimpleNamespace(perf_counter=lambda: float(next(ticks)), sleep=lambda seconds: None)


pd = types.SimpleNamespace(read_csv=_read_csv)
io = types.SimpleNamespace(imread=_imread)
transform = types.SimpleNamespace(resize=_resize)
