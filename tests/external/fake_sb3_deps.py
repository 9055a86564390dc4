"""What Stable-Baselines3 imports and is not installed here, for ``recipes_sb3.py``'s scripts (our text).

The runner installs these (``modules()``) in both runs while a script whose folder holds ``stable_baselines3`` runs,
and takes them out afterwards; its own stand-ins (matplotlib, tqdm...) are out of the way meanwhile, so SB3's guarded
imports of tqdm, rich's progress bar, psutil and tensorboard's writer find nothing, as where they are not installed.

- ``pandas``: ``common/logger.py`` and ``common/monitor.py`` import it at module level (``pandas.DataFrame`` in their
  annotations); ``monitor.load_results`` reads ``Monitor``'s CSV files with ``read_csv``, ``empty``, ``concat``,
  ``sort_values`` and ``reset_index``, ``logger.read_csv``/``read_json`` read the logger's files. ``DataFrame`` here is
  a dict of NumPy columns with those methods (a column is int64 where every value is an integer, float64 otherwise, as
  pandas infers them), not pandas.
- ``matplotlib.figure``: ``logger.Figure``'s annotation names ``matplotlib.figure.Figure``; nothing draws.

Gymnasium and cloudpickle are pure Python and fetched beside each script with SB3.
"""

from __future__ import annotations

import csv
import io
import json

import numpy as np
from fake_stand_ins import module


def _column(values: list) -> np.ndarray:
    """A CSV column as pandas infers it: int64 if every value is an integer, float64 if every value is a number."""
    for kind in (np.int64, np.float64):
        try:
            return np.array([kind(v) for v in values], dtype=kind)
        except ValueError:
            continue
    return np.array(values, dtype=object)


class DataFrame:
    """A table of named NumPy columns: what SB3's monitor and logger readers do with a ``pandas.DataFrame``."""

    def __init__(self, data=None, columns=None):
        if isinstance(data, list):  # rows (dicts), as ``read_json`` gives them
            keys = list(dict.fromkeys(k for row in data for k in row))
            data = {k: [row.get(k, np.nan) for row in data] for k in keys}
        self._columns = {k: np.asarray(v) for k, v in (data or {}).items()}
        for name in columns or ():
            self._columns.setdefault(name, np.array([], dtype=np.float64))
        self.index = np.arange(len(self))

    @property
    def columns(self) -> list:
        return list(self._columns)

    def keys(self) -> list:
        return self.columns

    @property
    def empty(self) -> bool:
        return len(self) == 0

    def __len__(self) -> int:
        return len(next(iter(self._columns.values()))) if self._columns else 0

    def __getitem__(self, name):
        return self._columns[name]

    def __setitem__(self, name, values):
        self._columns[name] = np.asarray(values)

    def __contains__(self, name) -> bool:
        return name in self._columns

    def sort_values(self, by, inplace=False):
        order = np.argsort(self._columns[by], kind="stable")
        frame = self if inplace else DataFrame(dict(self._columns))
        frame._columns = {k: v[order] for k, v in self._columns.items()}
        frame.index = self.index[order]
        return None if inplace else frame

    def reset_index(self, inplace=False):
        frame = self if inplace else DataFrame(dict(self._columns))
        frame._columns = {"index": self.index, **self._columns}
        frame.index = np.arange(len(self))
        return None if inplace else frame

    def __repr__(self) -> str:
        return f"DataFrame({', '.join(f'{k}={v.tolist()!r}' for k, v in self._columns.items())})"


def read_csv(source, index_col=None, comment=None):
    """A CSV file (or open file) with a header line; lines starting with ``comment`` are skipped."""
    text = source.read() if hasattr(source, "read") else open(source).read()
    lines = [line for line in text.splitlines() if line and not (comment and line.startswith(comment))]
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header, body = rows[0], rows[1:]
    return DataFrame({name: _column([row[i] for row in body]) for i, name in enumerate(header)})


def concat(frames):
    frames = list(frames)
    names = list(dict.fromkeys(k for frame in frames for k in frame.columns))
    frame = DataFrame({k: np.concatenate([f[k] for f in frames]) for k in names})
    frame.index = np.concatenate([f.index for f in frames])
    return frame


def _module(name, **attributes):
    return module(name, package="." not in name, **attributes)


def modules() -> dict:
    """The stand-in modules by name."""
    pandas = _module("pandas", DataFrame=DataFrame, read_csv=read_csv, concat=concat, __version__="2.2.3",
                     read_json=lambda path, **kw: DataFrame([json.loads(line) for line in open(path) if line.strip()]))
    figure = _module("matplotlib.figure", Figure=type("Figure", (), {"__module__": "matplotlib.figure"}))
    matplotlib = _module("matplotlib", figure=figure, __version__="3.9.2", __path__=[])
    return {"pandas": pandas, "matplotlib": matplotlib, "matplotlib.figure": figure}
