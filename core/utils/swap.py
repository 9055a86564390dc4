"""``torch.utils.swap_tensors``: how a module's parameters are replaced while the objects other code holds (an
optimizer's parameter list) stay the same objects (``Tensor.module_load`` gives what is swapped in).

``swap_tensors(t1, t2)`` exchanges everything two tensor objects hold (their class, their array and storage,
version counter and every autograd field), so each keeps its identity and takes the other's content.
"""

from __future__ import annotations

from core._tensor import _INSTANCE_DICT, Tensor

__all__ = ["swap_tensors"]

_SLOTS = ("_data", "_root", "_vc")


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """``t1`` becomes what ``t2`` was and ``t2`` what ``t1`` was (class, data, autograd state); ids stay."""
    if not isinstance(t1, Tensor) or not isinstance(t2, Tensor):
        raise TypeError(f"swap_tensors expects two Tensors, got {type(t1).__name__} and {type(t2).__name__}")
    for name in _SLOTS:
        first, second = getattr(t1, name), getattr(t2, name)
        setattr(t1, name, second)
        setattr(t2, name, first)
    first, second = _INSTANCE_DICT.__get__(t1), _INSTANCE_DICT.__get__(t2)  # the real dictionaries: t.__dict__
    _INSTANCE_DICT.__set__(t1, second)  # shows only a user's attributes, core's autograd fields live beside them
    _INSTANCE_DICT.__set__(t2, first)
    t1.__class__, t2.__class__ = t2.__class__, t1.__class__
