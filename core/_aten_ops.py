"""``torch.ops.aten``: core's ops under their ATen operator names, as overload packets and overloads.

``core.ops.aten.add`` is an ``OpOverloadPacket``; ``aten.add.Tensor``, ``aten.add.out``,
``aten.mm.default`` are its ``OpOverload``s; all call the same core function, which takes every
variant's arguments the way the ``torch.*`` function does (a Tensor or a number, ``dim=``, ``out=``).
Which names and overloads exist is PyTorch's operator registry, kept in
``core/_aten_overloads.txt.gz`` (``tools/gen_aten_overloads.py``); an unknown name or overload
raises torch's AttributeError.

A name is found, in this order, as one of the few ATen-only forms below (``_softmax``, ``_to_copy``,
``slice``, ``index``, ``sym_size``, ``threshold_backward``...), as a ``core`` function (``add``,
``native_layer_norm``), as a ``core.linalg``/``core.special``/``core.fft`` function for the
``linalg_``/``special_``/``fft_`` names, as a ``Tensor`` method (``view``, ``add_``, ``__and__``:
called with the tensor first), or as a ``core.nn.functional`` function (``gelu``, ``hardtanh``). An
ATen name that core has no function for raises AttributeError that says so.
"""

from __future__ import annotations

import functools
import gzip
import types
from pathlib import Path

import core
from core.ops.activation_backward import tanh_backward

__all__ = ["OpOverload", "OpOverloadPacket", "aten"]

# NOTE: beside this file, not importlib.resources: a `torch` import alias (tests/external) replaces core's __spec__
_TABLE = Path(__file__).resolve().with_name("_aten_overloads.txt.gz")
_SUBMODULE_PREFIXES = {"linalg_": "linalg", "special_": "special", "fft_": "fft"}


# ATen-only forms: operators that traced graphs and decompositions call but that have no ``torch.*``
# function; each is one line over core's public ops.
def _softmax(input, dim, half_to_float):
    return core.softmax(input, dim)


def _log_softmax(input, dim, half_to_float):
    return core.log_softmax(input, dim)


def _to_copy(input, *, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
             memory_format=None):
    return input.to(device=device, dtype=dtype, non_blocking=non_blocking, copy=True,
                    memory_format=memory_format or core.preserve_format)


def _slice(input, dim=0, start=None, end=None, step=1):
    return input[(slice(None),) * (dim % max(input.dim(), 1)) + (slice(start, end, step),)]


def _index(input, indices):
    return input[tuple(slice(None) if i is None else i for i in indices)]


def _copy(input, src, non_blocking=False):
    return core.empty_like(input).copy_(src, non_blocking)


def _sym_size(input, dim=None):
    return input.size() if dim is None else input.size(dim)


def _sym_stride(input, dim=None):
    return input.stride() if dim is None else input.stride(dim)


def _threshold_backward(grad_output, input, threshold):
    return core.where(input <= threshold, core.zeros_like(grad_output), grad_output)


def _sigmoid_backward(grad_output, output):
    return grad_output * output * (1 - output)


_ATEN_FORMS = {
    "_softmax": _softmax,
    "_log_softmax": _log_softmax,
    "_to_copy": _to_copy,
    "slice": _slice,
    "index": _index,
    "_unsafe_index": _index,
    "_unsafe_view": core.reshape,
    "_reshape_alias": lambda input, size, stride: input.view(size),
    "alias": lambda input: input.view_as(input),
    "lift_fresh": lambda input: input,
    "lift_fresh_copy": core.clone,
    "copy": _copy,
    "zero": core.zeros_like,
    "_local_scalar_dense": lambda input: input.item(),
    "sym_size": _sym_size,
    "sym_stride": _sym_stride,
    "sym_numel": core.numel,
    "sym_storage_offset": lambda input: input.storage_offset(),
    "threshold_backward": _threshold_backward,
    "sigmoid_backward": _sigmoid_backward,
    "tanh_backward": tanh_backward,
}


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
    found = _ATEN_FORMS.get(name) or _function(core, name)
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
        self.op = packet.op
        self.__name__ = f"{packet.__name__}.{overload}"

    def __call__(self, *args, **kwargs):
        return self.op(*args, **kwargs)

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
