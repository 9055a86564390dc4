"""Containers: ``Sequential``, ``ModuleList``, ``ModuleDict``, ``ParameterList``, ``ParameterDict``.

Children are registered under their index as a string ("0", "1", ...) or their key, so state dict
keys and reprs read like PyTorch's.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections.abc import Mapping

from core._tensor import Tensor
from core.nn.module import Module, addindent
from core.nn.parameter import Parameter

__all__ = ["Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _abs_index(idx, size: int) -> int:
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


def _check_factor(seq, other) -> None:
    if not isinstance(other, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(seq)} and {type(other)}")
    if other <= 0:
        raise ValueError(f"Non-positive multiplication factor {other} for {type(seq)}")


def _renumber(module: Module) -> None:
    module._modules = dict(zip((str(i) for i in range(len(module._modules))), module._modules.values()))


class Sequential(Module):
    """Modules applied one after another; built from arguments or from an OrderedDict."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return list(self._modules.values())[_abs_index(idx, len(self))]

    def __setitem__(self, idx, module: Module) -> None:
        key = list(self._modules)[_abs_index(idx, len(self))]
        setattr(self, key, module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        for key in (keys[idx] if isinstance(idx, slice) else [keys[_abs_index(idx, len(self))]]):
            delattr(self, key)
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        return Sequential(*self, *other)

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f"add operator supports only objects of Sequential class, but {type(other)} is given.")
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def __mul__(self, other: int):
        """The same modules (shared, not copied) ``other`` times over, in a new Sequential."""
        _check_factor(self, other)
        combined = Sequential()
        for i, module in enumerate(list(self) * other):
            combined.add_module(str(i), module)
        return combined

    def __rmul__(self, other: int):
        return self.__mul__(other)

    def __imul__(self, other: int):
        _check_factor(self, other)
        original = list(self._modules.values())
        for i, module in enumerate(original * (other - 1), start=len(original)):
            self.add_module(str(i), module)
        return self

    def _get_item_by_idx(self, iterator, idx):
        """The ``idx``-th item of ``iterator`` (negative from the end), as PyTorch's indexing helper."""
        return list(iterator)[_abs_index(idx, len(self))]

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        index = index + n if index < 0 else index
        mods = list(self._modules.values())
        mods.insert(index, module)
        self._modules = {str(i): m for i, m in enumerate(mods)}
        return self

    def extend(self, sequential) -> Sequential:
        for layer in sequential:
            self.append(layer)
        return self

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input


class ModuleList(Module):
    """A list of modules, registered (so their parameters count) but not called in any order."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_abs_index(idx, len(self)))]

    def __setitem__(self, idx, module: Module) -> None:
        setattr(self, str(_abs_index(idx, len(self))), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, str(_abs_index(idx, len(self))))
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __iadd__(self, modules):
        return self.extend(modules)

    def _get_abs_string_index(self, idx) -> str:
        return str(_abs_index(idx, len(self)))

    def __add__(self, other):
        return ModuleList(list(self) + list(other))

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules) -> ModuleList:
        if isinstance(modules, (Tensor, str)) or not hasattr(modules, "__iter__"):
            raise TypeError("ModuleList.extend should be called with an iterable, but got " + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def insert(self, index: int, module: Module) -> None:
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def __repr__(self) -> str:
        """Runs of identical children print once, as ``(0-2): 3 x Linear(...)`` (PyTorch 2's format)."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        blocks = []  # [start, end, repr]
        for i, r in enumerate(reprs):
            if blocks and blocks[-1][2] == r:
                blocks[-1][1] = i
            else:
                blocks.append([i, i, r])
        lines = []
        for start, end, r in blocks:
            local = f"({start}): {r}" if start == end else f"({start}-{end}): {end - start + 1} x {r}"
            lines.append(addindent(local, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def __dir__(self):
        return [k for k in super().__dir__() if not k.isdigit()]


class ModuleDict(Module):
    """An ordered dict of modules (insertion order kept, keys are attribute names)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def clear(self) -> None:
        self._modules.clear()

    def pop(self, key: str) -> Module:
        v = self[key]
        del self[key]
        return v

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules) -> None:
        items = modules.items() if hasattr(modules, "items") else modules
        for j, item in enumerate(items):
            if not hasattr(modules, "items") and (not hasattr(item, "__len__") or len(item) != 2):
                raise ValueError(f"ModuleDict update sequence element #{j} has length "
                                 f"{len(item) if hasattr(item, '__len__') else type(item).__name__}; 2 is required")
            self[item[0]] = item[1]


def _param_line(key, p, legacy_type: bool = False) -> str:
    """One child line of ParameterList (``[torch.float32 of size 4x4]``) or ParameterDict
    (``[torch.FloatTensor ...]``)."""
    if isinstance(p, Tensor):
        size = "x".join(str(s) for s in p.size())
        dev = f" ({p.device})" if p.device.type == "cuda" else ""
        kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
        return f"  ({key}): {kind} containing: [{p.type() if legacy_type else p.dtype} of size {size}{dev}]"
    return f"  ({key}): Object of type: {type(p).__name__}"


class ParameterList(Module):
    """A list of parameters; plain tensors put in it become Parameters."""

    def __init__(self, values=None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_abs_index(idx, self._size)))

    def __setitem__(self, idx: int, param) -> None:
        idx = _abs_index(idx, self._size)
        if isinstance(param, Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        setattr(self, str(idx), param)

    def __len__(self) -> int:
        return self._size

    def __iter__(self):
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters):
        return self.extend(parameters)

    def _get_abs_string_index(self, idx) -> str:
        return str(_abs_index(idx, len(self)))

    def append(self, value) -> ParameterList:
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_param_line(k, p) for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    """An ordered dict of parameters; plain tensors put in it become Parameters."""

    def __init__(self, parameters=None):
        super().__init__()
        self._keys = {}
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str):
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        attr = self._key_to_attr(key)
        self._keys[key] = None
        if isinstance(value, Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        return self._keys.keys()

    def items(self):
        return ((k, self[k]) for k in self._keys)

    def values(self):
        return (self[k] for k in self._keys)

    def pop(self, key: str):
        v = self[key]
        del self[key]
        return v

    def update(self, parameters) -> None:
        """Adds ``parameters``' pairs in their order; a plain mapping's pairs by sorted key, as PyTorch does."""
        if not hasattr(parameters, "__iter__"):
            raise TypeError("ParametersDict.update should be called with an iterable of key/value pairs, but got "
                            + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            items = list(parameters.items())
        elif isinstance(parameters, Mapping):
            items = sorted(parameters.items())
        else:
            items = list(parameters)
            for j, pair in enumerate(items):
                if not hasattr(pair, "__iter__"):
                    raise TypeError(f"ParameterDict update sequence element #{j} should be Iterable; is"
                                    + type(pair).__name__)
                if len(pair) != 2:
                    raise ValueError(f"ParameterDict update sequence element #{j} has length {len(pair)}; "
                                     "2 is required")
        for key, value in items:
            self[key] = value

    def get(self, key: str, default=None):
        return self[key] if key in self else default

    def setdefault(self, key: str, default=None):
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        for key in list(self._keys):
            del self[key]

    def copy(self) -> ParameterDict:
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def fromkeys(self, keys, default=None) -> ParameterDict:
        return ParameterDict((k, default) for k in keys)

    def popitem(self):
        key = next(reversed(self._keys))
        value = self[key]
        del self[key]
        return key, value

    def __or__(self, other) -> ParameterDict:
        merged = self.copy()
        merged.update(other)
        return merged

    def __ror__(self, other) -> ParameterDict:
        merged = other.copy()
        merged.update(self)
        return merged

    def __ior__(self, other):
        self.update(other)
        return self

    def __reversed__(self):
        return reversed(self._keys)

    def _key_to_attr(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a string (type is "
                            f"'{type(key).__name__}'). Open an issue on github if you need non-string keys.")
        return key

    def extra_repr(self) -> str:
        return "\n".join(_param_line(k, p, legacy_type=True) for k, p in self.items())

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterDict should not be called.")
