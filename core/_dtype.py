"""dtypes with PyTorch's names, and PyTorch's type promotion (``torch.result_type``).

NumPy 2 has its own promotion rules (strong 0-d arrays, weak Python scalars, float64 results);
we never let them decide. Every op computes its result dtype here and casts.

bfloat16 and the float8 types are ``ml_dtypes``' NumPy dtypes (NumPy has none of its own); their ufuncs
compute in float32 and round once, as PyTorch's CPU kernels do. As in PyTorch, uint16/32/64 and the float8
types promote with nothing but themselves (and the unsigned ones with floats).
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

__all__ = [
    "dtype", "float16", "half", "bfloat16", "float32", "float", "float64", "double", "int8", "int16", "short",
    "int32", "int", "int64", "long", "uint8", "uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2", "bool",
    "complex32", "chalf", *(f"{kind}{bits}" for kind in ("uint", "int") for bits in range(1, 8)),  # (sub-byte)
    "complex64", "cfloat", "complex128", "cdouble", "get_default_dtype", "set_default_dtype",
    "promote_types", "result_type", "can_cast", "finfo", "iinfo",
]

_BOOL, _INT, _FLOAT, _COMPLEX = 0, 1, 2, 3


class _ModuleName(str):
    """The class's ``__module__`` (a str: ``core``, where pickle finds the class) that reads ``torch`` on an instance,
    as ``torch.float32.__module__`` does: code that tells torch's dtypes from NumPy's by it (MONAI's
    ``MetaTensor.astype(torch.float)``) takes a core dtype for torch's."""

    def __get__(self, obj, cls=None):
        return self if obj is None else "torch"

    def __reduce__(self):  # pickling the class writes its module name: a plain str
        return str, (str(self),)


class dtype:
    """A tensor element type; ``repr`` is ``torch.float32`` like PyTorch's."""

    __module__ = _ModuleName("core")
    __slots__ = ("name", "np", "itemsize", "is_floating_point", "is_signed", "category", "is_complex")

    def __init__(self, name: str, np_dtype, category: int):
        self.name = name
        self.np = np.dtype(np_dtype)
        self.itemsize = self.np.itemsize
        self.category = category
        self.is_floating_point = category == _FLOAT
        self.is_complex = category == _COMPLEX
        self.is_signed = self.np.kind in "ifc" or category == _FLOAT  # (ml_dtypes' bfloat16 has kind "V")

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_by_name, (self.name,))

    def to_complex(self):
        """The complex dtype whose parts are this float dtype (``torch.float32.to_complex()`` is complex64)."""
        if self.category == _COMPLEX:
            return self
        if self.name not in _COMPLEX_OF:
            raise RuntimeError(f"Unknown Complex ScalarType for {SCALAR_NAMES.get(self.name, self.name)}")
        return _COMPLEX_OF[self.name]

    def to_real(self):
        """The float dtype of a complex dtype's parts; real dtypes return themselves."""
        return _REAL_OF[self.name] if self.category == _COMPLEX else self


float16 = half = dtype("float16", np.float16, _FLOAT)
float32 = float = dtype("float32", np.float32, _FLOAT)
float64 = double = dtype("float64", np.float64, _FLOAT)
int8 = dtype("int8", np.int8, _INT)
int16 = short = dtype("int16", np.int16, _INT)
int32 = int = dtype("int32", np.int32, _INT)
int64 = long = dtype("int64", np.int64, _INT)
uint8 = dtype("uint8", np.uint8, _INT)
bool = dtype("bool", np.bool_, _BOOL)  # PyTorch's name
uint16 = dtype("uint16", np.uint16, _INT)
uint32 = dtype("uint32", np.uint32, _INT)
uint64 = dtype("uint64", np.uint64, _INT)
bfloat16 = dtype("bfloat16", ml_dtypes.bfloat16, _FLOAT)
float8_e4m3fn = dtype("float8_e4m3fn", ml_dtypes.float8_e4m3fn, _FLOAT)
float8_e5m2 = dtype("float8_e5m2", ml_dtypes.float8_e5m2, _FLOAT)
complex64 = cfloat = dtype("complex64", np.complex64, _COMPLEX)
complex128 = cdouble = dtype("complex128", np.complex128, _COMPLEX)


class _NameOnlyDtype(dtype):
    """A dtype core can name but not store: reading its NumPy type (any allocation or cast) raises TypeError."""

    __slots__ = ()

    def __init__(self, name: str, itemsize: int, category: int, signed: bool = True, instead: str = "complex64"):
        self.name, self.itemsize, self.category = name, itemsize, category
        self.is_floating_point, self.is_complex, self.is_signed = category == _FLOAT, category == _COMPLEX, signed
        self._instead = instead

    __slots__ = ("_instead",)

    @property
    def np(self):
        raise TypeError(f"core has no {self.name} tensors (NumPy has no {self.name} type): use {self._instead}")


# NOTE: a name only: NumPy and ml_dtypes have no complex32 (two float16 parts), so torch.chalf can be named
# (dtype tables, comparisons), not stored.
complex32 = chalf = _NameOnlyDtype("complex32", 4, _COMPLEX)
# NOTE: names only too: torch's sub-byte integer dtypes (uint1..uint7, int1..int7), which torchao's packed weights
# use and diffusers' quantizers name at import. torch itself has them as shell dtypes: it allocates them but no
# op computes on them (iinfo and promotion refuse them too).
for _bits in range(1, 8):
    globals()[f"uint{_bits}"] = _NameOnlyDtype(f"uint{_bits}", 1, _INT, signed=False, instead="uint8")
    globals()[f"int{_bits}"] = _NameOnlyDtype(f"int{_bits}", 1, _INT, instead="int8")
_SHELL = {name: globals()[name] for name in (f"{kind}{bits}" for kind in ("uint", "int") for bits in range(1, 8))}
_COMPLEX_OF = {"float16": complex32, "bfloat16": complex64, "float32": complex64, "float64": complex128}
_REAL_OF = {"complex32": float16, "complex64": float32, "complex128": float64}

ALL_DTYPES = (float16, float32, float64, int8, int16, int32, int64, uint8, bool, uint16, uint32, uint64, bfloat16,
              float8_e4m3fn, float8_e5m2, complex64, complex128)
# the dtypes PyTorch promotes with no other (the unsigned ones still with floats)
_UNSIGNED, _FLOAT8 = "uint16, uint32, uint64 types", "Float8 Types"  # (torch's capitals)
_LIMITED = {uint16: _UNSIGNED, uint32: _UNSIGNED, uint64: _UNSIGNED, float8_e4m3fn: _FLOAT8, float8_e5m2: _FLOAT8}
_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NP = {d.np: d for d in ALL_DTYPES}
_ALIASES = {"half": float16, "float": float32, "double": float64, "short": int16, "int": int32,
            "long": int64, "cfloat": complex64, "cdouble": complex128, "chalf": complex32}


def _by_name(name: str) -> dtype:
    return complex32 if name == "complex32" else _SHELL[name] if name in _SHELL else _BY_NAME[name]


def through_float(arr, target):
    """``arr`` ready for ``astype(target)``: a float64 array goes to float32 first when ``target`` is a 16- or 8-bit
    float, since PyTorch builds those from a float (``c10::Half(float)``, ``BFloat16(float)``), so a double rounds
    twice (1.91357421468 is float16 1.9140625 in torch, not 1.9130859)."""
    target = np.dtype(target)
    if arr.dtype == np.float64 and target.itemsize <= 2 and target.kind in "fV":
        return arr.astype(np.float32)
    return arr


def through_float_number(value, target):
    """A Python float ready to store into a ``target`` array: as ``through_float``, a double rounds to float first."""
    import builtins  # (this module's ``float`` is the dtype)

    if type(value) is builtins.float and np.dtype(target).itemsize <= 2 and np.dtype(target).kind in "fV":
        with np.errstate(over="ignore"):
            return builtins.float(np.float32(value))
    return value


def from_numpy_dtype(np_dtype) -> dtype:
    """The core dtype of a NumPy/CuPy dtype; raises TypeError for unsupported ones."""
    try:
        return _BY_NP[np_dtype]
    except KeyError:
        pass
    npd = np.dtype(np_dtype)
    if npd in _BY_NP:
        return _BY_NP[npd]
    raise TypeError(f"can't convert np.ndarray of type numpy.{npd}. The only supported types are: float64, "
                    "float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, "
                    "uint8, and bool.")


def to_dtype(d) -> dtype:
    """Accept a core dtype, a NumPy dtype, a Python type or a name; raise TypeError otherwise."""
    if isinstance(d, _NameOnlyDtype):
        return d.np  # raises
    if isinstance(d, dtype):
        return d
    if d is builtins_float:
        return float64
    if d is builtins_int:
        return int64
    if d is builtins_bool:
        return bool
    if d is builtins_complex:
        return complex128
    if isinstance(d, str):
        key = d[6:] if d.startswith("torch.") else d
        if key in ("complex32", "chalf"):
            return complex32.np  # raises
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

builtins_float, builtins_int, builtins_bool, builtins_complex = (_builtins.float, _builtins.int, _builtins.bool,
                                                                 _builtins.complex)

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
    _default = d


def _promote_pair(a: dtype, b: dtype) -> dtype | None:
    """The promoted dtype, or None where PyTorch refuses to promote the pair."""
    if a is b:
        return a
    for x, y in ((a, b), (b, a)):
        if x in _LIMITED and not (x.category == _INT and y.category == _FLOAT and y not in _LIMITED):
            return None
    if _COMPLEX in (a.category, b.category):
        return _promote_complex(a, b)
    if a.category == b.category == _FLOAT and a.itemsize == b.itemsize:
        return float32  # bfloat16 with float16: neither holds the other
    if a.category != b.category:
        return a if a.category > b.category else b
    if a.category == _FLOAT:
        return a if a.itemsize >= b.itemsize else b
    if a.category == _BOOL:
        return a
    return _BY_NP[np.promote_types(a.np, b.np)]


def _promote_complex(a: dtype, b: dtype) -> dtype:
    """A complex result whose parts are wide enough for both (float64 with complex64 is complex128)."""
    parts = [d.to_real() for d in (a, b) if d.category >= _FLOAT]
    wide = parts[0] if len(parts) == 1 or parts[0].itemsize >= parts[1].itemsize else parts[1]
    return complex64 if wide.itemsize < 8 else complex128  # (bfloat16 and float16 parts widen to complex64)


class _PromotionTable(dict):
    """(dtype, dtype) -> promoted dtype; a pair PyTorch refuses raises its RuntimeError when looked up."""

    def __missing__(self, key):
        a, b = key
        kinds = _LIMITED.get(a) or _LIMITED.get(b) or "these types"
        raise RuntimeError(f"Promotion for {kinds} is not supported, attempted to promote "
                           f"{SCALAR_NAMES[a.name]} and {SCALAR_NAMES[b.name]}")


_PROMOTE = _PromotionTable({(a, b): p for a in ALL_DTYPES for b in ALL_DTYPES
                            if (p := _promote_pair(a, b)) is not None})


def promote_types(a, b) -> dtype:
    """``torch.promote_types``: the smallest dtype both can be cast to, by category first."""
    for pos, (name, d) in enumerate((("type1", a), ("type2", b)), 1):
        if not isinstance(d, dtype):
            raise TypeError(f"promote_types(): argument '{name}' (position {pos}) must be torch.dtype, "
                            f"not {type(d).__name__}")
    if a.name in _SHELL or b.name in _SHELL:  # NOTE: torch gives float32 for (float32, uint1), asserts otherwise
        if a is b:
            return a
        raise RuntimeError(f"Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           f"{SCALAR_NAMES[a.name]} and {SCALAR_NAMES[b.name]}")
    return _PROMOTE[(a, b)]


_INT64_END, _UINT64_END = 2**63, 2**64


def int_scalar_overflow(value: int):
    """torch's parser's refusal of a Python int no Scalar holds: from 2**64 up (an int64 or a uint64 below), or
    below -2**63 (after int64 overflowed, it tries an unsigned conversion, which refuses a negative)."""
    if value < 0:
        raise OverflowError("can't convert negative int to unsigned")
    raise OverflowError("int too big to convert")


def scalar_dtype(value) -> dtype:
    """The dtype a Python number takes as a wrapped scalar in promotion."""
    if isinstance(value, builtins_bool):
        return bool
    if isinstance(value, builtins_int):
        if not -_INT64_END <= value < _UINT64_END:
            int_scalar_overflow(value)
        return int64
    if isinstance(value, builtins_float):
        return _default
    if isinstance(value, np.generic):
        return from_numpy_dtype(value.dtype)
    if isinstance(value, complex):
        return _default.to_complex()  # PyTorch's default complex dtype follows the default float dtype
    raise TypeError(f"unsupported scalar type {type(value).__name__}")


def _combine(higher: dtype | None, lower: dtype | None) -> dtype | None:
    """PyTorch's combine_categories: a lower tier only matters if its category is higher."""
    if higher is None:
        return lower
    if lower is None or higher.category == _COMPLEX:
        return higher
    if lower.category == _COMPLEX:  # a float tensor keeps its precision: float64 * 1j is complex128
        return higher.to_complex() if higher.category == _FLOAT else lower
    if higher.category == _FLOAT:
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

    __module__ = "core"  # PyTorch's class path (torch.finfo)

    def __init__(self, type=None):  # PyTorch's name
        d = _default if type is None else type if getattr(type, "name", None) in _SHELL else to_dtype(type)
        d = d.to_real()  # a complex dtype's limits are its parts', as in PyTorch
        if not d.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        info = ml_dtypes.finfo(d.np)  # NumPy's finfo, which also knows ml_dtypes' types
        self.dtype = d.name
        self.bits = _builtins.int(info.bits)
        self.eps = _builtins.float(info.eps)
        self.max = _builtins.float(info.max)
        self.min = _builtins.float(info.min)
        self.tiny = self.smallest_normal = _builtins.float(info.smallest_normal)
        # PyTorch's 10 ** -digits10, digits10 = floor(mantissa bits * log10(2)): 0.01 for bfloat16, 1 for float8
        self.resolution = _builtins.float(10.0 ** -math.floor(info.nmant * math.log10(2)))

    def __eq__(self, other) -> _builtins.bool:
        return isinstance(other, finfo) and other.dtype == self.dtype

    def __hash__(self) -> _builtins.int:
        return hash(("finfo", self.dtype))

    def __repr__(self) -> str:
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """``torch.iinfo``: limits of an integer dtype."""

    __module__ = "core"  # PyTorch's class path (torch.iinfo)

    def __init__(self, type):
        d = type if getattr(type, "name", None) in _SHELL else to_dtype(type)
        if d is bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if d.category != _INT or isinstance(d, _NameOnlyDtype):  # (the sub-byte shell dtypes too)
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
                "int32": "Int", "int64": "Long", "uint8": "Byte", "bool": "Bool", "uint16": "UInt16",
                "uint32": "UInt32", "uint64": "UInt64", "bfloat16": "BFloat16", "float8_e4m3fn": "Float8_e4m3fn",
                "float8_e5m2": "Float8_e5m2", "complex32": "ComplexHalf", "complex64": "ComplexFloat",
                "complex128": "ComplexDouble",
                **{f"{kind}{bits}": f"{kind.title().replace('Ui', 'UI')}{bits}" for kind in ("uint", "int")
                   for bits in range(1, 8)}}  # UInt4, Int4
