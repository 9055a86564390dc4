"""What Tianshou imports and is not installed here, for ``recipes_tianshou.py``'s scripts (our text).

The runner installs these (``modules()``) in both runs while a script whose folder holds ``tianshou`` runs, and takes
them out afterwards. Tianshou 1.2.0 and Gymnasium are pure Python and fetched beside each script; what they import:

- ``numba.njit``: Tianshou compiles its return computations (``_gae_return``, ``_nstep_return``), its segment tree's
  loops and the buffer manager's index walks with it; here ``njit`` returns the function, so the same NumPy code runs
  as plain Python in both runs (numba's compiled float arithmetic is not asked).
- ``overrides.override``: a decorator that returns the method.
- ``sensai.util``: ``logging`` (the standard library's, with ``datetime_tag``, ``run_main`` calling the function and a
  ``FileLoggerContext`` that writes no file), ``pickle.setstate`` (sets the attributes a pickle lacks, as sensai's
  does), ``hash.pickle_hash`` (a SHA-1 of the pickle), ``string.ToStringMixin`` (attributes listed, ``pprints``) and
  ``git`` (a status that says nothing is known).
- ``deepdiff.DeepDiff``: ``Batch.__eq__`` asks whether two nested dicts of arrays differ; the stand-in compares keys,
  types and values (arrays with ``np.array_equal``) and is empty where they are equal.
- ``h5py``, ``matplotlib.figure.Figure``, ``tensorboard``'s event accumulator, ``pettingzoo``'s
  ``AECEnv``/``BaseWrapper``: names to import (no script writes HDF5 files or reads event files); ``networkx`` is
  ``fake_networkx`` (Tianshou's test environments and Batch tests hold ``nx.Graph`` objects).
- ``pandas.isnull`` (``Batch.isnull``/``hasnull``/``dropnull``): True where a value is None or NaN.
- ``tqdm.tqdm``: the trainers' progress bars, a context manager that counts and draws nothing (``fake_stand_ins.Bar``).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import logging
import pickle
import time

import numpy as np
from fake_stand_ins import Bar, module


def njit(*args, **kwargs):
    """``numba.njit`` with or without arguments: the function itself."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda fn: fn


def setstate(cls, obj, state, renamed_properties=None, new_optional_properties=None, new_default_properties=None,
             removed_properties=None):
    """sensai's ``setstate``: a pickled object's ``__dict__`` with the attributes newer versions added."""
    for old, new in (renamed_properties or {}).items():
        if old in state:
            state[new] = state.pop(old)
    for name in new_optional_properties or ():
        state.setdefault(name, None)
    for name, value in (new_default_properties or {}).items():
        state.setdefault(name, value)
    for name in removed_properties or ():
        state.pop(name, None)
    obj.__dict__ = state


class ToStringMixin:
    """sensai's mixin: ``str`` lists the object's attributes (but those ``_tostring_excludes`` names)."""

    def _tostring_excludes(self) -> list:
        return []

    def __str__(self) -> str:
        excluded = set(self._tostring_excludes())
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_") and k not in excluded)
        return f"{type(self).__name__}[{fields}]"

    __repr__ = __str__

    def pprints(self) -> str:
        return str(self)


class _FileLoggerContext:
    """sensai's ``logging.FileLoggerContext``: the high-level API logs to a file while an experiment runs; nothing
    here."""

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None


def _differs(a, b) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() != b.keys() or any(_differs(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)) or a.shape != b.shape:
            return True
        if a.dtype == object or b.dtype == object:
            return any(_differs(x, y) for x, y in zip(a.reshape(-1).tolist(), b.reshape(-1).tolist()))
        return a.dtype != b.dtype or not np.array_equal(a, b)  # (DeepDiff reports a dtype change as a type change)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is not type(b) or len(a) != len(b) or any(_differs(x, y) for x, y in zip(a, b))
    try:
        return bool(a != b)
    except Exception:  # (objects whose comparison is not a truth value)
        return a is not b


def isnull(x):
    """``pandas.isnull`` on an array (or scalar): True where a value is None or NaN."""
    a = np.asarray(x)
    if a.dtype == object:
        flags = [v is None or (isinstance(v, float) and v != v) for v in a.reshape(-1).tolist()]
        result = np.array(flags, dtype=bool).reshape(a.shape)
    elif a.dtype.kind in "fc":
        result = np.isnan(a)
    else:
        result = np.zeros(a.shape, dtype=bool)
    return result if result.ndim else bool(result)


def DeepDiff(first, second, **kwargs) -> dict:  # (the package's name)
    """Empty where ``first`` and ``second`` are equal, else a dict that says they differ."""
    return {"values_changed": True} if _differs(first, second) else {}


class _GitStatus:
    commit = None
    has_unstaged_changes = None


def _module(name, **attributes):
    return module(name, package=True, __path__=[], **attributes)


def modules() -> dict:
    """The stand-in modules by name."""
    made = {}

    def add(name, **attrs):
        made[name] = _module(name, **attrs)
        parent, _, child = name.rpartition(".")
        if parent:
            setattr(made[parent], child, made[name])
        return made[name]

    add("numba", njit=njit, jit=njit, __version__="0.60.0")
    add("overrides", override=lambda method=None, **kw: method if method is not None else (lambda m: m),
        __version__="7.7.0")
    add("sensai", __version__="1.4.0")
    add("sensai.util")
    logging_names = {k: v for k, v in vars(logging).items() if not k.startswith("__")}
    add("sensai.util.logging", **logging_names, FileLoggerContext=_FileLoggerContext,
        run_main=lambda main, *args, **kwargs: main(),
        datetime_tag=lambda: time.strftime("%Y%m%d-%H%M%S"))
    add("sensai.util.pickle", setstate=setstate,
        dump_pickle=lambda obj, path: pickle.dump(obj, open(path, "wb")),
        load_pickle=lambda path: pickle.load(open(path, "rb")))
    add("sensai.util.hash", pickle_hash=lambda obj: hashlib.sha1(pickle.dumps(obj)).hexdigest())
    add("sensai.util.string", ToStringMixin=ToStringMixin)
    add("sensai.util.git", GitStatus=_GitStatus, git_status=_GitStatus)
    add("sensai.util.helper", mark_used=lambda *a: None, count_none=lambda *a: sum(x is None for x in a))
    add("deepdiff", DeepDiff=DeepDiff, __version__="7.0.1")
    add("h5py", File=None, Group=type("Group", (), {}), Dataset=type("Dataset", (), {}), __version__="3.11.0")
    add("pandas", isnull=isnull, __version__="2.2.3")
    add("matplotlib", __version__="3.9.2")
    add("matplotlib.figure", Figure=type("Figure", (), {"__module__": "matplotlib.figure"}))
    add("tensorboard", __version__="2.18.0")
    add("tensorboard.backend")
    add("tensorboard.backend.event_processing")
    add("tensorboard.backend.event_processing.event_accumulator", EventAccumulator=None)
    add("pettingzoo", __version__="1.24.3")
    add("pettingzoo.utils")
    add("pettingzoo.utils.env", AECEnv=type("AECEnv", (), {"__module__": "pettingzoo.utils.env"}))
    add("pettingzoo.utils.wrappers", BaseWrapper=type("BaseWrapper", (), {"__module__": "pettingzoo.utils.wrappers"}))
    add("tqdm", tqdm=Bar, trange=Bar.trange, __version__="4.67.1")
    made["networkx"] = importlib.import_module("fake_networkx")  # (Tianshou's test environments build graphs)
    importlib.invalidate_caches()
    return made
