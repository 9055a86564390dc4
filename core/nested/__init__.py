"""``torch.nested``: batches of tensors whose sizes differ in one (jagged) or more (strided) dims.

A nested tensor here is ``core.nested._nested_tensor.NestedTensor``, a plain Python class over its components
(core tensors); ops run per component with core's own ops, so autograd flows into the constituents. Making one
switches on core's ``__torch_function__`` dispatch, so ``torch.*`` and ``F.*`` functions hand it to the class.
"""

import core
from core._user_warning import warn_in_core as _warn_in_core
from core._warn_once import warn_once as _warn_once
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad
from core.nested._nested_tensor import NestedTensor as _NestedTensor
from core.nested._nested_tensor import jagged as _jagged_layout
from core.nested._nested_tensor import wrap_components as _wrap_components

__all__ = ["as_nested_tensor", "masked_select", "narrow", "nested_tensor", "nested_tensor_from_jagged",
           "to_padded_tensor"]

_STRIDED_WARNING = (
    "The PyTorch API of nested tensors is in prototype stage and will change in the near future. We recommend "
    "specifying layout=torch.jagged when constructing a nested tensor, as this layout receives active development, "
    "has better operator coverage, and works with torch.compile.")


def _check_layout(layout):
    if layout is None:
        return core.strided
    if layout is not core.strided and layout is not _jagged_layout:
        raise RuntimeError(f"Specified layout is unsupported for nested tensors: {layout}")
    return layout


def _components(tensor_list, dtype, device):
    if isinstance(tensor_list, core.Tensor) or not isinstance(tensor_list, (list, tuple)):
        raise TypeError("nested_tensor(): expected a list of tensors or of nested lists of numbers")
    return [(t if isinstance(t, core.Tensor) else core.as_tensor(t)).to(dtype=dtype, device=device)
            for t in tensor_list]


def _jagged(parts, requires_grad):
    if not parts:
        raise RuntimeError("Cannot construct a nested tensor from an empty tensor list")
    dims = {p.dim() for p in parts}
    if dims == {0} or len(dims) != 1:
        raise RuntimeError("When constructing a nested tensor, all tensors in list must have the same dim")
    if len({tuple(p.shape[1:]) for p in parts}) != 1:
        raise RuntimeError("When constructing a jagged nested tensor, all tensors in list must have the same "
                           "dim and all dims other than the first must be the same size")
    values = core.cat([p.detach() for p in parts], 0)
    if requires_grad:
        _set_requires_grad(values)
    lengths = [p.shape[0] for p in parts]
    offsets = core.tensor([0] + lengths, dtype=core.int64).cumsum(0)
    return _NestedTensor.from_values(values, offsets)


def nested_tensor(tensor_list, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A nested tensor with copies of ``tensor_list``'s tensors (a leaf, no autograd history)."""
    layout = _check_layout(layout)
    parts = _components(tensor_list, dtype, device)
    if layout is _jagged_layout:
        return _jagged(parts, requires_grad)
    _warn_once("nested prototype", _STRIDED_WARNING, _warn_in_core)  # (PyTorch's TORCH_WARN_ONCE)
    if len({p.dim() for p in parts}) > 1:
        raise RuntimeError("When constructing a nested tensor, all tensors in list must have the same dim")
    copies = [_set_requires_grad(p.detach().clone(), requires_grad) for p in parts]
    return _wrap_components(copies, core.strided)


def as_nested_tensor(ts, dtype=None, device=None, layout=None):
    """Like ``nested_tensor`` but the constituents keep their autograd history (a list of tensors, or a tensor
    whose first dim is the batch)."""
    layout = _check_layout(layout)
    if isinstance(ts, _NestedTensor):
        if layout is ts.layout and dtype in (None, ts.dtype):
            return ts
        ts = ts.unbind()
    parts = list(ts.unbind(0)) if isinstance(ts, core.Tensor) else list(ts)
    if not all(isinstance(p, core.Tensor) for p in parts):
        raise TypeError("as_nested_tensor(): Expected first argument to be a tensor or a list / tuple of tensors ")
    parts = [p.to(dtype=dtype, device=device) for p in parts]
    if layout is _jagged_layout:
        values = core.cat(parts, 0)
        offsets = core.tensor([0] + [p.shape[0] for p in parts], dtype=core.int64).cumsum(0)
        return _NestedTensor.from_values(values, offsets)
    return _wrap_components(parts, core.strided)


def nested_tensor_from_jagged(values, offsets=None, lengths=None, jagged_dim=None, min_seqlen=None,
                              max_seqlen=None):
    """A jagged nested tensor viewing ``values`` (its dim 0 split at ``offsets``, or at ``offsets[:-1]`` with
    ``lengths``), which keeps its autograd history."""
    if offsets is None:
        if lengths is None:
            raise RuntimeError("nested_tensor_from_jagged(): At least one of offsets or lengths is required.")
        offsets = core.cat([lengths.new_zeros(1), lengths.cumsum(0)])
        lengths = None
    if jagged_dim not in (None, 1):
        raise NotImplementedError("nested_tensor_from_jagged(): jagged_dim other than 1 is not supported in core")
    return _NestedTensor.from_values(values, offsets, lengths)


def narrow(tensor, dim, start, length, layout=core.strided):
    """Each constituent narrowed along ``dim`` (the jagged dim 1 here) from ``start`` (a number or a per-row
    tensor) for ``length``."""
    layout = _check_layout(layout)
    if dim != 1:
        raise RuntimeError("narrow(): only dim=1 supported for nested tensors")
    rows = tensor.unbind(0)
    starts = start.tolist() if isinstance(start, core.Tensor) else [start] * len(rows)
    lengths = length.tolist() if isinstance(length, core.Tensor) else [length] * len(rows)
    parts = [r.narrow(0, s, n) for r, s, n in zip(rows, starts, lengths)]
    if layout is _jagged_layout:
        return as_nested_tensor(parts, layout=_jagged_layout)
    return _wrap_components(parts, core.strided)


def to_padded_tensor(input, padding, output_size=None, out=None):
    """A dense tensor with the constituents placed at the start of each row and ``padding`` elsewhere."""
    if not isinstance(input, _NestedTensor):
        raise RuntimeError("to_padded_tensor(): expected a nested tensor")
    return input.to_padded_tensor(padding, output_size)


def masked_select(tensor, mask):
    """The elements of a dense ``tensor`` where ``mask`` is True, one jagged row per batch row."""
    if tensor.dim() != 2 or mask.shape != tensor.shape:
        raise RuntimeError("masked_select(): only 2-D tensor and mask of the same shape are supported in core")
    res = [tensor[i][mask[i]] for i in range(tensor.shape[0])]
    return as_nested_tensor(res, layout=_jagged_layout)
