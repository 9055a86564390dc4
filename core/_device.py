"""``core.device``: where a tensor lives; ``repr`` and ``str`` as in PyTorch."""

from __future__ import annotations

import builtins

__all__ = ["device"]

_interned: dict = {}
# whether an accelerator is there (a bare ordinal names it): core._backend, which sits above this module, sets it
_accelerator = {"available": lambda: False}

# every device type PyTorch's parser knows, in its order (its message lists them; core makes cpu, cuda, mps and meta)
_TORCH_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, "
                "meta, hpu, mtia, privateuseone")


class device:
    """A device such as ``cpu`` or ``cuda:0``. Equal devices are the same object."""

    __module__ = "core"
    __slots__ = ("type", "index")

    def __new__(cls, type="cpu", index=None):  # PyTorch's keyword
        type_or_str = type
        type = builtins.type
        if isinstance(type_or_str, device):
            if index is not None:
                raise TypeError("device(): index given twice")
            return type_or_str
        if isinstance(type_or_str, int) and not isinstance(type_or_str, bool):  # an ordinal: the accelerator's
            if not _accelerator["available"]():
                raise RuntimeError("Cannot access accelerator device when none is available.")
            type_or_str, index = "cuda", type_or_str
        if not isinstance(type_or_str, str):
            raise TypeError("device() received an invalid combination of arguments - got "
                            f"({type(type_or_str).__name__}), but expected one of: (torch.device device) or "
                            "(str type, int index = -1)")
        text = type_or_str
        kind, sep, rest = text.partition(":")
        if sep or not kind.isalpha():
            if not kind.isalpha() or not rest.isdigit() or (len(rest) > 1 and rest[0] == "0"):
                raise RuntimeError(f"Invalid device string: '{text}'")
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was passed explicitly: "
                                   f"{text}")
            index = int(rest)
        if kind not in ("cpu", "cuda", "mps", "meta"):  # mps can be named (scripts test for it), not used
            raise RuntimeError(f"Expected one of {_TORCH_TYPES} device type at start of device string: {kind}")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise TypeError(f"device(): argument 'index' must be int, not {type(index).__name__}")
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        key = (kind, index)
        obj = _interned.get(key)
        if obj is None:
            obj = object.__new__(cls)
            object.__setattr__(obj, "type", kind)
            object.__setattr__(obj, "index", index)
            _interned[key] = obj
        return obj

    def __setattr__(self, name, value):
        raise AttributeError("device is immutable")

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        return self is other  # devices are interned; like PyTorch, a device never equals a str

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (str(self),))

    def __enter__(self):
        """``with core.device("meta"):`` makes factories called without ``device=`` use this device (the
        default device is set for the block and restored after it, as PyTorch's device context does)."""
        from core import _default_device

        _default_device.push(self)
        return self

    def __exit__(self, *exc) -> None:
        from core import _default_device

        _default_device.pop()


CPU = device("cpu")


def canonical(dev) -> device:
    """The concrete device a tensor is placed on: ``cuda`` becomes ``cuda:0``, ``cpu:0`` is ``cpu``."""
    if dev is None or dev is CPU:
        return CPU
    d = device(dev)
    if d.type == "cpu":
        return CPU
    if d.type == "meta":
        return d
    if d.type == "mps":
        raise RuntimeError("PyTorch is not linked with support for mps devices (core runs on the CPU with NumPy, "
                           "or on CUDA with CuPy)")
    if d.index is None:
        return device("cuda", 0)
    return d
