"""A tensor's ``__dict__`` as PyTorch shows it: the attributes a user or a library set, without core's bookkeeping.

core keeps a tensor's autograd and view fields in the instance dictionary that PyTorch keeps in C++; ``Tensor``'s
``__dict__`` is a ``_UserAttributes`` view of it, and ``dir`` leaves the same names out. Split out of
``core/_tensor.py``, which tells this module the fields ``Tensor`` defaults at class level once the class exists
(``hide_class_fields``).
"""

from __future__ import annotations

import collections.abc
import copy

__all__ = ["hide_class_fields"]

_INTERNALS = frozenset(("__slots__", "_accum", "_alias", "_bump_version", "_data", "_grad_enabled_for", "_history",
                        "_one_element", "_output_nr", "_requires_grad", "_retains_grad", "_root", "_set_requires_grad",
                        "_vc", "_view_stamp", "_view_version", "_wrap", "volatile", "_scaled", "_creation",
                        "_view_of"))
_INTERNAL_PREFIXES = ("_sc_", "_sp_", "_q_")  # core._sparse_compressed's, _sparse_coo's and _quantized's members

class _UserAttributes(collections.abc.MutableMapping):
    """A tensor's ``__dict__`` as PyTorch shows it: the attributes a user (or a library) set, not core's autograd
    and view bookkeeping that lives in the same dictionary (``_requires_grad``, ``_grad_fn``, ``_base``...). Reads
    and writes go to the tensor's dictionary, so ``t.__dict__["x"] = 1`` sets ``t.x``; ``Parameter(p.to(device),
    **p.__dict__)`` (accelerate's and transformers' ``init_empty_weights``) passes only what PyTorch would."""

    __slots__ = ("_real",)

    def __init__(self, real: dict):
        self._real = real

    def __getitem__(self, key):
        if _is_internal(key):
            raise KeyError(key)
        return self._real[key]

    def __setitem__(self, key, value) -> None:
        self._real[key] = value

    def __delitem__(self, key) -> None:
        if _is_internal(key):
            raise KeyError(key)
        del self._real[key]

    def __iter__(self):
        return iter([k for k in self._real if not _is_internal(k)])

    def __len__(self) -> int:
        return sum(1 for k in self._real if not _is_internal(k))

    def __repr__(self) -> str:
        return repr(dict(self))

    def __eq__(self, other) -> bool:
        return dict(self) == other

    def copy(self) -> dict:
        return dict(self)

    def __copy__(self) -> dict:  # copy.copy / copy.deepcopy / pickle of t.__dict__: torch's is a dict of those
        return dict(self)

    def __deepcopy__(self, memo) -> dict:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self):
        return dict, (dict(self),)


def _is_internal(key) -> bool:
    return isinstance(key, str) and (key in _HIDDEN_STATE or key.startswith(_INTERNAL_PREFIXES))


# what core keeps in a tensor's dictionary that PyTorch keeps in C++: the autograd fields Tensor defaults at class
# level (added by hide_class_fields), and the names core's modules set (``_INTERNALS``); ``__dict__`` leaves them out
_HIDDEN_STATE = _INTERNALS | {"_wrapper_subclass"}


def hide_class_fields(cls) -> None:
    """Leave out of ``__dict__`` the private fields ``cls`` (``Tensor``) defaults at class level."""
    global _HIDDEN_STATE
    _HIDDEN_STATE = _HIDDEN_STATE | {
        n for n, v in vars(cls).items()
        if n.startswith("_") and not n.startswith("__") and not callable(v)
        and not isinstance(v, (property, staticmethod, classmethod))}
