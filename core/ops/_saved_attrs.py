"""``grad_fn._saved_<name>`` values that several op families read the same way from what their nodes already keep:
a product's operand sizes and strides (``_saved_self_sym_sizes``, ``_saved_mat2_sym_strides``), a reduction's dims
as the call gave them (``_saved_dim``) and a tensor's element count.

Nothing here is saved on the forward path: each is a descriptor (``SavedFromNode``/``SavedFromCtx``) a Function
class lists in its body, which the node reads when a user (torchviz's ``make_dot(show_attrs=True)``) asks.
"""

from __future__ import annotations

import math

from core._tensor import Tensor
from core.autograd.node_api import SavedFromCtx, SavedFromNode
from core.autograd.saved_hooks import HOOKED
from core.autograd.saved_tensors import _FREED

__all__ = ["factor_layout", "dims_as_given", "numel_of_input", "operand_shape", "reduction_code", "kept",
           "given", "index_tensor",
           "NORM_SAVED", "dims_shown",
           "DIM_AS_GIVEN"]


def _saved_operand(node, slot: int):
    """The tensor saved in ``slot``, without unpacking it (no version check, no unpack hook), or None."""
    saved = node._saved
    if saved is None or slot >= len(saved):
        return None
    entry = saved[slot]
    if type(saved) is tuple:  # (still inside forward)
        return entry
    return None if entry[1] is HOOKED else entry[0]


def operand_shape(node, slot: int, edge: int) -> tuple:
    """The shape of input ``edge``, saved in ``slot``: from the node's input metadata, else the saved tensor."""
    meta = node._in_meta[edge] if edge < len(node._in_meta) else None
    if meta is not None:
        return tuple(meta[0])
    t = _saved_operand(node, slot)
    if t is None:
        raise RuntimeError(_FREED) if node._released else KeyError(slot)
    return tuple(t.shape)


def _operand_strides(node, slot: int, edge: int, column_major: bool) -> tuple:
    """PyTorch keeps an operand's strides only when it needs a gradient (else ``()``). NOTE: where core did not
    save the operand (the other one needs no gradient), its strides are told from its layout flag (row-major or
    column-major, what the product's backward reads), so a sliced operand shows a dense one's strides."""
    if not node.needs_input_grad[edge]:
        return ()
    t = _saved_operand(node, slot)
    if t is not None:
        return tuple(t.stride())
    shape = operand_shape(node, slot, edge)
    if len(shape) != 2:
        return tuple(math.prod(shape[i + 1:]) for i in range(len(shape)))
    layouts = node.__dict__.get("column_major")
    column = layouts[slot] if layouts is not None else column_major
    return (1, shape[0]) if column else (shape[1], 1)


def factor_layout(slot: int, edge: int, column_major: bool = False) -> tuple:
    """``(_saved_<name>_sym_sizes, _saved_<name>_sym_strides)`` of a product's operand saved in ``slot`` and
    received as input ``edge`` (``column_major``: its layout when the node kept no flags, ``weight.t()``'s)."""
    return (SavedFromNode(lambda node: operand_shape(node, slot, edge)),
            SavedFromNode(lambda node: _operand_strides(node, slot, edge, column_major)))


def dims_as_given(key: str = "raw_dim", fallback: str | None = None) -> SavedFromCtx:
    """``_saved_dim`` of a reduction over dims, as the call gave them (PyTorch's ``IntArrayRef?``): a tuple (an int
    becomes a one-element tuple), None for ``dim=None``; ``fallback``: the ctx's key where the call's dims were
    already normalized (kept under ``key`` only when they differ)."""
    def read(ctx: dict):
        raw = ctx[key] if fallback is None or key in ctx else ctx[fallback]
        return None if raw is None else ((raw,) if isinstance(raw, int) else tuple(raw))

    return SavedFromCtx(read)


def numel_of_input(key: str = "in_shape") -> SavedFromCtx:
    """``_saved_self_sym_numel``: the element count of the shape the ctx kept under ``key``."""
    return SavedFromCtx(lambda ctx: math.prod(ctx[key]))


_REDUCTION_CODES = {"none": 0, "mean": 1, "sum": 2}  # PyTorch's at::Reduction enum


def reduction_code(key: str = "reduction") -> SavedFromCtx:
    """``_saved_reduction`` of a loss: the number PyTorch keeps for the ``reduction`` string its ctx kept."""
    return SavedFromCtx(lambda ctx: _REDUCTION_CODES[ctx[key]])


def kept(key: str, index: int | None = None) -> SavedFromCtx:
    """``_saved_<name>`` of a number or flag the ctx kept under ``key`` (item ``index`` of a tuple kept there), as
    the call gave it: PyTorch's ``Scalar`` keeps an int an int (``relu6``'s ``_saved_max_val`` is ``6``)."""
    return SavedFromCtx((lambda ctx: ctx[key]) if index is None else (lambda ctx: ctx[key][index]))


def given(pos: int, fallback=None, tensor: bool = False) -> SavedFromCtx:
    """``_saved_<name>`` of what the public call gave (item ``pos`` of the ``given`` tuple its ``apply`` passed: the
    dim before normalizing, the index tensor itself), else ``fallback(ctx)`` (a node a backward made): PyTorch shows
    a negative dim as given (wrapped to 64 bits) and keeps the caller's index tensor."""
    def read(ctx: dict):
        args = ctx.get("given")
        if args is None:
            if fallback is None:
                raise KeyError(pos)
            return fallback(ctx)
        return args[pos]

    return SavedFromCtx(read, tensor)


def index_tensor(array) -> Tensor:
    """An index array a node kept, as the int64 tensor PyTorch would have saved."""
    return Tensor._wrap(array.astype("int64", copy=False))


def dims_shown(dim):
    """A reduction's dims as PyTorch's node keeps an ``int[1]?`` argument: None, or a tuple (an int in one)."""
    return None if dim is None else (dim,) if isinstance(dim, int) else tuple(dim)


# LinalgVectorNormBackward0's _saved_ord, _saved_dim (as the call gave them: ``shown``), _saved_keepdim
NORM_SAVED = (SavedFromCtx(lambda ctx: ctx["shown"][0]), SavedFromCtx(lambda ctx: ctx["shown"][1]),
              SavedFromCtx(lambda ctx: ctx["keepdim"]))


# ``_saved_dim`` of a node whose ctx keeps the normalized ``dim`` and, where the call gave another (a negative one),
# that one as ``raw_dim``
DIM_AS_GIVEN = SavedFromCtx(lambda ctx: ctx.get("raw_dim", ctx["dim"]))
