"""Stand-ins for ``recipes_courses4`` (our code, committed; corpus helper s31 COURSES).

``StillClock`` is the ``time`` module for a notebook that prints elapsed minutes: its clock stands still, so both
runs print the same times. ``read_csv`` reads the course's small CSV files (iris, a linear-regression table, XOR
points) into ``DataFrame``, the few of pandas' names its notebooks use (pandas is not installed); ``fashion_csv`` is
Kaggle's Fashion-MNIST CSV as such a table.
"""

from __future__ import annotations

import time as _time

import numpy as np


class StillClock:
    """``time`` with ``time()`` and ``perf_counter()`` at 0 (elapsed times print 0.00); the rest is the real module."""

    def time(self) -> float:
        return 0.0

    def perf_counter(self) -> float:
        return 0.0

    def __getattr__(self, name):
        return getattr(_time, name)


def _parse(text: str):
    """A CSV cell as pandas reads it: an int, a float, else the string."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _array(values: list) -> np.ndarray:
    """A column's values as pandas holds them: int64 or float64 where all are numbers, else objects."""
    if all(isinstance(v, int) for v in values):
        return np.array(values, dtype=np.int64)
    if all(isinstance(v, (int, float)) for v in values):
        return np.array(values, dtype=np.float64)
    return np.array(values, dtype=object)


class Series:
    """A column: ``values``, ``apply``, ``map`` (a dict or a function) and ``len``."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def apply(self, function) -> Series:
        return Series(_array([function(v) for v in self.values.tolist()]))

    def map(self, mapping) -> Series:
        function = mapping.get if isinstance(mapping, dict) else mapping
        return self.apply(function)

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self) -> str:
        return f"Series({self.values.tolist()!r})"


class _ILoc:
    def __init__(self, frame: DataFrame):
        self.frame = frame

    def __getitem__(self, key):
        """``iloc[rows]`` or ``iloc[rows, columns]``: a column's position gives a Series, a slice a DataFrame."""
        rows, columns = key if isinstance(key, tuple) else (key, slice(None))
        names = self.frame.columns[columns]
        if not isinstance(names, list):
            return Series(self.frame._columns[names][rows])
        return DataFrame({name: self.frame._columns[name][rows] for name in names})


class DataFrame:
    """pandas' ``DataFrame`` as the course's notebooks use it: ``columns`` (read and set), ``iloc`` rows, a column
    or a list of columns by name, column assignment, ``values``, ``head``/``tail`` and ``shape``."""

    def __init__(self, columns: dict):
        self._columns = dict(columns)

    @property
    def columns(self) -> list:
        return list(self._columns)

    @columns.setter
    def columns(self, names) -> None:
        self._columns = dict(zip(names, self._columns.values()))

    @property
    def iloc(self) -> _ILoc:
        return _ILoc(self)

    @property
    def shape(self) -> tuple:
        return (len(next(iter(self._columns.values()))), len(self._columns))

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, key):
        if isinstance(key, list):
            return DataFrame({name: self._columns[name] for name in key})
        return Series(self._columns[key])

    def __setitem__(self, key, value) -> None:
        self._columns[key] = value.values if isinstance(value, Series) else np.asarray(value)

    @property
    def values(self) -> np.ndarray:
        return np.stack([column for column in self._columns.values()], axis=1)

    def head(self, n: int = 5) -> DataFrame:
        return self.iloc[:n]

    def tail(self, n: int = 5) -> DataFrame:
        return self.iloc[-n:]

    def __repr__(self) -> str:
        rows = zip(*(column.tolist() for column in self._columns.values()))
        return "\n".join([" ".join(map(str, self.columns)), *(" ".join(map(str, row)) for row in rows)])


def read_csv(path: str, index_col=None, header="infer", sep: str = ",") -> DataFrame:
    """A small CSV file: the first line names the columns unless ``header=None`` (then 0, 1, ...);
    ``index_col=0`` drops the first column (the index)."""
    with open(path) as f:
        rows = [[_parse(cell) for cell in line.rstrip("\n").split(sep)] for line in f if line.strip()]
    names = list(range(len(rows[0]))) if header is None else [str(n) for n in rows.pop(0)]
    columns = {name: _array(list(values)) for name, values in zip(names, zip(*rows))}
    if index_col is not None:
        columns.pop(names[index_col])
    return DataFrame(columns)


def fashion_csv(path: str) -> DataFrame:
    """Kaggle's ``fashion-mnist_train.csv``/``_test.csv`` as a DataFrame (``label``, ``pixel1``...``pixel784``): the
    seeded rows of ``corpus_support.fake_fashion_csv`` (256 training, 100 test)."""
    from corpus_support import fake_fashion_csv

    table = fake_fashion_csv(path).iloc
    names = ["label", *(f"pixel{i}" for i in range(1, table.shape[1]))]
    return DataFrame({name: table[:, i] for i, name in enumerate(names)})
