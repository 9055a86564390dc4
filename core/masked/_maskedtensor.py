"""``torch.masked.MaskedTensor``: a tensor whose elements a boolean mask of the same shape keeps or masks out.

A MaskedTensor pairs a ``data`` tensor with a bool ``mask`` of the same size and layout (``True`` keeps an element;
strided or sparse COO: ``core.masked._sparse_mt``).
It is a plain Python class, not a ``core.Tensor`` subclass, so core's ordinary tensor ops never pay for it: its
methods run the op on the data (and, for shape ops, on the mask), and torch's functions given a MaskedTensor
(``torch.eq``, ``torch.cat``, ``torch.where``...) hand it to ``MaskedTensor.__torch_function__``: making the first
MaskedTensor switches on core's dispatch (``core._torch_function``). What each op does is in
``core.masked._maskedtensor_ops``.

Semantics follow PyTorch's prototype (``torch/masked/maskedtensor``):

- unary ops keep the mask; binary ops need equal masks (``ValueError`` otherwise) or a plain tensor/number as the
  other operand, and keep the MaskedTensor's mask;
- reductions (sum, mean, amax, amin, argmax, argmin, prod, all, norm, var, std) run ``core.masked``'s reduction
  with the mask; the result's mask is ``mask.any()`` over the reduced dims;
- shape ops (view, reshape, transpose, t, expand, select, unsqueeze, indexing, split) apply to data and mask;
- autograd runs on the data: ``masked_tensor(data, mask, requires_grad=True)`` is a leaf whose ``grad`` is a
  MaskedTensor whose mask the masks' backward computes (``core.masked._mask_grad``).

NOTE: torch warns "The PyTorch API of MaskedTensors is in prototype stage..." for every MaskedTensor it builds,
results included; core warns where the user builds one (``MaskedTensor``, ``masked_tensor``,
``as_masked_tensor``) and not for op results. A plain leaf tensor's gradient through a MaskedTensor is a MaskedTensor,
as torch's.
"""

from __future__ import annotations

import core
from core import _torch_function
from core._tensor import Tensor
from core._user_warning import warn_in_core
from core.autograd._transform_guard import set_requires_grad
from core.masked import _mask_grad, _printing, _sparse_mt

__all__ = ["MaskedTensor", "is_masked_tensor", "masked_tensor", "as_masked_tensor"]

_DTYPES = ("float16", "float32", "float64", "bool", "int8", "int16", "int32", "int64")
_PROTOTYPE_WARNING = ("The PyTorch API of MaskedTensors is in prototype stage and will change in the near future. "
                      "Please open a Github issue for features requests and see our documentation on the "
                      "torch.masked module for further information about the project.")
_FEATURE_REQUEST = ("If you would like this operator to be supported, please file an issue for a feature request at "
                    "https://github.com/pytorch/maskedtensor/issues with a minimal reproducible code snippet.\n"
                    "In the case that the semantics for the operator are not trivial, it would be appreciated "
                    "to also include a proposal for the semantics.")


def is_masked_tensor(obj, /) -> bool:
    """``torch.masked.is_masked_tensor``: whether ``obj`` is a MaskedTensor."""
    return isinstance(obj, MaskedTensor)


def masked_tensor(data, mask, requires_grad: bool = False) -> MaskedTensor:
    """``torch.masked.masked_tensor``: a MaskedTensor of copies of ``data`` and ``mask`` (a leaf)."""
    return MaskedTensor(data, mask, requires_grad)


def as_masked_tensor(data, mask) -> MaskedTensor:
    """``torch.masked.as_masked_tensor``: a MaskedTensor whose data stays differentiable with respect to ``data``."""
    data, mask = _check_members(data, mask)
    _warn_created(data)
    parents = [(data, _mask_grad.same)] if data.requires_grad and data.layout == core.strided else ()
    return _wrap(data.clone(), mask.clone(), parents)


def _check_members(data, mask) -> tuple:
    """PyTorch's construction checks, in its order; the data and mask to keep (COO ones coalesced)."""
    if is_masked_tensor(data) or not isinstance(data, Tensor):
        raise TypeError("data must be a Tensor")
    if is_masked_tensor(mask) or not isinstance(mask, Tensor):
        raise TypeError("mask must be a Tensor")
    if data.layout != mask.layout:
        raise TypeError("data and mask must have the same layout.")
    if data.layout == core.sparse_coo:
        data, mask = _sparse_mt.prepare(data, mask)
        if not _sparse_mt.same_indices(data, mask):
            raise ValueError("data and mask are both sparse COO tensors but do not have the same indices.")
    elif data.layout != core.strided:
        raise TypeError(f"data layout of {data.layout} is not supported.")
    if mask.dtype != core.bool:
        raise TypeError("mask must have dtype bool.")
    if str(data.dtype).removeprefix("torch.") not in _DTYPES:
        raise TypeError(f"{data.dtype} is not supported in MaskedTensor.")
    if data.dim() != mask.dim():
        raise ValueError("data.dim() must equal mask.dim()")
    if data.size() != mask.size():
        raise ValueError("data.size() must equal mask.size()")
    return data, mask


def _warn_created(data) -> None:
    """PyTorch's notes on a new MaskedTensor, which name its own files."""
    _torch_function.activate()  # from now on torch.cat, torch.eq, ... hand MaskedTensor arguments to it
    warn_in_core(_PROTOTYPE_WARNING)
    if data.requires_grad:
        warn_in_core("It is not recommended to create a MaskedTensor with a tensor that requires_grad. "
                     "To avoid this, you can use data.detach().clone()")


def _wrap(data, mask, parents=()) -> MaskedTensor:
    """A MaskedTensor around ``data`` and ``mask`` as they are: an op's result, no checks and no warning.
    ``parents``: the ``(MaskedTensor, rule)`` pairs its gradient mask flows back to (``core.masked._mask_grad``),
    kept while the data records a backward."""
    mt = object.__new__(MaskedTensor)
    mt._masked_data, mt._masked_mask, mt._grad_mask = data, mask, None
    mt._mask_parents = tuple(parents) if parents and data.grad_fn is not None else ()
    return mt


def _data(a):
    return a._masked_data if isinstance(a, MaskedTensor) else a


def _mask(a):
    return a._masked_mask if isinstance(a, MaskedTensor) else a


def _map(obj, pick):
    """``obj`` with each MaskedTensor inside (lists and tuples too) replaced by ``pick(it)``."""
    if isinstance(obj, MaskedTensor):
        return pick(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_map(o, pick) for o in obj)
    return obj


class MaskedTensor:
    """``torch.masked.MaskedTensor(data, mask, requires_grad=False)``: copies of ``data`` and its bool ``mask``."""

    def __init__(self, data, mask, requires_grad: bool = False):
        data, mask = _check_members(data, mask)
        _warn_created(data)
        if requires_grad and data.layout != core.strided:
            raise NotImplementedError("a sparse COO MaskedTensor cannot require grad in core (core's sparse tensors "
                                      "take no part in autograd)")
        # NOTE: core's detach() of a sparse tensor gives a strided one; sparse tensors record no autograd anyway
        self._masked_data = data.clone() if data.layout == core.sparse_coo else data.detach().clone()
        self._masked_mask = mask.clone()
        self._grad_mask, self._mask_parents = None, ()
        if requires_grad:
            set_requires_grad(self._masked_data)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return _ops.torch_function(func, args, kwargs or {})

    # ----- data, mask and conversions ---------------------------------------------------------------------
    def get_data(self):
        return self._masked_data

    def get_mask(self):
        return self._masked_mask

    @property
    def data(self):
        """As ``Tensor.data``: the same data and mask, detached from autograd."""
        data = self._masked_data
        return _wrap(data if data.layout == core.sparse_coo else data.detach(), self._masked_mask)

    def to_tensor(self, value):
        return self._masked_data.masked_fill(~self._masked_mask, value)

    def is_sparse_coo(self) -> bool:
        return self._masked_data.layout == core.sparse_coo

    def is_sparse_csr(self) -> bool:
        return False  # core has no sparse CSR tensors

    @property
    def is_sparse(self) -> bool:
        return self._masked_data.layout == core.sparse_coo

    def to_dense(self):
        if not self.is_sparse:
            return self
        return _wrap(self._masked_data.to_dense(), self._masked_mask.to_dense())

    def to_sparse(self):
        if self.is_sparse:
            return self
        return _wrap(*_sparse_mt.to_sparse(self._masked_data.detach(), self._masked_mask))

    to_sparse_coo = to_sparse

    def contiguous(self, memory_format=None):
        return _wrap(self._masked_data.contiguous(), self._masked_mask.contiguous(), [(self, _mask_grad.same)])

    def to(self, *args, **kwargs):
        mask_kwargs = dict(kwargs, dtype=core.bool)
        mask_args = tuple(a for a in args if not isinstance(a, core.dtype))
        return _wrap(self._masked_data.to(*args, **kwargs), self._masked_mask.to(*mask_args, **mask_kwargs),
                     [(self, _mask_grad.same)])

    def float(self):
        return self.to(core.float32)

    def double(self):
        return self.to(core.float64)

    def half(self):
        return self.to(core.float16)

    def detach(self):
        return _wrap(self._masked_data.detach(), self._masked_mask)

    def clone(self):
        return _wrap(self._masked_data.clone(), self._masked_mask, [(self, _mask_grad.same)])

    def item(self):
        if not self._masked_mask:
            raise ValueError("__torch_dispatch__, aten._local_scalar_dense.default: expected a mask tensor")
        return self._masked_data.item()

    # ----- metadata -----------------------------------------------------------------------------------------
    shape = property(lambda self: self._masked_data.shape)
    dtype = property(lambda self: self._masked_data.dtype)
    device = property(lambda self: self._masked_data.device)
    layout = property(lambda self: self._masked_data.layout)
    ndim = property(lambda self: self._masked_data.ndim)

    def size(self, dim=None):
        return self._masked_data.size() if dim is None else self._masked_data.size(dim)

    def dim(self) -> int:
        return self._masked_data.dim()

    def numel(self) -> int:
        return self._masked_data.numel()

    def __len__(self) -> int:
        return len(self._masked_data)

    # ----- autograd -----------------------------------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._masked_data.requires_grad

    def requires_grad_(self, requires_grad: bool = True):
        self._masked_data.requires_grad_(requires_grad)
        return self

    @property
    def is_leaf(self) -> bool:
        return self._masked_data.is_leaf

    @property
    def grad_fn(self):
        return self._masked_data.grad_fn

    @property
    def grad(self):
        """The leaf's gradient, as a MaskedTensor with the leaf's mask (None before a backward)."""
        g = _data(self._masked_data.grad)  # (a MaskedTensor where a backward found the data behind a plain tensor)
        if g is None:
            return None
        return _wrap(g, self._masked_mask if self._grad_mask is None else self._grad_mask)

    @grad.setter
    def grad(self, value):
        self._masked_data.grad = _data(value)
        self._grad_mask = value._masked_mask if isinstance(value, MaskedTensor) else None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """The data's backward; the leaves' gradient masks follow (``core.masked._mask_grad``), and a plain
        leaf tensor the MaskedTensor was computed from gets a MaskedTensor gradient, as in torch.

        NOTE: such a ``.grad`` is a MaskedTensor inside a plain tensor; a later backward through MaskedTensors
        accumulates into it, a plain backward into it does not."""
        start = gradient._masked_mask if isinstance(gradient, MaskedTensor) else self._masked_mask
        reached = _mask_grad.propagate([(self, start)]).values()
        plain = _mask_grad.plain_leaves(reached)
        before = {id(leaf): leaf._grad for leaf, _ in plain}
        for leaf, _ in plain:  # the engine accumulates into the plain data
            leaf._grad = _data(leaf._grad)
        self._masked_data.backward(_data(gradient), retain_graph=retain_graph, create_graph=create_graph,
                                   inputs=None if inputs is None else _map(list(inputs), _data))
        for leaf, g in plain:
            old = before[id(leaf)]
            if leaf._grad is not None:
                leaf._grad = _wrap(leaf._grad, g if not isinstance(old, MaskedTensor) else old._masked_mask | g)
        for leaf, g in reached:
            if isinstance(leaf, MaskedTensor) and leaf._masked_data.is_leaf and leaf._masked_data.requires_grad:
                leaf._grad_mask = g if leaf._grad_mask is None else leaf._grad_mask | g

    # ----- ops -----------------------------------------------------------------------------------------------
    def __getitem__(self, index):
        index = _data(index)
        return _wrap(self._masked_data[index], self._masked_mask[index],
                     [(self, _mask_grad.moved(lambda t: t[index], self.shape))])

    def where(self, condition, other):
        return _ops.where(condition, self, other)

    def softmax(self, dim, dtype=None):
        return _ops.softmax(self, dim, dtype)

    def __lt__(self, other):  # NOTE: as torch's, no check that the masks match
        return _wrap(self._masked_data < _data(other), self._masked_mask)

    def __repr__(self) -> str:
        return _printing.masked_repr(self._masked_data.detach(), self._masked_mask)

    __str__ = __repr__
    __hash__ = object.__hash__


from core.masked import _maskedtensor_ops as _ops  # noqa: E402  (the op tables use MaskedTensor)

_ops.install(MaskedTensor)
