"""Stand-ins that several ``fake_*_deps`` modules hand out (our text): a module object with a spec, a dict whose
keys read as attributes (SciPy's ``OptimizeResult``, Lightning's ``AttributeDict``) and tqdm's bar.

Fakes import it as a top-level module, as the runner imports them (``tests/external`` is first on ``sys.path``
while ``runner.py`` runs).
"""

from __future__ import annotations

import importlib.machinery
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
    """``tqdm``'s bar over an iterable that draws nothing: iterates what it wraps (nothing without it), is a context
    manager, counts ``update``s in ``n``; ``set_description``, ``set_postfix``, ``refresh`` and ``close`` do nothing."""

    def __init__(self, iterable=None, *args, **kwargs):
        self.iterable = iterable if iterable is not None else []
        self.n, self.total = 0, kwargs.get("total")

    def __iter__(self):
        return iter(self.iterable)

    def __len__(self):
        return len(self.iterable)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n=1):
        self.n += n

    def set_description(self, *args, **kwargs):
        pass

    def set_postfix(self, *args, **kwargs):
        pass

    def refresh(self, *args, **kwargs):
        pass

    def close(self):
        pass

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
