"""``torch.types``: the aliases annotations use (``Number``, ``Device``, ``_size``...).

Third-party code imports them for its signatures (``from torch.types import Number``) and sometimes checks
against the tuple form (``isinstance(x, torch.types._Number)``).
"""

import os
from collections.abc import Sequence
from typing import IO, TypeAlias

from core import Size, SymBool, SymFloat, SymInt
from core import device as _device
from core import dtype as _dtype  # noqa: F401  (re-exported, as torch.types has them)
from core import layout as _layout  # noqa: F401
from core import qscheme as _qscheme  # noqa: F401
from core._tensor import Tensor
from core.storage import UntypedStorage as Storage

_bool = bool
_int = int
_float = float
_complex = complex
_str = str
_bytes = bytes

_TensorOrTensors: TypeAlias = Tensor | Sequence[Tensor]
_TensorOrOptionalTensors: TypeAlias = Tensor | Sequence[Tensor | None]
_size: TypeAlias = Size | list[int] | tuple[int, ...]
_symsize: TypeAlias = Size | Sequence[int | SymInt]
_dispatchkey: TypeAlias = str

IntLikeType: TypeAlias = int | SymInt
FloatLikeType: TypeAlias = float | SymFloat
BoolLikeType: TypeAlias = bool | SymBool
py_sym_types = (SymInt, SymFloat, SymBool)
PySymType: TypeAlias = SymInt | SymFloat | SymBool

Number: TypeAlias = int | float | bool
_Number = (int, float, bool)  # for isinstance
Device: TypeAlias = _device | str | int | None
FileLike: TypeAlias = str | os.PathLike | IO[bytes]

__all__ = ["Number", "Device", "FileLike", "Storage", "Size", "Tensor", "IntLikeType", "FloatLikeType",
           "BoolLikeType", "PySymType", "py_sym_types"]
