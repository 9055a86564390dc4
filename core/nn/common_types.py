"""Type aliases that layer signatures use (`_size_2_t` for `kernel_size=3` or `(3, 3)`).

Third-party layers annotate their arguments with these (`from torch.nn.common_types import _size_2_t`), so the
names exist here with PyTorch's meaning: a value or a tuple of that many values.
"""

from typing import TypeAlias as _TypeAlias
from typing import TypeVar

from core._tensor import Tensor

T = TypeVar("T")

_scalar_or_tuple_any_t: _TypeAlias = T | tuple[T, ...]
_scalar_or_tuple_1_t: _TypeAlias = T | tuple[T]
_scalar_or_tuple_2_t: _TypeAlias = T | tuple[T, T]
_scalar_or_tuple_3_t: _TypeAlias = T | tuple[T, T, T]
_scalar_or_tuple_4_t: _TypeAlias = T | tuple[T, T, T, T]
_scalar_or_tuple_5_t: _TypeAlias = T | tuple[T, T, T, T, T]
_scalar_or_tuple_6_t: _TypeAlias = T | tuple[T, T, T, T, T, T]

_size_any_t: _TypeAlias = _scalar_or_tuple_any_t[int]
_size_1_t: _TypeAlias = _scalar_or_tuple_1_t[int]
_size_2_t: _TypeAlias = _scalar_or_tuple_2_t[int]
_size_3_t: _TypeAlias = _scalar_or_tuple_3_t[int]
_size_4_t: _TypeAlias = _scalar_or_tuple_4_t[int]
_size_5_t: _TypeAlias = _scalar_or_tuple_5_t[int]
_size_6_t: _TypeAlias = _scalar_or_tuple_6_t[int]

_size_any_opt_t: _TypeAlias = _scalar_or_tuple_any_t[int | None]
_size_2_opt_t: _TypeAlias = _scalar_or_tuple_2_t[int | None]
_size_3_opt_t: _TypeAlias = _scalar_or_tuple_3_t[int | None]

_ratio_2_t: _TypeAlias = _scalar_or_tuple_2_t[float]
_ratio_3_t: _TypeAlias = _scalar_or_tuple_3_t[float]
_ratio_any_t: _TypeAlias = _scalar_or_tuple_any_t[float]

_tensor_list_t: _TypeAlias = _scalar_or_tuple_any_t[Tensor]
_maybe_indices_t: _TypeAlias = _scalar_or_tuple_2_t[Tensor]
