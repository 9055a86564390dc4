"""Reading a file that PyTorch's ``torch.save`` wrote, so ``core.load`` opens a checkpoint or ``state_dict`` saved
with torch (a zip whose ``<name>/data.pkl`` pickles the object and whose ``<name>/data/<key>`` entries hold the raw
bytes of each storage).

The pickle rebuilds tensors through ``torch._utils._rebuild_tensor_v2`` (a storage, an offset, a size and strides:
the tensor is read out of its storage as a copy), parameters through ``_rebuild_parameter``, storages through
persistent ids naming their legacy type (``torch.FloatStorage``: the dtype), and ``torch.device``, ``torch.Size`` and
dtypes by name. With ``weights_only`` (the default, as in PyTorch 2.6+) nothing else resolves, and any other global
raises PyTorch's ``UnpicklingError``; with ``weights_only=False`` the other ``torch.*`` names resolve to core's (a
whole pickled model: ``torch.nn.modules.linear.Linear`` is ``core.nn.Linear``).
"""

from __future__ import annotations

import collections
import importlib
import io
import pickle
import zipfile

import numpy as np

from core import _dtype, _pickled

__all__ = ["is_torch_file", "load"]

_STORAGES = {"DoubleStorage": "float64", "FloatStorage": "float32", "HalfStorage": "float16",
             "BFloat16Storage": "bfloat16", "LongStorage": "int64", "IntStorage": "int32", "ShortStorage": "int16",
             "CharStorage": "int8", "ByteStorage": "uint8", "BoolStorage": "bool", "ComplexFloatStorage": "complex64",
             "ComplexDoubleStorage": "complex128"}
_BUILTINS = {"set", "frozenset", "complex", "slice", "range", "bytearray"}


def is_torch_file(fh) -> bool:
    """Whether the open binary file ``fh`` is a zip with PyTorch's ``data.pkl`` (it is left at its start)."""
    try:
        fh.seek(0)
        with zipfile.ZipFile(fh) as zf:
            found = any(n == "data.pkl" or n.endswith("/data.pkl") for n in zf.namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        found = False
    fh.seek(0)
    return found


class _Storage:
    """A storage's bytes as a flat NumPy array of its dtype."""

    def __init__(self, array: np.ndarray, dtype) -> None:
        self.array, self.dtype = array, dtype


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad=False, backward_hooks=None, metadata=None):
    import core

    flat = storage.array
    item = flat.itemsize
    size, stride = tuple(int(n) for n in size), tuple(int(s) for s in stride)
    last = offset + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else offset - 1
    if len(size) != len(stride) or min((*size, *stride, offset), default=0) < 0 or last >= flat.size:
        raise RuntimeError(f"a tensor of size {list(size)} and stride {list(stride)} at offset {offset} lies "
                           f"outside its storage of {flat.size} elements (a corrupt file)")
    view = np.lib.stride_tricks.as_strided(flat[offset:], shape=size, strides=[s * item for s in stride])
    t = core.from_numpy(np.array(view)) if view.size else core.zeros(tuple(size), dtype=storage.dtype)
    return t.requires_grad_(True) if requires_grad else t


def _rebuild_parameter(data, requires_grad, backward_hooks=None, state=None):
    from core.nn import Parameter

    return Parameter(data, requires_grad=requires_grad)


def _rebuild_from_type_v2(func, new_type, args, state):
    return func(*args)


def _torch_global(module: str, name: str):
    """``torch``'s name ``module.name`` as core's object (dtypes, ``device``, ``Size`` and the rebuild functions)."""
    import core

    if module == "torch._utils" and name in ("_rebuild_tensor_v2", "_rebuild_parameter",
                                             "_rebuild_parameter_with_state"):
        return _rebuild_tensor_v2 if name == "_rebuild_tensor_v2" else _rebuild_parameter
    if module == "torch._tensor" and name == "_rebuild_from_type_v2":
        return _rebuild_from_type_v2
    if module == "torch" and name in _STORAGES:
        return _dtype.to_dtype(_STORAGES[name])
    if module == "torch" and (name in ("device", "Size") or isinstance(getattr(core, name, None), _dtype.dtype)):
        return getattr(core, name)
    return None


def _core_global(module: str, name: str):
    """Any other ``torch.*`` global as core's (``weights_only=False``): the same dotted path under ``core``, else the
    public name in ``core.nn``, ``core.optim`` or ``core``."""
    target = "core" + module[len("torch"):]
    try:
        return getattr(importlib.import_module(target), name)
    except (ImportError, AttributeError):
        pass
    for where in ("core.nn", "core.optim", "core"):
        found = getattr(importlib.import_module(where), name, None)
        if found is not None:
            return found
    raise AttributeError(f"core has no counterpart of {module}.{name}")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, read_storage, weights_only: bool) -> None:
        super().__init__(file)
        self._read_storage, self._weights_only = read_storage, weights_only

    def find_class(self, module: str, name: str):
        module = "builtins" if module == "__builtin__" else module  # protocol 2 spells it as Python 2 did
        found = _torch_global(module, name) if module == "torch" or module.startswith("torch.") else None
        if found is not None:
            return found
        if (module, name) == ("collections", "OrderedDict") or module == "builtins" and name in _BUILTINS:
            return super().find_class(module, name)
        if self._weights_only:
            raise pickle.UnpicklingError(_pickled._refusal(f"{module}.{name}"))
        if module == "torch" or module.startswith("torch."):
            return _core_global(module, name)
        return super().find_class(module, name)

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and pid and pid[0] == "storage"):
            raise pickle.UnpicklingError(f"unsupported persistent id {pid!r}")
        _, dtype, key, _location, numel = pid
        return self._read_storage(str(key), dtype, numel)


def load(fh, map_location=None, weights_only=True):
    """The object ``torch.save`` wrote to the zip file ``fh``; ``map_location`` moves its tensors there."""
    with zipfile.ZipFile(fh) as zf:
        names = zf.namelist()
        pickled = next(n for n in names if n == "data.pkl" or n.endswith("/data.pkl"))
        prefix = pickled[:-len("data.pkl")]
        big = prefix + "byteorder" in names and zf.read(prefix + "byteorder").strip() == b"big"
        storages: dict = {}

        def read_storage(key, dtype, numel):
            if key not in storages:
                np_dtype = dtype.np.newbyteorder(">") if big and dtype.np.itemsize > 1 else dtype.np
                raw = np.frombuffer(zf.read(f"{prefix}data/{key}"), dtype=np_dtype, count=numel)
                storages[key] = _Storage(raw.astype(dtype.np), dtype)
            return storages[key]

        obj = _Unpickler(io.BytesIO(zf.read(pickled)), read_storage, weights_only).load()
    return _moved(obj, map_location) if map_location not in (None, "cpu") else obj


def _moved(obj, map_location):
    """Tensors in ``obj`` on ``map_location`` (a device or its name; a function or dict leaves them on the CPU)."""
    from core._tensor import Tensor

    if callable(map_location) or isinstance(map_location, dict):
        return obj
    if isinstance(obj, Tensor):
        return obj.to(map_location)
    if isinstance(obj, dict):
        out = type(obj)() if isinstance(obj, collections.OrderedDict) else {}
        out.update((k, _moved(v, map_location)) for k, v in obj.items())
        return out
    if isinstance(obj, (list, tuple)):
        return type(obj)(_moved(v, map_location) for v in obj)
    return obj
