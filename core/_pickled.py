"""Whole objects in ``core.save`` files (a model, an optimizer, a custom class), pickled as PyTorch pickles them.

``torch.save(model, path)`` pickles the module; ``torch.load(path)`` refuses it by default since PyTorch 2.6
(``weights_only=True``: only tensors, containers and a few safe types) and unpickles it with
``weights_only=False``, "only if you got the file from a trusted source". ``core.save`` stores what its JSON
structure can describe without pickle; anything else is pickled into the same ``.npz`` file, and ``core.load``
follows PyTorch's rule: with ``weights_only=True`` the unpickler resolves only tensors, dtypes, devices,
NumPy's array reconstruction, ``OrderedDict`` and the globals ``add_safe_globals`` allowed, and raises
PyTorch's ``UnpicklingError`` naming the first other global before any object of it is made.
"""

from __future__ import annotations

import contextlib
import io
import pickle

from core._typename import torch_module

__all__ = ["add_safe_globals", "clear_safe_globals", "dumps", "get_safe_globals", "loads", "safe_globals"]

PROTOCOL = 4
# the globals a pickled tensor, parameter, dtype, device or state dict needs (what weights_only=True allows)
_INFRASTRUCTURE = {
    ("core._tensor", "_rebuild"), ("core.nn.parameter", "_rebuild_parameter"), ("core._dtype", "_by_name"),
    ("core._sparse_coo", "_rebuild_sparse"),
    ("core", "device"), ("numpy._core.multiarray", "_reconstruct"), ("numpy.core.multiarray", "_reconstruct"),
    ("numpy", "ndarray"), ("numpy", "dtype"), ("collections", "OrderedDict"), ("builtins", "set"),
    ("builtins", "frozenset"), ("builtins", "complex"), ("builtins", "slice"),
}
_safe: list = []


def add_safe_globals(safe: list) -> None:
    """``torch.serialization.add_safe_globals``: let ``weights_only=True`` loads make these classes/functions."""
    _safe.extend(safe)


def get_safe_globals() -> list:
    return list(_safe)


def clear_safe_globals() -> None:
    _safe.clear()


@contextlib.contextmanager
def safe_globals(safe: list):
    """``torch.serialization.safe_globals``: ``add_safe_globals`` for the ``with`` block only."""
    before = list(_safe)
    _safe.extend(safe)
    try:
        yield
    finally:
        _safe[:] = before


def dumps(obj) -> bytes:
    return pickle.dumps(obj, protocol=PROTOCOL)


def _path(obj) -> tuple[str, str]:
    return getattr(obj, "__module__", ""), getattr(obj, "__qualname__", getattr(obj, "__name__", repr(obj)))


class _WeightsUnpickler(pickle.Unpickler):
    """Resolves only the infrastructure and the allowed globals (PyTorch's ``weights_only`` unpickler)."""

    def __init__(self, file) -> None:
        super().__init__(file)
        self._allowed = _INFRASTRUCTURE | {_path(g) for g in _safe}  # fixed for this load

    def find_class(self, module: str, name: str):
        if (module, name) in self._allowed:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(_refusal(f"{torch_module(module, name)}.{name}"))  # torch's path for core's


def loads(data: bytes, weights_only: bool):
    """The pickled object; with ``weights_only`` only what ``_WeightsUnpickler`` resolves."""
    if not weights_only:
        return pickle.loads(data)
    return _WeightsUnpickler(io.BytesIO(data)).load()


def _refusal(name: str) -> str:
    """torch's weights-only refusal of the global ``name``; a builtin's without ``builtins.`` (``int``), as torch's."""
    name = name.removeprefix("builtins.")
    return ("Weights only load failed. This file can still be loaded, to do so you have two options, "
            "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, "
            "we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. "
            "Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
            "arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, "
            "to load with `weights_only=True` please check the recommended steps in the following error message."
            f"\n\tWeightsUnpickler error: Unsupported global: GLOBAL {name} was not an allowed global by default. "
            f"Please use `torch.serialization.add_safe_globals([{name}])` or the "
            f"`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if you trust "
            "this class/function.\n\nCheck the documentation of torch.load to learn more about types accepted by "
            "default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")
