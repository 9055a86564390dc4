"""The ``*_copy`` forms of the view ops (``torch.permute_copy``, ``torch.split_copy``...) and the ``unsafe_`` splits.

A ``*_copy`` op gives what its view op gives, in fresh contiguous memory that aliases nothing; its grad_fn is
named as PyTorch names it (``PermuteBackward0_copy``). Every view op is linear, so one backward serves them all:
the gradient is the vector-Jacobian product of the view op itself, taken by running it again on a stand-in input
(differentiable, so higher-order gradients work). ``unsafe_chunk``/``unsafe_split``/``unsafe_split_with_sizes``
split as the ordinary splits, but their pieces are not views (PyTorch does not guard them against in-place use).
"""

from __future__ import annotations

import re

from core._tensor import Tensor
from core.autograd import grad_mode
from core.autograd.function import Function
from core.ops.movement import SplitWithSizes

__all__ = ["permute_copy", "transpose_copy", "t_copy", "view_copy", "expand_copy", "squeeze_copy", "unsqueeze_copy",
           "diagonal_copy", "select_copy", "slice_copy", "split_copy", "split_with_sizes_copy", "unbind_copy",
           "alias_copy", "as_strided_copy", "unfold_copy", "detach_copy", "unsafe_chunk", "unsafe_split",
           "unsafe_split_with_sizes"]


class _ViewCopy(Function):
    """``view(input, *args)`` copied out; the subclasses differ only in their grad_fn's name."""

    @staticmethod
    def forward(ctx, input, *, view, args):
        ctx.view, ctx.args, ctx.meta = view, args, (input.shape, input.dtype, input.device)
        out = view(input, *args)
        if isinstance(out, (tuple, list)):
            return tuple(o.contiguous()._data.copy() for o in out)
        return out.contiguous()._data.copy()

    @staticmethod
    def backward(ctx, *grads):
        import core

        shape, dtype, device = ctx.meta
        create = grad_mode.is_grad_enabled()
        with grad_mode.enable_grad():
            stand_in = core.zeros(shape, dtype=dtype, device=device, requires_grad=True)
            out = ctx.view(stand_in, *ctx.args)
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            (grad,) = core.autograd.grad(outs, stand_in, list(grads), create_graph=create, allow_unused=True)
        return grad


def _copy_op(node_name: str):
    return type(node_name.replace("Backward0_copy", "Copy"), (_ViewCopy,), {"node_name": node_name})


_NODES = {name: _copy_op(f"{name}Backward0_copy") for name in
          ("Permute", "Transpose", "T", "View", "Expand", "Squeeze", "Unsqueeze", "Diagonal", "Select", "Slice",
           "Split", "SplitWithSizes", "Unbind", "Alias", "AsStrided", "Unfold")}


def _run(name: str, input: Tensor, view, *args, out=None):
    result = _NODES[name].apply(input, view=view, args=args)
    if out is None:
        return result
    if isinstance(result, tuple):
        for o, r in zip(out, result):
            o.copy_(r.detach())
        return out
    from core.ops.out_arg import write_into_out  # torch's out= rules (warning, dtype, autograd, overlap)

    return write_into_out(_snake(name) + "_copy", result.detach(), out, (input,))  # (no autograd refusal: torch's)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def permute_copy(input, dims, *, out=None):
    return _run("Permute", input, Tensor.permute, tuple(dims), out=out)


def transpose_copy(input, dim0, dim1, *, out=None):
    return _run("Transpose", input, Tensor.transpose, dim0, dim1, out=out)


def t_copy(input, *, out=None):
    return _run("T", input, Tensor.t, out=out)


def view_copy(input, size, *, out=None):
    """``input.view(size)`` copied; a dtype instead of a size reinterprets the bits (no gradient), as torch's."""
    if not isinstance(size, (tuple, list, Tensor)) and not isinstance(size, int):
        return input.view(size).clone()
    return _run("View", input, Tensor.view, tuple(size) if not isinstance(size, int) else (size,), out=out)


def expand_copy(input, size, *, implicit=False, out=None):
    return _run("Expand", input, Tensor.expand, tuple(size), out=out)


def squeeze_copy(input, dim=None, *, out=None):
    return _run("Squeeze", input, Tensor.squeeze, *(() if dim is None else (dim,)), out=out)


def unsqueeze_copy(input, dim, *, out=None):
    return _run("Unsqueeze", input, Tensor.unsqueeze, dim, out=out)


def diagonal_copy(input, offset=0, dim1=0, dim2=1, *, out=None):
    return _run("Diagonal", input, Tensor.diagonal, offset, dim1, dim2, out=out)


def select_copy(input, dim, index, *, out=None):
    return _run("Select", input, Tensor.select, dim, index, out=out)


def _slice(input, dim, start, end, step):
    index = [slice(None)] * input.dim()
    index[dim] = slice(start, end, step)
    return input[tuple(index)]


def slice_copy(input, dim=0, start=None, end=None, step=1, *, out=None):
    return _run("Slice", input, _slice, dim, start, end, step, out=out)


def split_copy(input, split_size, dim=0, *, out=None):
    return _run("Split", input, Tensor.split, split_size, dim, out=out)


def split_with_sizes_copy(input, split_sizes, dim=0, *, out=None):
    return _run("SplitWithSizes", input, Tensor.split, list(split_sizes), dim, out=out)


def unbind_copy(input, dim=0, *, out=None):
    return _run("Unbind", input, Tensor.unbind, dim, out=out)


def alias_copy(input, *, out=None):
    return _run("Alias", input, Tensor.view_as, input, out=out)


def as_strided_copy(input, size, stride, storage_offset=None, *, out=None):
    return _run("AsStrided", input, Tensor.as_strided, tuple(size), tuple(stride), storage_offset, out=out)


def unfold_copy(input, dimension, size, step, *, out=None):
    return _run("Unfold", input, Tensor.unfold, dimension, size, step, out=out)


def detach_copy(input, *, out=None):
    """A detached copy (PyTorch's own result claims requires_grad with a grad_fn it cannot run)."""
    result = input.detach().clone()
    return result if out is None else out.copy_(result)


class _UnsafeSplit(SplitWithSizes):
    node_name = "UnsafeSplitBackward0"


class _UnsafeSplitWithSizes(SplitWithSizes):
    node_name = "UnsafeSplitWithSizesBackward0"


def _unsafe(node, input, pieces, dim):
    """The split's pieces (``pieces``, checked by the safe split) again, as PyTorch's unsafe split makes them: in
    the input's memory, but not views of it (no ``_base``, a version counter of their own), so writable in place."""
    if not isinstance(input, Tensor):
        return pieces
    dim = dim + input.ndim if dim < 0 else dim
    outs = node.apply(input, sizes=tuple(p.shape[dim] for p in pieces), dim=dim)
    for o in outs:
        o._base, o._vc, o._creation = None, [0], None
    return outs


def unsafe_chunk(input, chunks, dim=0):
    return _unsafe(_UnsafeSplit, input, input.detach().chunk(chunks, dim), dim)


def unsafe_split(input, split_size, dim=0):
    return _unsafe(_UnsafeSplit, input, input.detach().split(split_size, dim), dim)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    return _unsafe(_UnsafeSplitWithSizes, input, input.detach().split(list(split_sizes), dim), dim)
