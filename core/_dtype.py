"""dtypes with PyTorch's names, and PyTorch's type promotion (``torch.result_type``).

NumPy 2 has its own promotion rules (strong 0-d arrays, weak Python scalars, float64 results);
we never let them decide. Every op computes its result dtype here and casts.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "dtype", "float16", "half", "bfloat16", "float32", "float", "float64", "double", "int8", "int16", "short",
    "int32", "int", "int64", "long", "uint8", "bool", "get_default_dtype", "set_default_dtype",
    "promote_types", "result_type", "can_cast", "finfo", "iinfo",
]

_BOOL, _INT, _FLOAT = 0, 1, 2


class dtype:
    """A tensor element type; ``repr`` is ``torch.float32`` like PyTorch's."""

    __module__ = "core"
    __slots__ = ("name", "np", "itemsize", "is_floating_point", "is_signed", "category", "is_complex")

    def __init__(self, name: str, np_dtype, category: int):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.category = category
        self.is_floating_point = category == _FLOAT
        self.is_complex = False
        self.is_signed = self.np.kind in "if"

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    def to_complex(self):
        raise RuntimeError(f"complex dtypes are not supported, got {self!r}")


float16 = half = dtype("float16", np.float16, _FLOAT)
float32 = float = dtype("float32", np.float32, _FLOAT)
float64 = double = dtype("float64", np.float64, _FLOAT)
int8 = dtype("int8", np.int8, _INT)
int16 = short = dtype("int16", np.int16, _INT)
int32 = int = dtype("int32", np.int32, _INT)
int64 = long = dtype("int64", np.int64, _INT)
uint8 = dtype("uint8", np.uint8, _INT)
bool = dtype("bool", np.bool_, _BOOL)  # PyTorch's name


class _NameOnlyDtype(dtype):
    """A dtype core can name but not store: reading its NumPy type (any allocation or cast) raises TypeError."""

    __slots__ = ()

    def __init__(self, name: str, itemsize: int, category: int):
        self.name, self.itemsize, self.category = name, itemsize, category
        self.is_floating_point, self.is_complex, self.is_signed = category == _FLOAT, False, True

    @property
    def np(self):
        raise TypeError(f"core has no {self.name} tensors (NumPy has no {self.name} type): use float32 or float16")


# NOTE: a name only. NumPy has no bfloat16, so no tensor holds one: scripts may name it (a dtype table, a
# comparison, autocast's default on CPU); making or casting a tensor to it raises TypeError.
bfloat16 = _NameOnlyDtype("bfloat16", 2, _FLOAT)

ALL_DTYPES = (float16, float32, float64, int8, int16, int32, int64, uint8, bool)
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NP = {d.np: d for d in ALL_DTYPES}
_ALIASES = {"half": float16, "float": float32, "double": float64, "short": int16, "int": int32,
            "long": int64}


def _by_name(name: str) -> dtype:
    return bfloat16 if name == "bfloat16" else _BY_NAME[name]


def from_numpy_dtype(np_dtype) -> dtype:
    """The core dtype of a NumPy/CuPy dtype; raises TypeError for unsupported ones."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        pass
    npd = np.dtype(np_dtype)
    if npd in _BY_NP:
        return _BY_NP[npd]
    if npd.kind == "u":
        raise TypeError(f"can't convert np.ndarray of type numpy.{npd}. The only supported types are: "
                        "float64, float32, float16, int64, int32, int16, int8, uint8, and bool.")
    raise TypeError(f"can't convert np.ndarray of type numpy.{npd}. The only supported types are: "
                    "float64, float32, float16, int64, int32, int16, int8, uint8, and bool.")


def to_dtype(d) -> dtype:
    """Accept a core dtype, a NumPy dtype, a Python type or a name; raise TypeError otherwise."""
    if isinstance(d, _NameOnlyDtype) or isinstance(d, str) and d in ("bfloat16", "torch.bfloat16"):
        return bfloat16.np  # raises
    if isinstance(d, dtype):
        return d
    if d is builtins_float:
        return float64
    if d is builtins_int:
        return int64
    if d is builtins_bool:
        return bool
    if isinstance(d, str):
        key = d[6:] if d.startswith("torch.") else d
        if key in _BY_NAME:
            return _BY_NAME[key]
        if key in _ALIASES:
            return _ALIASES[key]
    try:
        return from_numpy_dtype(np.dtype(d))
    except TypeError:
        raise
    except Exception:
        raise TypeError(f"dtype must be a torch.dtype, got {d!r}") from None


import builtins as _builtins  # noqa: E402

builtins_float, builtins_int, builtins_bool = _builtins.float, _builtins.int, _builtins.bool

_default = float32


def get_default_dtype() -> dtype:
    return _default


def set_default_dtype(d) -> None:
    """Set the dtype of Python floats in factories and promotion (float16/32/64 only)."""
    global _default
    if not isinstance(d, dtype):
        raise TypeError("invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    d.np  # noqa: B018  (a name-only dtype raises here)
    _default = d


def _promote_pair(a: dtype, b: dtype) -> dtype:
    if a is b:
        return a
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.category == _FLOAT:
        return a if a.itemsize >= b.itemsize else b
    if a.category == _BOOL:
        return a
    return _BY_NP[np.promote_types(a.np, b.np)]


_PROMOTE = {(a, b): _promote_pair(a, b) for a in ALL_DTYPES for b in ALL_DTYPES}


def promote_types(a, b) -> dtype:
    """``torch.promote_types``: the smallest dtype both can be cast to, by category first."""
    for pos, (name, d) in enumerate((("type1", a), ("type2", b)), 1):
        if not isinstance(d, dtype):
            raise TypeError(f"promote_types(): argument '{name}' (position {pos}) must be torch.dtype, "
                            f"not {type(d).__name__}")
        d.np  # noqa: B018  (a name-only dtype raises here)
    return _PROMOTE[(a, b)]


def scalar_dtype(value) -> dtype:
    """The dtype a Python number takes as a wrapped scalar in promotion."""
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, builtins_int):
        return int64
    if isinstance(value, builtins_float):
        return _default
    if isinstance(value, np.generic):
        return from_numpy_dtype(value.dtype)
    if isinstance(value, complex):
        raise TypeError("complex numbers are not supported")
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """PyTorch's combine_categories: a lower tier only matters if its category is higher."""
    if higher is None:
        return lower
    if lower is None or higher.category == _FLOAT:
        return higher
    if higher.category == _BOOL or lower.category == _FLOAT:
        return _PROMOTE[(higher, lower)]
    return higher


def result_type(*operands) -> dtype:
    """``torch.result_type`` over tensors and Python numbers (three tiers, combined by category)."""
    dim = zero = wrapped = None
    for op in operands:
        if hasattr(op, "_vc"):
            d = from_numpy_dtype(op._data.dtype)
            if op._data.ndim:
                dim = d if dim is None else _PROMOTE[(dim, d)]
            else:
                zero = d if zero is None else _PROMOTE[(zero, d)]
        else:
            d = scalar_dtype(op)
            wrapped = d if wrapped is None else _PROMOTE[(wrapped, d)]
    out = _combine(_combine(dim, zero), wrapped)
    if out is None:
        raise TypeError("result_type needs at least one operand")
    return out


def can_cast(from_, to) -> _builtins.bool:
    """``torch.can_cast``: same-kind casting (no float->int, no int->bool)."""
    f, t = to_dtype(from_), to_dtype(to)
    return f.category <= t.category


class finfo:
    """``torch.finfo``: machine limits of a floating dtype."""

    def __init__(self, type=None):  # PyTorch's name
        d = to_dtype(type) if type is not None else _default
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = np.finfo(d.np)
        self.dtype = d.name
        self.bits = _builtins.int(info.bits)
        self.eps = _builtins.float(info.eps)
        self.max = _builtins.float(info.max)
        self.min = _builtins.float(info.min)
        self.tiny = self.smallest_normal = _builtins.float(info.tiny)
        self.resolution = _builtins.float(10.0 ** -_builtins.int(info.precision))

    def __eq__(self, other) -> _builtins.bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> _builtins.int:
        return hash(("finfo", self.dtype))

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """``torch.iinfo``: limits of an integer dtype."""

    def __init__(self, type):
        d = to_dtype(type)
        if d is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.category != _INT:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(d.np)
        self.dtype = d.name
        self.bits = _builtins.int(info.bits)
        self.max = _builtins.int(info.max)
        self.min = _builtins.int(info.min)

    def __eq__(self, other) -> _builtins.bool:
        return isinstance(other, iinfo) and other.dtype == self.dtype

    def __hash__(self) -> _builtins.int:
        return hash(("iinfo", self.dtype))

    def __repr__(self) -> str:
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"


# PyTorch's ScalarType names, which its error messages use ("result type Float can't be cast to ... Long")
SCALAR_NAMES = {"float16": "Half", "float32": "Float", "float64": "Double", "int8": "Char", "int16": "Short",
                "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool"}
