"""``Tensor.grad_dtype``: the dtype a leaf's ``.grad`` must have (by default the leaf's own; None: any).

PyTorch keeps it in the leaf's autograd metadata; here a leaf that was given one carries it in its instance
dict (``_grad_dtype``), so a leaf that never was costs nothing. The engine casts a gradient it accumulates into
a leaf to that dtype; assigning ``.grad`` checks it.
"""

from __future__ import annotations

_DEFAULT = object()


def _instance_dict(t) -> dict:
    """``t``'s real dictionary, where core keeps the field (``t.__dict__`` shows only a user's attributes)."""
    from core._tensor import _INSTANCE_DICT  # lazy: the tensor layer imports this module

    return _INSTANCE_DICT.__get__(t)


def get(t):
    if t.grad_fn is not None:
        raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
    found = _instance_dict(t).get("_grad_dtype", _DEFAULT)
    return t.dtype if found is _DEFAULT else found


def set_(t, dtype) -> None:
    if t.grad_fn is not None:
        raise RuntimeError("grad_dtype can only be set on leaf tensors.")
    if dtype is not None:
        from core import _dtype

        dtype = _dtype.to_dtype(dtype)
    _instance_dict(t)["_grad_dtype"] = dtype


def allowed(t):
    """The dtype an assigned ``.grad`` must have, or None for any."""
    found = _instance_dict(t).get("_grad_dtype", _DEFAULT)
    return t.dtype if found is _DEFAULT else found


def cast_incoming(leaf, g):
    """The gradient ``g`` in the leaf's grad_dtype when one was set (the default is the engine's own cast)."""
    found = leaf.__dict__.get("_grad_dtype", _DEFAULT)
    if found is _DEFAULT or found is None or g.dtype is found:
        return g
    return g.to(found)
