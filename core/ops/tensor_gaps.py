"""Tensor methods (and their ``torch.*`` forms) that real code calls and core lacked: the in-place re-viewing
``set_``/``as_strided_``, ``as_strided_scatter``, the deprecated out-of-place ``resize``/``resize_as``,
``nonzero_static``, ``ormqr``, ``map2_``, ``module_load``, ``as_subclass``, method forms of existing ops, and a
dense tensor's answers to the sparse queries (``sparse_dim`` 0, ``dense_dim`` its dims, PyTorch's errors from
``coalesce``/``indices``/``values``; ``core._sparse_coo``'s tensors answer for themselves).

``set_`` and ``as_strided_`` rebind the tensor to other memory, as PyTorch's do; like PyTorch they refuse a leaf
that requires grad while grad mode is on, and they record no graph.
"""

from __future__ import annotations

import numpy as np

import core
from core import _torch_function
from core._tensor import _INSTANCE_DICT, Tensor
from core._user_warning import warn_user
from core.autograd import grad_mode, view_meta
from core.autograd.function import Function
from core.ops.copy_variants import unsafe_chunk, unsafe_split, unsafe_split_with_sizes
from core.ops.elementwise import check_inplace
from core.ops.index_primitives import Alias
from core.ops.misc_more import i0, i0_, igamma, igammac
from core.ops.numeric_more import resize_as_
from core.ops.views import AsStrided, as_strided

__all__ = ["as_strided_", "as_strided_scatter", "nonzero_static", "ormqr", "resize_as_", "is_distributed"]


def _rebind(self, other) -> Tensor:
    """``self`` now looks at ``other``'s memory (same storage, version counter and geometry)."""
    if self.requires_grad and self.is_leaf and grad_mode.is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = self._base
    if base is not None and base.requires_grad and base.is_leaf and grad_mode.is_grad_enabled():
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    self._data, self._root, self._vc = other._data, other._root, other._vc
    return self


def set_(self, source=None, storage_offset=0, size=None, stride=None):
    """``self`` shares ``source``'s memory, a tensor's or a storage's (a strided view of it with ``size``/``stride``
    at ``storage_offset``, as multiprocessing's and MONAI's rebuilds call it); no source: empty."""
    if source is None:
        return _rebind(self, core.empty(0, dtype=self.dtype, device=self.device))
    if core.is_storage(source):  # its bytes as self's dtype: the whole storage, or a strided view at the offset
        from core.storage import over_storage  # NOTE: at call time (core.storage imports the ops)

        flat = core.empty(0, dtype=self.dtype, device=self.device)
        over_storage(flat, source, self.dtype)
        if size is None:
            return _rebind(self, flat)
        return _rebind(self, as_strided(flat, size, stride if stride is not None else _contiguous(size),
                                        storage_offset))
    if not isinstance(source, Tensor):
        raise TypeError(f"set_() received an invalid combination of arguments - got ({type(source).__name__})")
    if size is not None:
        source = as_strided(source.detach(), size, stride if stride is not None else _contiguous(size),
                            source.storage_offset() + storage_offset)
    return _rebind(self, source.detach())


def _contiguous(size):
    strides, step = [], 1
    for s in reversed(tuple(size)):
        strides.append(step)
        step *= max(s, 1)
    return tuple(reversed(strides))


class _AsStridedInplace(AsStrided):
    node_name = "AsStridedBackward1"  # PyTorch's in-place overload's node


def as_strided_(self, size, stride, storage_offset=None):
    """``self`` looks at its storage with the given geometry, recorded as torch's in-place node.

    A non-leaf that records keeps its history through AsStridedBackward1 (the gradient of the new geometry
    scattered back to the old one); the version moves, as for any in-place op."""
    if self._base is None and not self.is_leaf and self.requires_grad and grad_mode.is_grad_enabled():
        view = _AsStridedInplace.apply(self, size=tuple(size), stride=tuple(stride),
                                       storage_offset=int(self.storage_offset() if storage_offset is None
                                                          else storage_offset))
        node = view.grad_fn
        self._data = view._data
        self._grad_fn, self._output_nr = node, 0
        self._vc[0] += 1  # (an in-place op to autograd: what saved self before sees the change)
        return self
    view = as_strided(self.detach(), size, stride, storage_offset)
    if not (self.requires_grad and self.is_leaf and grad_mode.is_grad_enabled()):  # (_rebind refuses those)
        self._vc[0] += 1  # an in-place op to autograd (refused for an inference tensor outside the mode)
    view._vc = self._vc  # (not a detached inference tensor's own counter)
    return _rebind(self, view)


class AsStridedScatter(Function):
    """``as_strided_scatter`` as torch's node records it (AsStridedScatterBackward0).

    NOTE: torch's gradient of ``input`` is its as_strided_scatter_backward: ``grad`` at the scattered places and zero
    elsewhere (the reverse of what the forward reads from ``input``; torch's note calls its formula a simplification
    for contiguous inputs). core gives the same numbers, so that code ported from torch trains the same."""

    node_name = "AsStridedScatterBackward0"

    @staticmethod
    def forward(ctx, input, src, *, size, stride, storage_offset):
        ctx.shape, ctx.view = tuple(input.shape), (size, stride, storage_offset)
        out = input.clone()
        slice_ = out.as_strided(size, stride, storage_offset)
        if tuple(slice_.shape) != tuple(src.shape):
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{list(src.shape)}, slice size = {list(slice_.shape)}")
        slice_.copy_(src)
        return out

    @staticmethod
    def backward(ctx, g):
        size, stride, offset = ctx.view
        grad_slice = g.contiguous().as_strided(size, stride, 0 if offset is None else offset)
        grad_input = None
        if ctx.needs_input_grad[0]:
            zeros = core.zeros(ctx.shape, dtype=g.dtype, device=g.device)
            grad_input = as_strided_scatter(zeros, grad_slice, size, stride, 0 if offset is None else offset)
        return grad_input, grad_slice


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """A copy of ``input`` with ``src`` written where ``input.as_strided(size, stride, storage_offset)`` looks."""
    if input.requires_grad and grad_mode.is_grad_enabled() and not input.is_contiguous():
        raise RuntimeError("!self.requires_grad() || self.is_contiguous() INTERNAL ASSERT FAILED: as_strided_scatter "
                           "is currently only supported for contiguous inputs")
    offset = None if storage_offset is None else int(storage_offset)
    return AsStridedScatter.apply(input, src, size=tuple(size), stride=tuple(stride), storage_offset=offset)


def nonzero_static(input, *, size, fill_value=-1):
    """``nonzero()`` cut or padded (with ``fill_value`` rows) to exactly ``size`` rows."""
    found = core.nonzero(input)
    if found.shape[0] >= size:  # (row-major, as torch's: nonzero() itself is column-major)
        return found[:size].clone(memory_format=core.contiguous_format)
    pad = core.full((size - found.shape[0], input.dim()), fill_value, dtype=core.int64, device=input.device)
    return core.cat([found, pad])


def ormqr(input, input2, input3, left=True, transpose=False, *, out=None):
    """``Q @ C`` (or ``C @ Q``, with ``Q^T`` when ``transpose``) for Q given as ``geqrf``'s reflectors and tau."""
    _check_ormqr(input, input2, input3, left)
    m = input.shape[-2]
    reflectors = core.nn.functional.pad(input, (0, m - input.shape[-1])) if input.shape[-1] < m else input[..., :m]
    tau = core.nn.functional.pad(input2, (0, m - input2.shape[-1]))
    q = core.linalg.householder_product(reflectors, tau)
    if transpose:
        q = q.mT
    result = q @ input3 if left else input3 @ q
    return result if out is None else out.copy_(result.detach())


def _check_ormqr(input, tau, other, left: bool) -> None:
    """PyTorch's shape checks of ``ormqr``'s arguments, in its order."""
    for name, t in (("input", input), ("other", other)):
        if t.ndim < 2:
            raise RuntimeError(f"torch.ormqr: {name} must have at least 2 dimensions.")
    side = -2 if left else -1
    if other.shape[side] != input.shape[-2]:
        raise RuntimeError(f"torch.ormqr: other.shape[{side}] must be equal to input.shape[-2]")
    if (tau.shape[-1] if tau.ndim else 1) != min(other.shape[side], input.shape[-1]):
        raise RuntimeError("torch.ormqr: tau.shape[-1] must be equal to min(other.shape[-2], input.shape[-1])")
    if input.ndim - tau.ndim != 1:
        raise RuntimeError(f"torch.ormqr: Expected tau to have one dimension less than input, but got tau.ndim "
                           f"equal to {tau.ndim} and input.ndim is equal to {input.ndim}")
    if input.ndim != other.ndim:
        raise RuntimeError(f"torch.ormqr: Expected other to have the same number of dimensions as input, but got "
                           f"other.ndim equal to {other.ndim} and input.ndim is equal to {input.ndim}")


def is_distributed(self) -> bool:
    return False


def _resized(self, shape):
    n = int(np.prod(shape, dtype=np.int64))
    if n != self.numel():
        raise RuntimeError(f"requested resize to {'x'.join(map(str, shape))} ({n} elements in total), but the given "
                           f"tensor has a size of {'x'.join(map(str, self.shape))} ({self.numel()} elements). "
                           "autograd's resize can only change the shape of a given tensor, while preserving the "
                           "number of elements. ")
    return self.reshape(shape)


def _resize(self, *sizes):
    warn_user("non-inplace resize is deprecated")
    return _resized(self, tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else sizes)


def _resize_as(self, tensor):
    warn_user("non-inplace resize_as is deprecated")
    return _resized(self, tuple(tensor.shape))


def _map2_(self, x, y, callable):
    """``self[i] = callable(self[i], x[i], y[i])`` elementwise (CPU tensors, broadcasting ``x`` and ``y``)."""
    check_inplace(self)
    a = self._data
    xs, ys = (np.broadcast_to(t._data, a.shape) for t in (x, y))
    for index in np.ndindex(a.shape):
        a[index] = callable(a[index].item(), xs[index].item(), ys[index].item())
    self._vc[0] += 1
    return self


def _module_load(self, other, assign=False):
    """What ``load_state_dict`` puts in place of ``self``: ``other`` detached, or copied into ``self``."""
    return other.detach() if assign else self.copy_(other).detach()


def _as_subclass(self, cls):
    """``self`` seen as an instance of the Tensor subclass ``cls`` (same memory, same autograd history)."""
    _torch_function.check_subclass(cls)
    out = Alias.apply(self)  # torch's alias: AliasBackward0 when it records
    try:
        out.__class__ = cls
    except TypeError:  # cls declares __slots__ (another layout): an instance of it takes over the alias
        out = _moved_into(out, cls)
    return out


def _moved_into(t, cls):
    """A new ``cls`` instance with ``t``'s array, version counter and autograd state (grad_fn, base, view
    bookkeeping): ``t`` itself, for a class whose extra slots forbid assigning ``__class__``."""
    out = object.__new__(cls)
    out._data, out._root, out._vc = t._data, t._root, t._vc
    _INSTANCE_DICT.__get__(out).update(_INSTANCE_DICT.__get__(t))
    if t._creation is not None and t._requires_grad and t._grad_fn is None:  # a no-grad view following its base
        view_meta.note_no_grad_view(t._base, out)
    return out


def _const_data_ptr(self) -> int:
    return self.data_ptr()


def _sparse_only(name: str, layout_word: str = "sparse coordinate tensor"):
    def method(self):
        raise RuntimeError(f"{name} expected {layout_word} layout but got Strided")
    method.__name__ = name
    method.__doc__ = f"PyTorch's error: ``{name}`` needs a sparse COO tensor (``to_sparse()``)."
    return method


def _sparse_dim(self) -> int:
    return 0


def _dense_dim(self) -> int:
    return self.dim()


def _to_sparse_coo(self):
    return self.to_sparse()


def _i0_(self):
    return i0_(self)


def _igamma_(self, other):
    return self.copy_(igamma(self, other))


def _igammac_(self, other):
    return self.copy_(igammac(self, other))


def _is_nonzero(self) -> bool:
    return core.is_nonzero(self)


def _hardshrink(self, lambd=0.5):
    return core.nn.functional.hardshrink(self, lambd)


def _prelu(self, weight):
    return core.nn.functional.prelu(self, weight)


TENSOR_METHODS = {
    "set_": set_, "as_strided_": as_strided_, "as_strided_scatter": as_strided_scatter,
    "nonzero_static": nonzero_static, "ormqr": ormqr, "is_distributed": is_distributed, "resize": _resize,
    "resize_as": _resize_as, "map2_": _map2_, "module_load": _module_load, "as_subclass": _as_subclass,
    "i0": i0, "i0_": _i0_, "igamma": igamma, "igamma_": _igamma_, "igammac": igammac, "igammac_": _igammac_,
    "hardshrink": _hardshrink, "prelu": _prelu, "is_nonzero": _is_nonzero,
    "unsafe_chunk": unsafe_chunk, "unsafe_split": unsafe_split, "unsafe_split_with_sizes": unsafe_split_with_sizes,
    "const_data_ptr": _const_data_ptr, "sparse_dim": _sparse_dim, "dense_dim": _dense_dim,
    "to_sparse_coo": _to_sparse_coo, "coalesce": _sparse_only("coalesce"), "is_coalesced": _sparse_only("is_coalesced"),
    "indices": _sparse_only("indices"), "values": _sparse_only("values", "sparse tensor"),
}
