"""More of torch's numeric ops, composed from core ops: trapezoid rules, Cholesky solves and inverse, the
deprecated ``torch.cholesky``, ``mvlgamma``, ``nextafter``, ``index_reduce``, ``vander``; and the Tensor methods
``apply_``, ``map_``, ``resize_`` and ``share_memory_``.

Everything differentiable is built from differentiable ops (no backward of its own) but ``cholesky_solve``, whose
factor gets torch's gradient over the whole matrix; ``nextafter`` has a node whose backward raises, as PyTorch's does.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core._arg_types import require_tensors
from core._dtype import SCALAR_NAMES
from core._memory_format import laid_out_like_operands
from core._tensor import Tensor, mark_shared
from core._warn_once import warn_once
from core.autograd.function import Function
from core.ops._util import xp_of
from core.overrides import handle_torch_function, has_torch_function_variadic

__all__ = ["trapezoid", "trapz", "cumulative_trapezoid", "cholesky_solve", "cholesky_inverse", "cholesky",
           "mvlgamma", "nextafter", "index_reduce", "vander"]


def _spacing(y: Tensor, x, dim: int):
    """The sample spacing along ``dim``: x's differences viewed to broadcast against y."""
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.ndim
        shape[dim] = x.shape[0]
        x = x.view(shape)
    elif x.ndim < y.ndim:
        x = x.view([1] * (y.ndim - x.ndim) + list(x.shape))
    n = x.shape[dim]
    return x.narrow(dim, 1, n - 1) - x.narrow(dim, 0, n - 1)


def _empty_integral(y: Tensor, dim: int) -> Tensor:
    shape = list(y.shape)
    del shape[dim]
    return core.zeros(shape, dtype=y.dtype, device=y.device)


def _check_real(y, x) -> None:
    if y.dtype is core.bool or (isinstance(x, Tensor) and x.dtype is core.bool):
        raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is not supported")


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoid rule along ``dim``: with sample points ``x`` or a constant spacing ``dx`` (default 1)."""
    dim = dim % y.ndim if y.ndim else dim
    _check_real(y, x)
    if y.shape[dim] == 0:
        return _empty_integral(y, dim)
    n = y.shape[dim]
    if isinstance(x, Tensor):
        return (_spacing(y, x, dim) * (y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1))).sum(dim) / 2.0
    step = 1 if dx is None else (x if x is not None else dx)
    if isinstance(step, bool) or not isinstance(step, (int, float)):
        raise RuntimeError("trapezoid: Currently, we only support dx as a real number.")
    return (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * step


def trapz(y, x=None, *, dx=None, dim=-1):
    """``torch.trapz``: the older name of ``trapezoid``."""
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid integral along ``dim`` (one element shorter than ``y`` there)."""
    dim = dim % y.ndim if y.ndim else dim
    _check_real(y, x)
    n = y.shape[dim]
    if n == 0:
        return core.zeros_like(y)
    pairs = y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)
    if isinstance(x, Tensor):
        return (_spacing(y, x, dim) / 2.0 * pairs).cumsum(dim)
    step = 1 if dx is None else dx
    return (step / 2.0 * pairs).cumsum(dim)


def cholesky_solve(B, L, upper=False):
    """X with (L L^H) X = B (or U^H U with ``upper``): two triangular solves, batched and broadcast."""
    if not (isinstance(B, Tensor) and isinstance(L, Tensor)) and has_torch_function_variadic(B, L):  # a tensor-like
        return handle_torch_function(core.cholesky_solve, (B, L), B, L, **({"upper": upper} if upper else {}))
    if B.ndim < 2 or L.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {B.ndim} dimensions instead"
                           if B.ndim < 2 else
                           f"u should have at least 2 dimensions, but has {L.ndim} dimensions instead")
    if B.dtype is not L.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {B.dtype} and A of type "
                           f"{L.dtype} instead.")
    batch = core.broadcast_shapes(B.shape[:-2], L.shape[:-2])
    if B.shape[:-2] != batch:  # (the expands' backward sums the gradients back to the given batch shapes)
        B = B.expand(*batch, *B.shape[-2:])
    if L.shape[:-2] != batch:
        L = L.expand(*batch, *L.shape[-2:])
    return CholeskySolve.apply(B, L, upper=upper)


class CholeskySolve(Function):
    """Two triangular solves, with torch's gradient: the factor's is -C L (-L C with ``upper``) for C = gB X^H +
    X gB^H, over the whole matrix, not confined to the triangle the solves read (GPyTorch's tests compare it
    with the gradient through ``L @ L.mT``)."""

    node_name = "CholeskySolveBackward0"

    @staticmethod
    def forward(ctx, B, L, *, upper):
        lower = L.mH if upper else L  # (conjugate transposes: A = L L^H for a complex factor)
        y = core.linalg.solve_triangular(lower, B, upper=False)
        X = core.linalg.solve_triangular(lower.mH, y, upper=True)
        ctx.save_for_backward(L, X, B)  # (torch's saved set: self, input2, result)
        ctx.upper = upper
        return X._data

    @staticmethod
    def backward(ctx, g):
        L, X, B = ctx._unpacked
        if core.is_grad_enabled():  # create_graph: the solution again, as a function of B and L for the 2nd order
            X = cholesky_solve(B, L, ctx.upper)
        gB = cholesky_solve(g, L, ctx.upper)
        common = core.matmul(gB, X.mH)
        common = common + common.mH
        return gB, -(core.matmul(L, common) if ctx.upper else core.matmul(common, L))


def cholesky_inverse(L, upper=False):
    """(L L^H)^-1 (or (U^H U)^-1) from a Cholesky factor."""
    if L.ndim < 2:
        raise RuntimeError("cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    return CholeskyInverse.apply(L, upper=upper)


class CholeskyInverse(Function):
    """``cholesky_solve`` of the identity, under torch's own node name: the factor's gradient is the solve's,
    -C L (-L C with ``upper``) for C = gI X^H + X gI^H, gI = cholesky_solve(g, L)."""

    node_name = "CholeskyInverseBackward0"

    @staticmethod
    def forward(ctx, L, *, upper):
        eye = core.eye(L.shape[-1], dtype=L.dtype, device=L.device).expand(L.shape)
        X = cholesky_solve(eye, L, upper)
        ctx.save_for_backward(L, X)
        ctx.upper = upper
        return X._data

    @staticmethod
    def backward(ctx, g):
        L, X = ctx._unpacked
        if core.is_grad_enabled():  # create_graph: the inverse again, as a function of L for the 2nd order
            X = cholesky_inverse(L, ctx.upper)
        gI = cholesky_solve(g, L, ctx.upper)
        common = core.matmul(gI, X.mH)
        common = common + common.mH
        return -(core.matmul(L, common) if ctx.upper else core.matmul(common, L))


def cholesky(input, upper=False):
    """The deprecated ``torch.cholesky``: ``linalg.cholesky`` (transposed with ``upper``), warning once."""
    warn_once("cholesky", "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
              "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
              "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced with\n"
              "U = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for all valid "
              "(symmetric positive definite) inputs.")  # (PyTorch's TORCH_WARN_ONCE)
    try:
        return core.linalg.cholesky(input, upper=upper)
    except core.linalg.LinAlgError as error:  # the old op's own name in the message, as torch's
        raise type(error)(str(error).replace("linalg.cholesky:", "cholesky:", 1)) from None


def mvlgamma(input, p):
    """The multivariate log-gamma of dimension ``p``: sum of lgamma(x - i/2), i < p, plus p(p-1)/4 log(pi)."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = input if input.is_floating_point() else input.to(core.get_default_dtype())
    offsets = core.arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=x.dtype, device=x.device)
    return core.lgamma(x.unsqueeze(-1) + offsets).sum(-1) + p * (p - 1) * math.log(math.pi) / 4


class Nextafter(Function):
    """The next representable float after ``input`` towards ``other``: a step of one ulp, so PyTorch passes the
    gradient through to ``input`` and sends ``other`` zeros."""

    node_name = "NextafterBackward0"

    @staticmethod
    def forward(ctx, input, other, *, dtype):
        xp = xp_of(input._data)
        res = xp.nextafter(input._data.astype(dtype, copy=False), other._data.astype(dtype, copy=False))
        return res if res.ndim < 2 else laid_out_like_operands(res, input._data, other._data)

    @staticmethod
    def backward(ctx, g):
        return g, core.zeros_like(g)


def nextafter(input, other):
    require_tensors("nextafter", input=(1, input), other=(2, other))
    dtype = core.result_type(input, other)
    if not dtype.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{SCALAR_NAMES[dtype.name]}'")
    a, b = core.broadcast_tensors(input, other)
    return Nextafter.apply(a, b, dtype=dtype.np)


def _index_as_scatter(input, dim, index, source):
    dim = dim % max(input.ndim, 1)
    if index.ndim > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    if index.dtype is not core.int64 and index.dtype is not core.int32:
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{SCALAR_NAMES[index.dtype.name]}")
    if source.ndim and source.shape[dim] != index.numel():
        raise IndexError("index_reduce_(): Number of indices should be equal to source.size(dim)")
    if not source.ndim:  # (a 0-d source is one slice: a 0-d index, as scatter takes it)
        return dim, index.long().reshape(())
    shape = [1] * source.ndim
    shape[dim] = index.numel()
    return dim, index.long().view(shape).expand(source.shape)


def index_reduce(input, dim, index, source, reduce, *, include_self=True):
    """``reduce`` ('prod', 'mean', 'amax', 'amin') of ``source``'s slices into ``input``'s slices at ``index``."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    dim, idx = _index_as_scatter(input, dim, index, source)
    return input.scatter_reduce(dim, idx, source, reduce, include_self=include_self)


def index_reduce_(input, dim, index, source, reduce, *, include_self=True):
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    dim, idx = _index_as_scatter(input, dim, index, source)
    return input.scatter_reduce_(dim, idx, source, reduce, include_self=include_self)


def _no_grad_leaf(self, name: str) -> None:
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")


def apply_(self, callable):
    """Replace every element with ``callable(element)`` in place (a Python loop, as in PyTorch; CPU only)."""
    _no_grad_leaf(self, "apply_")
    if self.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    flat = [callable(v) for v in self._data.reshape(-1).tolist()]
    self._data[...] = np.asarray(flat).astype(self._data.dtype).reshape(self._data.shape)
    self._vc[0] += 1
    return self


def map_(self, tensor, callable):
    """``self[i] = callable(self[i], tensor[i])`` in place, ``tensor`` broadcast to ``self``'s shape."""
    _no_grad_leaf(self, "map_")
    other = tensor.expand(self.shape)._data.reshape(-1).tolist()
    flat = [callable(a, b) for a, b in zip(self._data.reshape(-1).tolist(), other)]
    self._data[...] = np.asarray(flat).astype(self._data.dtype).reshape(self._data.shape)
    self._vc[0] += 1
    return self


def resize_(self, *sizes, memory_format=None):
    """Give ``self`` a new shape in place: the first elements are kept, new ones are uninitialised (zeros)."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    shape = tuple(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)) else tuple(sizes)
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    n = int(np.prod(shape, dtype=np.int64))
    if self._data.flags.c_contiguous and n == self._data.size:
        self._data = self._data.reshape(shape)
        return self
    storage = _flat_storage(self)
    if storage is not None:
        return _resize_over_storage(self, storage, shape, n)
    xp = xp_of(self._data)
    flat = xp.zeros(n, dtype=self._data.dtype)
    old = self._data.reshape(-1)
    flat[:min(n, old.size)] = old[:n]
    self._data = self._root = flat.reshape(shape)
    return self


def _flat_storage(self):
    """The tensor's storage as a flat array of its dtype (its root's memory), or None when the root is not one."""
    root = self._root
    flags = getattr(root, "flags", None)
    if flags is None or not flags.c_contiguous or root.dtype != self._data.dtype:
        return None
    return root.reshape(-1)


def _resize_over_storage(self, storage, shape: tuple, n: int):
    """PyTorch's resize_: a contiguous view of the storage from the tensor's offset; a storage too small grows,
    keeping what it held (the new elements are zeros here, uninitialised in PyTorch). Other tensors over the old
    storage keep it (in PyTorch they would see the grown one)."""
    offset = self.storage_offset() if self._data.size else 0
    if offset + n > storage.size:
        grown = xp_of(storage).zeros(offset + n, dtype=storage.dtype)
        grown[:storage.size] = storage
        storage = self._root = grown
    self._data = storage[offset:offset + n].reshape(shape)
    return self


def mvlgamma_(self, p):
    if not self.is_floating_point():  # (PyTorch's message names the input's type first)
        raise RuntimeError(f"mvlgamma: result type {SCALAR_NAMES[self.dtype.name]} can't be cast to the desired "
                           f"output type {SCALAR_NAMES[core.get_default_dtype().name]}")
    return self.copy_(mvlgamma(self, p))


def nextafter_(self, other):
    require_tensors("nextafter_", other=(1, other))
    dtype = core.result_type(self, other)
    if not core.can_cast(dtype, self.dtype):
        raise RuntimeError(f"result type {SCALAR_NAMES[dtype.name]} can't be cast to the desired output type "
                           f"{SCALAR_NAMES[self.dtype.name]}")
    return self.copy_(nextafter(self, other))


def resize_as_(self, other, memory_format=None):
    return resize_(self, tuple(other.shape))


def share_memory_(self):
    """``self``, marked shared: ``is_shared()`` is then True for it and its views.

    core's tensors never leave their process; the mark only answers ``is_shared``, as after PyTorch's move."""
    mark_shared(self)
    return self


def vander(x: Tensor, N=None, increasing: bool = False) -> Tensor:
    """``torch.vander``: columns ``x**(N-1) ... x**0`` (``increasing=True`` reverses them); integer inputs give
    int64, as PyTorch's cumprod does. Built like PyTorch's: ones, then cumulative products, then a flip."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dt = core.promote_types(x.dtype, core.long)
    ones = core.ones(x.shape[0], min(n, 1), dtype=dt, device=x.device)
    result = ones
    if n > 1:
        result = core.cat([ones, core.cumprod(x.unsqueeze(1).expand(x.shape[0], n - 1), 1, dtype=dt)], 1)
    return result if increasing else core.flip(result, [1])
