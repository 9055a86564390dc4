"""``torch.ops.aten``: core's ops under their ATen operator names, as overload packets and overloads.

``core.ops.aten.add`` is an ``OpOverloadPacket``; ``aten.add.Tensor``, ``aten.add.out``,
``aten.mm.default`` are its ``OpOverload``s; they call the packet's core function, which takes every
variant's arguments the way the ``torch.*`` function does (a Tensor or a number, ``dim=``, ``out=``),
unless an overload has a form of its own.
Which names and overloads exist is PyTorch's operator registry, kept in
``core/_aten_overloads.txt.gz`` (``tools/gen_aten_overloads.py``); an unknown name or overload
raises torch's AttributeError.

A name is found, in this order, in ``core._aten_forms.FORMS`` (ATen-only operators such as ``_softmax``
and ``slice``, and ATen's argument order where it differs: losses, ``elu``, ``upsample_*.vec``...), as a
``core`` function (``add``, ``native_layer_norm``), as a ``core.linalg``/``core.special``/``core.fft``
function for the ``linalg_``/``special_``/``fft_`` names, as a ``Tensor`` method (``view``, ``add_``, ``__and__``:
called with the tensor first), or as a ``core.nn.functional`` function (``gelu``, ``hardtanh``). An
ATen name that core has no function for raises AttributeError that says so.
"""

from __future__ import annotations

import functools
import gzip
import types
from pathlib import Path

import core
from core import _torch_dispatch
from core._aten_forms import FORMS

__all__ = ["OpOverload", "OpOverloadPacket", "aten"]

# NOTE: beside this file, not importlib.resources: a `torch` import alias (tests/external) replaces core's __spec__
_TABLE = Path(__file__).resolve().with_name("_aten_overloads.txt.gz")
_SUBMODULE_PREFIXES = {"linalg_": "linalg", "special_": "special", "fft_": "fft"}


@functools.cache
def _overloads() -> dict[str, tuple[str, ...]]:
    """ATen operator name -> its overload names, in PyTorch's order."""
    text = gzip.decompress(_TABLE.read_bytes()).decode()
    return {name: tuple(rest) for name, *rest in (line.split() for line in text.splitlines() if line)}


def _function(owner, name: str):
    """``owner.name`` when it is an op function (not a module, class, dtype or property), else None."""
    try:
        value = getattr(owner, name)
    except (AttributeError, ImportError):  # core's lazy submodules import on access
        return None
    if callable(value) and not isinstance(value, (type, types.ModuleType)):
        return value
    return None


def _resolve(name: str):
    """Core's function for the ATen operator ``name``, or None."""
    if name in FORMS:  # ATen's own argument order (or None: core lacks it)
        return FORMS[name]
    found = _function(core, name)
    for prefix, module in _SUBMODULE_PREFIXES.items():
        if found is None and name.startswith(prefix):
            found = _function(getattr(core, module), name.removeprefix(prefix))
    if found is None:
        found = _function(core.Tensor, name)
    if found is None:
        found = _function(core.nn.functional, name)
    return found


class OpOverload:
    """One overload of an ATen operator (``aten.add.Tensor``): calling it calls core's function."""

    def __init__(self, packet: OpOverloadPacket, overload: str):
        self.overloadpacket = packet
        self._overloadname = overload
        self.op = FORMS.get(f"{packet.__name__}.{overload}", packet.op)  # an overload with its own order
        self.__name__ = f"{packet.__name__}.{overload}"
        self.__qualname__ = self.name()
        self.__module__ = "torch._ops.aten"  # a __torch_dispatch__ logger prints f"{func.__module__}.{func.__name__}"

    def __call__(self, *args, **kwargs):
        if _torch_dispatch.live:  # a TorchDispatchMode is entered or a __torch_dispatch__ subclass exists
            return _torch_dispatch.call(self, args, kwargs)
        return self.op(*args, **kwargs)

    def kernel(self, *args, **kwargs):
        """The op itself, below ``__torch_dispatch__`` (core's function, not its dispatching wrapper)."""
        from core._torch_function import undispatched

        if kwargs.get("pin_memory") is False:  # ATen's factories always pass it; not every core function takes it
            kwargs = {k: v for k, v in kwargs.items() if k != "pin_memory"}
        return undispatched(self.op)(*args, **kwargs)

    def name(self) -> str:
        return f"aten::{self.overloadpacket.__name__}.{self._overloadname}"

    def __repr__(self) -> str:
        return f"<OpOverload(op='aten.{self.overloadpacket.__name__}', overload='{self._overloadname}')>"

    def __str__(self) -> str:
        return f"aten.{self.__name__}"


class OpOverloadPacket:
    """An ATen operator with all its overloads (``aten.add``); calling it picks core's function directly."""

    def __init__(self, name: str, op, overloads: tuple[str, ...]):
        self.__name__ = name
        self._qualified_op_name = f"aten::{name}"
        self.op = op
        self._overload_names = overloads

    def __call__(self, *args, **kwargs):
        return self.op(*args, **kwargs)

    def overloads(self) -> list[str]:
        return list(self._overload_names)

    def __getattr__(self, overload: str) -> OpOverload:
        if overload.startswith("__") or overload not in self._overload_names:
            raise AttributeError(f"The underlying op of 'aten.{self.__name__}' has no overload name '{overload}'")
        found = OpOverload(self, overload)
        setattr(self, overload, found)  # one object per overload, as torch's
        return found

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='aten.{self.__name__}')>"

    def __str__(self) -> str:
        return f"aten.{self.__name__}"


class _OpNamespace(types.ModuleType):
    """``torch.ops.aten``: an attribute per ATen operator, made on first use."""

    def __init__(self):
        super().__init__("core.ops.aten")
        self.name = "aten"

    def __getattr__(self, name: str) -> OpOverloadPacket:
        overloads = _overloads().get(name)
        if overloads is None:
            raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{name}'")
        op = _resolve(name)
        if op is None:
            raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{name}': "
                                 f"aten::{name} is a PyTorch operator that core does not implement")
        packet = OpOverloadPacket(name, op, overloads)
        setattr(self, name, packet)
        return packet

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(_overloads()))


aten = _OpNamespace()
