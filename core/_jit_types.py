"""TorchScript's type classes as torch exports them (``torch.TensorType``, ``torch.ListType``... from ``torch._C``).

Libraries name them in annotations (open_clip's poolers take ``attention_mask: TensorType``) and build them to
describe a schema's arguments. core has no TorchScript compiler: these are the classes' Python faces. The leaf
types are singletons from ``get()`` (``TensorType.get() is TensorType.get()``, no constructor), the containers are
built from their element types; each prints, compares and reports ``kind()``, ``annotation_str`` and
``containedTypes()`` as torch's do, and ``isSubtypeOf`` follows TorchScript's rules for these types (every type is
an ``Any``, ``int``/``float``/``complex`` are ``number``s, ``T`` and ``None`` are ``Optional[T]``s, containers
by their elements: lists and dicts invariantly, tuples and optionals covariantly).
"""

from __future__ import annotations

__all__ = ["Type", "AnyType", "BoolType", "ComplexType", "DeviceObjType", "DictType", "FloatType", "IntType",
           "ListType", "NoneType", "NumberType", "OptionalType", "StringType", "TensorType", "TupleType",
           "Block", "Node", "Value"]


class Type:
    """``torch.Type``: what every TorchScript type class derives from."""

    __module__ = "core"
    _kind = "Type"

    def __init__(self, *args, **kwargs):
        raise TypeError(f"torch._C.{type(self).__name__}: No constructor defined!")

    def kind(self) -> str:
        return self._kind

    def str(self) -> str:
        """The schema's spelling (``int[]``, ``Tensor?``, ``(int, float)``, ``Scalar``); repr is the annotation's."""
        return self.annotation_str

    @property
    def annotation_str(self) -> str:
        raise NotImplementedError

    def containedTypes(self) -> list:
        return []

    def is_interface_type(self) -> bool:
        return False

    def _key(self):
        return (self._kind, tuple(t._key() for t in self.containedTypes()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Type) and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # torch's types are unhashable

    def __repr__(self) -> str:
        return self.annotation_str

    __str__ = __repr__

    def isSubtypeOf(self, other: Type) -> bool:
        if self == other or isinstance(other, AnyType):
            return True
        if isinstance(other, NumberType):
            return isinstance(self, (IntType, FloatType, ComplexType))
        if isinstance(other, OptionalType):
            inner = other.getElementType()
            if isinstance(self, OptionalType):
                return self.getElementType().isSubtypeOf(inner)
            return isinstance(self, NoneType) or self.isSubtypeOf(inner)
        if isinstance(self, TupleType) and isinstance(other, TupleType):
            mine, theirs = self.elements(), other.elements()
            return len(mine) == len(theirs) and all(a.isSubtypeOf(b) for a, b in zip(mine, theirs))
        return False


def _leaf(name: str, spelled: str, schema: str | None = None) -> type:
    """A singleton type class: ``get()`` returns its one instance."""

    def get(cls):
        if cls._instance is None:
            instance = object.__new__(cls)
            cls._instance = instance
        return cls._instance

    namespace = {"__module__": "core", "_kind": name, "_instance": None, "get": classmethod(get),
                 "annotation_str": property(lambda self: spelled), "__doc__": f"``torch.{name}``: {spelled}."}
    if schema is not None:
        namespace["str"] = lambda self: schema
    return type(name, (Type,), namespace)


AnyType = _leaf("AnyType", "Any")
BoolType = _leaf("BoolType", "bool")
ComplexType = _leaf("ComplexType", "complex")
DeviceObjType = _leaf("DeviceObjType", "Device")
FloatType = _leaf("FloatType", "float")
IntType = _leaf("IntType", "int")
NoneType = _leaf("NoneType", "NoneType")
NumberType = _leaf("NumberType", "number", "Scalar")
StringType = _leaf("StringType", "str")
TensorType = _leaf("TensorType", "Tensor")


def _tensor_unknown(self):  # a TensorType from get() knows nothing of its tensor
    return None


for _name in ("dtype", "dim", "sizes", "strides", "device", "requires_grad", "scalarType"):
    setattr(TensorType, _name, _tensor_unknown)
del _name


def _check_type(value, who: str) -> Type:
    if not isinstance(value, Type):
        raise TypeError(f"{who}(): incompatible constructor arguments; got {type(value).__name__}")
    return value


class _ElementType(Type):
    """A type around one element type (``List[T]``, ``Optional[T]``): the parts the two share."""

    _kind = ""
    _annotation = ""  # List, Optional

    def __init__(self, element: Type):
        self._element = _check_type(element, self._kind)

    def getElementType(self) -> Type:
        return self._element

    def containedTypes(self) -> list:
        return [self._element]

    @property
    def annotation_str(self) -> str:
        return f"{self._annotation}[{self._element.annotation_str}]"


class ListType(_ElementType):
    """``torch.ListType(element)``: ``List[T]``."""

    _kind, _annotation = "ListType", "List"

    def str(self) -> str:
        return f"{self._element.str()}[]"

    @staticmethod
    def ofInts():
        return ListType(IntType.get())

    @staticmethod
    def ofFloats():
        return ListType(FloatType.get())

    @staticmethod
    def ofBools():
        return ListType(BoolType.get())

    @staticmethod
    def ofStrings():
        return ListType(StringType.get())

    @staticmethod
    def ofTensors():
        return ListType(TensorType.get())


class OptionalType(_ElementType):
    """``torch.OptionalType(element)``: ``Optional[T]``."""

    _kind, _annotation = "OptionalType", "Optional"

    def str(self) -> str:
        return f"{self._element.str()}?"

    @staticmethod
    def ofTensor():
        return OptionalType(TensorType.get())


class TupleType(Type):
    """``torch.TupleType([elements])``: ``Tuple[T1, T2, ...]``."""

    _kind = "TupleType"

    def __init__(self, elements):
        self._elements = [_check_type(e, "TupleType") for e in elements]

    def elements(self) -> list:
        return list(self._elements)

    def containedTypes(self) -> list:
        return list(self._elements)

    @property
    def annotation_str(self) -> str:
        return f"Tuple[{', '.join(e.annotation_str for e in self._elements) or '()'}]"

    def str(self) -> str:
        return f"({', '.join(e.str() for e in self._elements)})"


class DictType(Type):
    """``torch.DictType(key, value)``: ``Dict[K, V]``."""

    _kind = "DictType"

    def __init__(self, key: Type, value: Type):
        self._key_type, self._value_type = _check_type(key, "DictType"), _check_type(value, "DictType")

    def getKeyType(self) -> Type:
        return self._key_type

    def getValueType(self) -> Type:
        return self._value_type

    def containedTypes(self) -> list:
        return [self._key_type, self._value_type]

    @property
    def annotation_str(self) -> str:
        return f"Dict[{self._key_type.annotation_str}, {self._value_type.annotation_str}]"

    def str(self) -> str:
        return f"Dict({self._key_type.str()}, {self._value_type.str()})"


class _IRObject:
    """A TorchScript IR object's class (``torch._C.Value``, ``Node``, ``Block``): a graph's parts, which only a
    scripted or traced function's graph hands out. core builds no such graphs, so none exists; the classes are
    there to import and name in annotations (snnTorch's ``functional/loss.py`` imports ``Value`` and never uses it)."""

    def __init__(self, *args, **kwargs):
        raise TypeError(f"torch._C.{type(self).__name__}: No constructor defined!")


class Value(_IRObject):
    """``torch.Value``: a value in a TorchScript graph."""


class Node(_IRObject):
    """``torch.Node``: an operation in a TorchScript graph."""


class Block(_IRObject):
    """``torch.Block``: a nested list of nodes in a TorchScript graph (an ``if``'s branch, a loop's body)."""


for _cls in (Type, ListType, OptionalType, TupleType, DictType, Value, Node, Block):
    _cls.__module__ = "core"
del _cls
