"""``torch.export.Dim``: the names and hints (``Dim("batch")``, ``Dim.AUTO``, ``Dim.STATIC``, ``Dim.DYNAMIC``) a
``dynamic_shapes`` argument gives to input dimensions, and the ranges an ExportedProgram prints for them.

A dynamic dimension prints as torch names its symbol: ``s`` and a number from the input's source name
(``L['x'].size()[0]`` gives ``s77``), with ``VR[min, max]`` as its range (``int_oo`` when unbounded).
Derived dims (``Dim("n") * 2``) are not here."""

from __future__ import annotations

import dataclasses
import hashlib
from enum import Enum, auto

__all__ = ["Dim", "ValueRanges", "int_oo"]


class _IntInfinity:
    """Sympy's ``int_oo`` as torch prints it."""

    def __repr__(self):
        return "int_oo"

    def __gt__(self, other):
        return not isinstance(other, _IntInfinity)


int_oo = _IntInfinity()


class _DimHintType(Enum):
    AUTO = auto()
    STATIC = auto()
    DYNAMIC = auto()


@dataclasses.dataclass
class _DimHint:
    """``Dim.AUTO``/``STATIC``/``DYNAMIC``, optionally bounded: ``Dim.AUTO(min=2, max=64)``."""

    type: _DimHintType
    min: int | None = None
    max: int | None = None
    _factory: bool | None = True

    def __call__(self, min=None, max=None) -> _DimHint:
        if not self._factory:
            raise TypeError(f"'{type(self)}' object is not callable")
        if min is not None and max is not None and min > max:
            raise AssertionError(f"min must be <= max, got min={min}, max={max}")
        return _DimHint(self.type, min=min, max=max, _factory=False)

    def __repr__(self):
        parts = [self.type.name] + [f"{k}={v}" for k, v in (("min", self.min), ("max", self.max)) if v is not None]
        return f"DimHint({', '.join(parts)})"


class Dim:
    """A named dynamic dimension: ``Dim("batch", min=1, max=1024)``; ``Dim.AUTO`` lets export decide."""

    AUTO = _DimHint(_DimHintType.AUTO)
    DYNAMIC = _DimHint(_DimHintType.DYNAMIC)
    STATIC = _DimHint(_DimHintType.STATIC)

    def __init__(self, name: str, *, min: int | None = None, max: int | None = None):
        _min = 0 if min is None else min
        _max = int_oo if max is None else max
        if not (_max > _min):
            raise AssertionError(f"Cannot create Dim with inconsistent min={min}, max={max}")
        if not name.isidentifier():
            raise AssertionError(f"Dim name must be a valid identifier, got {name}")
        self.__name__ = name
        self.min = _min
        self.max = _max

    def __repr__(self):
        lo = None if self.min == 2 else self.min
        hi = None if self.max is int_oo else self.max
        bounds = [f"{k}={v}" for k, v in (("min", lo), ("max", hi)) if v is not None]
        return f"Dim({', '.join([repr(self.__name__), *bounds])})"


@dataclasses.dataclass(frozen=True)
class ValueRanges:
    """A symbol's range, printed ``VR[lower, upper]``."""

    lower: int
    upper: object

    def __repr__(self):
        return f"VR[{self.lower}, {self.upper}]"


class Symbol(str):
    """A size symbol (``s77``): a string that prints bare, as sympy's symbols do in a dict."""

    def __repr__(self):
        return str(self)

    @property
    def fx_annotation(self) -> str:
        """How a graph's code annotates a value that is this size (``Sym(s77)``)."""
        return f"Sym({self})"


def symbol_for(source: str, taken: set[int]) -> Symbol:
    """Torch's name for the symbol of ``source`` (``L['x'].size()[0]``): ``s`` + the first free number from its
    SHA-256 modulo 100."""
    attempt = int(hashlib.sha256(source.encode()).hexdigest(), 16) % 100
    while attempt in taken:
        attempt += 1
    taken.add(attempt)
    return Symbol(f"s{attempt}")


def dim_range(spec, size: int) -> ValueRanges | None:
    """The range a ``dynamic_shapes`` entry gives a dimension of ``size``, or None when it stays static."""
    if spec is None or isinstance(spec, int):
        return None
    if isinstance(spec, Dim):
        return ValueRanges(spec.min, spec.max)
    if isinstance(spec, _DimHint):
        if spec.type is _DimHintType.STATIC or (spec.type is _DimHintType.AUTO and size < 2):
            return None
        return ValueRanges(2 if spec.min is None else spec.min, int_oo if spec.max is None else spec.max)
    raise TypeError(f"Unexpected dimension mapped to index: {spec!r} (expected None, an int, a Dim, Dim.AUTO, "
                    "Dim.STATIC, or Dim.DYNAMIC)")
