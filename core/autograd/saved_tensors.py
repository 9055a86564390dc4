"""Saved tensors read back: what ``ctx._unpacked`` (a custom Function's ``ctx.saved_tensors``) and
``grad_fn._saved_<name>`` unpack, and their errors.

Apart from ``Function`` (``core.autograd.function``) and the node classes (``core.autograd.node``) because this is
where a saved tensor's version is checked against the one it was saved at (PyTorch's "modified by an inplace
operation" message), where an output saved detached is re-attached to its node, and where a number operand
reads back as PyTorch's 0-d tensor. ``function`` re-exports these names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from core.autograd import forward_ad as _forward_ad
from core.autograd import saved_hooks as _saved_hooks

if TYPE_CHECKING:
    from core.autograd.node import Node

_FREED = ("Trying to backward through the graph a second time (or directly access saved tensors "
          "after they have already been freed). Saved intermediate values of the graph are freed "
          "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
          "backward through the graph a second time or if you need to access saved tensors after "
          "calling backward.")


def _unpack(node: Node, entry):
    """Rebuild a saved tensor; check that no in-place op changed it since it was saved."""
    tensor, version, output_nr = entry
    if tensor is None:
        return None
    if version is _saved_hooks.HOOKED:  # packed by a saved_tensors_hooks pack_hook
        tensor, output_nr = tensor.unpack(), tensor.output_nr
    elif tensor._vc[0] != version:
        raise RuntimeError(_modified_message(node, tensor, version, output_nr))
    if output_nr >= 0:  # an output of this node, kept detached: re-attach it to this node
        out = tensor._alias(tensor._data, base=False)
        out._base = tensor._base
        out.grad_fn = node
        out._requires_grad = True
        out._output_nr = output_nr
        if _forward_ad._state.token is not None and "_fw_grad" in tensor.__dict__:  # its tangent, when made in a
            # forward-AD level (tangents are cleared on leaving it; the check first spares ~1 µs of t.__dict__)
            out._fw_grad = tensor._fw_grad
        return out
    return tensor


def _wrapped_number(value):
    """A number operand as PyTorch saves it: a 0-d tensor of int64, float64, complex128 or bool."""
    if value is None or hasattr(value, "_data"):
        return value
    dtype = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}[type(value)]
    from core.autograd.function import _tensor_cls  # (function imports this module)

    return _tensor_cls()._wrap(np.asarray(value, dtype=dtype))


class _SavedByName:
    """``grad_fn._saved_<name>`` (``_saved_self``, ``_saved_other``, ``_saved_result``...): what the node saved
    under PyTorch's name, for the ops whose Function lists ``saved_names``; a number operand is kept in
    ``scalars``. The metaclass puts one on each node class, for each name.

    NOTE: a descriptor instead of ``Node.__getattr__``: a class with ``__getattr__`` makes every attribute read of
    its instances take CPython's slower lookup (``ctx._saved``, ``node._edges``: ~2x each, on every op and node).
    It defines only ``__get__``, so a value set on the instance wins, as it did with ``__getattr__``.
    """

    __slots__ = ("index", "as_number")

    def __init__(self, index: int, name: str):
        self.index = index
        self.as_number = name in ("self", "other")  # a number operand reads back as PyTorch's 0-d tensor

    def __get__(self, node, owner=None):
        if node is None:
            return self
        value = _saved_by_name(node, self.index)
        return _wrapped_number(value) if self.as_number else value


def _saved_by_name(node: Node, i: int):
    if node._released:
        raise RuntimeError(_FREED)
    saved = node._saved or ()
    entry = saved[i] if i < len(saved) else None
    value = _unpack(node, entry) if entry is not None and type(saved) is not tuple else (
        saved[i] if type(saved) is tuple and i < len(saved) else None)
    if value is None and node.__dict__.get("scalars") is not None:  # a number operand (x * 2, x ** 2)
        return node.scalars[i]
    return value


def _op_name(node: Node) -> str:
    """The forward op a node records, as PyTorch names it in this message: ``ExpBackward0`` -> ``Exp``, but
    ``PowBackward1`` -> ``Pow1`` (the overload's number stays when it is not 0)."""
    name = node.name()
    stem = name.rstrip("0123456789")
    if not stem.endswith("Backward"):
        return name
    number = name[len(stem):]
    return stem[:-len("Backward")] + ("" if number == "0" else number)


def _modified_message(node: Node, tensor, version: int, output_nr: int) -> str:
    if output_nr >= 0:
        producer = f", which is output {output_nr} of {_op_name(node)},"
    elif tensor.grad_fn is not None:
        producer = f", which is output {tensor._output_nr} of {_op_name(tensor.grad_fn)},"
    else:
        producer = ""
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{tensor.type()} {list(tensor.shape)}]{producer} is at version {tensor._vc[0]}; expected version "
            f"{version} instead. Hint: enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
