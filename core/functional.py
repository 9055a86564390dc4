"""``core.functional``: PyTorch's ``torch.functional`` module (``einsum``, ``split``, ``meshgrid``,
``norm``...), and the few of its functions core had not had (``meshgrid``, ``cdist``, ``block_diag``,
``cartesian_prod``, ``chain_matmul``, ``unravel_index``), built from core ops.
"""

import core
from core._tensor import Tensor
from core._user_warning import warn_in_core as _warn_in_core
from core._warn_once import warn_once as _warn_once
from core.ops import (  # re-exported under torch.functional's names
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_shapes,
    broadcast_tensors,
    einsum,
    norm,
    split,
    tensordot,
    unique,
    unique_consecutive,
)
from core.ops.cdist import cdist
from core.ops.out_arg import accept_out as _accept_out

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "block_diag", "broadcast_shapes", "broadcast_tensors",
           "cartesian_prod", "cdist", "chain_matmul", "einsum", "meshgrid", "norm", "split", "tensordot",
           "unique", "unique_consecutive", "unravel_index"]


def _tensors(args) -> tuple:
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else tuple(args)


def meshgrid(*tensors, indexing: str | None = None):
    """Grids from 1-D tensors, as expanded views (``indexing='ij'`` by default, with PyTorch's warning)."""
    tensors = _tensors(tensors)
    if indexing is None:
        _warn_once("meshgrid", "torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                  "argument.", _warn_in_core)  # (PyTorch's TORCH_WARN_ONCE, under torch.functional's wrapper)
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: " + repr(t))
    swap = indexing == "xy" and len(tensors) >= 2
    order = list(tensors)
    if swap:
        order[0], order[1] = order[1], order[0]
    shape = tuple(t.numel() for t in order)
    grids = []
    for i, t in enumerate(order):
        view = [1] * len(order)
        view[i] = -1
        grids.append(t.reshape(view).expand(shape))
    if swap:  # 'xy' is 'ij' over the first two inputs swapped, with the first two grids swapped back
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def block_diag(*tensors):
    """A block-diagonal matrix of the given (0-, 1- or 2-D) tensors."""
    mats = [t.reshape(1, -1) if t.ndim < 2 else t for t in (t.reshape(1, 1) if t.ndim == 0 else t for t in tensors)]
    if not mats:
        return core.empty(1, 0)
    dtype = core.result_type(*mats) if len(mats) > 1 else mats[0].dtype
    rows, cols = sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)
    out = core.zeros(rows, cols, dtype=dtype, device=mats[0].device)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def cartesian_prod(*tensors):
    """All combinations of the 1-D tensors' elements, as rows (one tensor: itself)."""
    for i, t in enumerate(tensors):
        if not isinstance(t, core.Tensor):
            from core._arg_types import tp_name

            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {tp_name(t)}")
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return core.stack([g.reshape(-1) for g in grids], dim=1)


@_accept_out
def chain_matmul(*matrices):
    """The product of the matrices (deprecated in PyTorch for ``torch.linalg.multi_dot``); ``out=`` as torch's."""
    _warn_once("chain_matmul", "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. "
              "Use torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
              "multiple parameters.", _warn_in_core)
    out = matrices[0]
    for m in matrices[1:]:
        out = out @ m
    return out


def unravel_index(indices, shape):
    """The coordinates of flat ``indices`` in an array of ``shape``, one tensor per dimension."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    idx = indices if isinstance(indices, Tensor) else core.tensor(indices)
    if idx.is_floating_point() or idx.dtype is core.bool:
        raise TypeError("expected 'indices' to be integer dtype, but got " + str(idx.dtype))
    idx = idx.long()  # (torch computes, and answers, in int64 whatever the integer dtype)
    out = []
    for size in reversed(shape):
        out.append(idx.remainder(size))
        idx = idx.div(size, rounding_mode="floor")
    return tuple(reversed(out))


def __getattr__(name: str):
    """``torch.functional.F``: torch's module imports ``torch.nn.functional as F`` at its top, and learners' code
    calls ``torch.functional.F.sigmoid``; core's is looked up on first use (core.nn imports after this module)."""
    if name == "F":
        import core.nn.functional as F

        return F
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
