"""``core._C``: the few names of ``torch._C`` that Python code spells out (type hints such as
``torch._C.Generator``). Anything else is missing, as an unknown attribute of ``torch._C`` is."""

from __future__ import annotations

from core._random import Generator

__all__ = ["Generator"]
