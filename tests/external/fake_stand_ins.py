"""Stand-ins that several ``fake_*_deps`` modules hand out (our text): a module object with a spec, a dict whose
keys read as attributes (SciPy's ``OptimizeResult``, Lightning's ``AttributeDict``) and tqdm's bar.

Fakes import it as a top-level module, as the runner imports them (``tests/external`` is first on ``sys.path``
while ``runner.py`` runs).
"""

from __future__ import annotations

import importlib.machinery
import sys
import types


def module(name, package=False, cls=types.ModuleType, **attributes):
    """A module ``name`` holding ``attributes``, with a spec (``importlib.util.find_spec`` on it answers, as it does
    for an installed one; torch's imports ask it for tqdm, sklearn...) that says whether it is a ``package``. (A
    package whose submodules are looked up, not all listed, takes ``__path__=[]`` among its attributes.)"""
    made = cls(name)
    made.__dict__.update(attributes)
    made.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=package)
    return made


class AttrDict(dict):
    """A dict whose keys read and write as attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError as exc:
            raise AttributeError(name) from exc

    __setattr__ = dict.__setitem__
    __delattr__ = dict.__delitem__


class Bar:
    """``tqdm.tqdm`` that draws nothing, for every way the corpus calls it: over an iterable (``tqdm(loader)``,
    ``trange(n)``), or with ``total=`` only and moved by hand (``bar.update(k)``, ``bar.n = x``), bare or as a
    context manager. As tqdm's, it counts in ``n`` (each item iterated, each ``update``), takes its ``total`` from
    the iterable's length unless given (``bar.total = k`` later too), and its ``len`` is that total; descriptions,
    postfixes, ``refresh``, ``clear``, ``reset`` and ``close`` draw nothing (a real bar draws on stderr, which the
    runs do not compare). ``Bar.write`` writes its message to stdout or ``file``, as ``tqdm.write`` does;
    ``Bar.format_num`` formats a number in 3 significant digits (Lightning's ``Tqdm`` subclass calls it)."""

    def __init__(self, iterable=None, desc=None, total=None, *args, initial=0, **kwargs):
        if total is None and iterable is not None:
            try:
                total = len(iterable)
            except (TypeError, AttributeError):  # (a generator, ``enumerate``...)
                total = None
        self.iterable, self.desc, self.total, self.n = iterable, desc or "", total, initial

    def __iter__(self):
        for item in self.iterable if self.iterable is not None else ():
            yield item
            self.n += 1

    def __len__(self):
        if self.iterable is None or self.total is not None:
            return self.total
        return len(self.iterable)  # (raises for an iterable without a length, as tqdm's does)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def update(self, n=1):
        self.n += n

    def set_description(self, desc=None, refresh=True):
        self.desc = desc or ""

    set_description_str = set_description

    def set_postfix(self, *args, **kwargs):
        pass

    def set_postfix_str(self, *args, **kwargs):
        pass

    def refresh(self, *args, **kwargs):
        pass

    def clear(self, *args, **kwargs):
        pass

    def reset(self, total=None):
        self.n = 0
        if total is not None:
            self.total = total

    def close(self):
        pass

    @staticmethod
    def write(s, file=None, end="\n", nolock=False):
        """``tqdm.write``: the message on ``file`` (stdout by default), which the runs compare."""
        (file or sys.stdout).write(f"{s}{end}")

    @staticmethod
    def format_num(n):
        """``tqdm.format_num``: ``n`` in 3 significant digits."""
        return f"{n:.3g}"

    @classmethod
    def trange(cls, *args, **kwargs):
        """``tqdm.trange(n)``: this bar over ``range(n)``."""
        return cls(range(*args), **kwargs)


class PrintingBar(Bar):
    """A ``Bar`` that prints each ``set_description`` text and ``set_postfix`` values (the losses scripts show in
    their bar), so that both runs' are compared."""

    def set_description(self, text="", refresh=True):
        print(text)

    def set_postfix(self, *args, **kwargs):
        print(*args, *(f"{k}={v}" for k, v in kwargs.items()))
