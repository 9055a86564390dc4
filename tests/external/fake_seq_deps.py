"""What torchdyn (``recipes_seq.py``) imports and is not installed here (our text), beside torchsde's stand-ins
(``fake_e3nn_deps``):

- ``pytorch_lightning``: torchdyn's NeuralODE, NeuralSDE and MultipleShootingLayer subclass ``pl.LightningModule``
  to be trainable by Lightning; the scripts train them by hand, so ``LightningModule`` is the running library's
  ``nn.Module`` and ``Trainer`` refuses to be built.
- ``attr``: ``@attr.s`` on torchdyn's two event-callback base classes, which declare no fields: as attrs does for
  such a class, the decorator adds an ``__init__`` that calls ``__attrs_post_init__``, an ``__eq__`` that holds for
  two instances of the same class, and ``__repr__`` ``Name()``, and sets ``__hash__`` to None.
- ``scipy.integrate`` and ``sklearn.neighbors``: imported by ``torchdyn.datasets`` for data sets the scripts do
  not build (``solve_ivp``, ``KernelDensity`` refuse to be called).
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys

from fake_stand_ins import module as _module


def _refuse(name):
    def refused(*args, **kwargs):
        raise NotImplementedError(f"{name} is a stand-in (fake_seq_deps): not needed by the corpus scripts")

    return refused


def _attrs_s(cls=None, **options):
    """attrs' ``@attr.s`` for a class without ``attr.ib`` fields (the only use in torchdyn)."""
    if options or cls is None:
        raise NotImplementedError("attr.s with options is a stand-in (fake_seq_deps)")

    def __init__(self):
        post = getattr(self, "__attrs_post_init__", None)
        if post is not None:
            post()

    def __eq__(self, other):
        return True if other.__class__ is self.__class__ else NotImplemented

    def __ne__(self, other):
        result = __eq__(self, other)
        return result if result is NotImplemented else not result

    cls.__init__, cls.__eq__, cls.__ne__ = __init__, __eq__, __ne__
    cls.__repr__ = lambda self: f"{self.__class__.__qualname__}()"
    cls.__hash__ = None
    return cls


def _lightning():
    nn = sys.modules["torch"].nn

    class LightningModule(nn.Module):
        """Lightning's module as the running library's ``nn.Module`` (the scripts train by hand)."""

    return _module("pytorch_lightning", LightningModule=LightningModule, Trainer=_refuse("pytorch_lightning.Trainer"),
                   seed_everything=_refuse("pytorch_lightning.seed_everything"))


def modules() -> dict:
    """The stand-in modules by name, for ``sys.modules`` while a torchdyn script runs (torchsde's from
    ``fake_e3nn_deps``, whose SciPy module gains ``integrate``)."""
    deps = importlib.import_module("fake_e3nn_deps").modules()
    integrate = _module("scipy.integrate", solve_ivp=_refuse("scipy.integrate.solve_ivp"))
    deps["scipy"].integrate = integrate
    neighbors = _module("sklearn.neighbors", KernelDensity=_refuse("sklearn.neighbors.KernelDensity"))
    attr = _module("attr", s=_attrs_s, attrs=_attrs_s, ib=_refuse("attr.ib"))
    return {**deps, "scipy.integrate": integrate, "sklearn": _module("sklearn", neighbors=neighbors),
            "sklearn.neighbors": neighbors, "attr": attr, "pytorch_lightning": _lightning()}
