"""Stand-ins for the third batch of books' and courses' scripts (``recipes_books3.py``).

Sebastian Raschka's Deep Learning Fundamentals notebooks read their small tables (the perceptron toy data, the XOR
points, the banknotes) with ``pandas.read_csv``, which the runner stubs (pandas is not installed). ``read_csv`` here
reads such a table into a ``Frame`` that answers what the notebooks ask of it: ``df[["x1", "x2"]].values``,
``df["label"].values``, ``df[[0, 1, 2, 3]].values`` of a table without a header, ``df.head()`` and ``df.shape``.
Columns are int64 when every value is an integer and float64 otherwise, as pandas infers them. Everything is
NumPy, so both runs see the same arrays.

Edward Raff's "Inside Deep Learning" notebooks import ``tqdm.autonotebook`` and ``seaborn`` and train through their
``idlmam.py``, whose ``train_network`` returns ``pd.DataFrame.from_dict(results)`` for plots. ``install_idl()``
(called by an edit before the notebook's imports) registers the two modules for the script, and gives ``idlmam``
``IdlPandas`` as its ``pd``: its ``from_dict`` prints the last epoch's losses and scores (the wall-clock ``total
time`` left out) and returns a ``Frame``, so the training's numbers, which the notebooks only plot, are compared.
"""

from __future__ import annotations

import os
import sys
import types

import numpy as np


class Column:
    """One column (``.values``: its NumPy array)."""

    def __init__(self, name, values):
        self.name, self.values = name, values

    def __repr__(self):
        return f"Column({self.name!r}, {self.values!r})"


class Frame:
    """Named columns of equal length; ``frame[name]`` is a ``Column``, ``frame[[names]]`` a smaller ``Frame``."""

    def __init__(self, columns: dict):
        self.columns = columns

    @property
    def values(self):
        return np.column_stack(list(self.columns.values()))

    @property
    def shape(self):
        return (len(next(iter(self.columns.values()))), len(self.columns))

    def __len__(self):
        return self.shape[0]

    def __getitem__(self, key):
        if isinstance(key, list):
            return Frame({name: self.columns[name] for name in key})
        return Column(key, self.columns[key])

    def head(self, n=5):
        return Frame({name: values[:n] for name, values in self.columns.items()})

    def __repr__(self):
        return f"Frame({len(self)} rows: {list(self.columns)})"


def _column(texts):
    try:
        return np.array([int(t) for t in texts], dtype=np.int64)
    except ValueError:
        return np.array([float(t) for t in texts], dtype=np.float64)


def read_csv(path, sep=",", header="infer"):
    """A small numeric table; the first line names the columns unless ``header=None`` (then they are 0, 1, ...)."""
    with open(path) as f:
        rows = [line.rstrip("\n").split(sep) for line in f if line.strip()]
    names = list(range(len(rows[0]))) if header is None else rows.pop(0)
    return Frame({name: _column(values) for name, values in zip(names, zip(*rows))})


class IdlPandas:
    """``pandas`` as ``idlmam.train_network`` uses it: ``DataFrame.from_dict`` of the per-epoch results."""

    class DataFrame(Frame):
        @staticmethod
        def from_dict(results):
            last = ", ".join(f"{name} {values[-1]!r}" for name, values in results.items()
                             if name != "total time" and values)
            print(f"results after {len(results['epoch'])} epochs: {last}")
            return Frame({name: np.asarray(values) for name, values in results.items()})


def _script_module(name: str, kind=types.ModuleType) -> types.ModuleType:
    """A module the runner forgets after the script: its ``__file__`` is in the script's folder."""
    module = kind(name)
    module.__file__ = os.path.join(os.getcwd(), f"{name}.py")
    sys.modules[name] = module
    return module


def install_idl() -> None:
    """``seaborn`` (the runner's plotting stub), ``tqdm.autonotebook`` (its ``tqdm``) and ``idlmam.pd``."""
    _script_module("seaborn", type(sys.modules["matplotlib"]))
    _script_module("tqdm.autonotebook").tqdm = sys.modules["tqdm"].tqdm
    import idlmam  # the notebook's helper, fetched next to it

    idlmam.pd = IdlPandas
