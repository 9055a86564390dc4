"""``torch.masked.MaskedTensor``: a tensor whose elements a boolean mask of the same shape keeps or masks out.

A MaskedTensor pairs a ``data`` tensor with a bool ``mask`` of the same size and layout (``True`` keeps an element;
strided or sparse COO: ``core.masked._sparse_mt``).
It is a plain Python class, not a ``core.Tensor`` subclass, so core's ordinary tensor ops never pay for it: its
methods run the op on the data (and, for shape ops, on the mask), and the few core functions torch routes for it
(the elementwise unary and binary ops, ``where`` and the reductions) hand a MaskedTensor argument to
``MaskedTensor.__torch_function__`` only where a non-Tensor argument would otherwise raise.

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
``as_masked_tensor``) and not for op results. A plain tensor's gradient through a MaskedTensor stays a plain
tensor (torch's is a MaskedTensor).
"""

from __future__ import annotations

import functools
import warnings

import core
from core._tensor import Tensor
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
    _warn_created(data, stacklevel=3)
    return _wrap(data.clone(), mask.clone())


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


def _warn_created(data, stacklevel: int) -> None:
    warnings.warn(_PROTOTYPE_WARNING, UserWarning, stacklevel=stacklevel + 1)
    if data.requires_grad:
        warnings.warn("It is not recommended to create a MaskedTensor with a tensor that requires_grad. "
                      "To avoid this, you can use data.detach().clone()", UserWarning, stacklevel=stacklevel + 1)


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


def _wrap_result(data, mask):
    if isinstance(data, (list, tuple)):
        return type(data)(_wrap_result(d, m) for d, m in zip(data, mask))
    return _wrap(data, mask)


def _masks_match(a, b) -> bool:
    if not (isinstance(a, MaskedTensor) and isinstance(b, MaskedTensor)):
        return True
    ma, mb = a._masked_mask, b._masked_mask
    return ma.dim() == mb.dim() and bool(core.eq(ma, mb).all().item())


# ----- elementwise ops -------------------------------------------------------------------------------------
UNARY_NAMES = ("abs", "absolute", "acos", "arccos", "acosh", "arccosh", "angle", "asin", "arcsin", "asinh",
               "arcsinh", "atan", "arctan", "atanh", "arctanh", "bitwise_not", "ceil", "clamp", "clip",
               "conj_physical", "cos", "cosh", "deg2rad", "digamma", "erf", "erfc", "erfinv", "exp", "exp2", "expm1",
               "fix", "floor", "frac", "lgamma", "log", "log10", "log1p", "log2", "logit", "i0", "isnan",
               "nan_to_num", "neg", "negative", "positive", "pow", "rad2deg", "reciprocal", "round", "rsqrt",
               "sigmoid", "sign", "sgn", "signbit", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "trunc")
INPLACE_UNARY_NAMES = tuple(n + "_" for n in UNARY_NAMES if n not in ("angle", "positive", "signbit", "isnan"))
BINARY_NAMES = ("add", "atan2", "arctan2", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                "bitwise_right_shift", "div", "divide", "floor_divide", "fmod", "logaddexp", "logaddexp2", "mul",
                "multiply", "nextafter", "remainder", "sub", "subtract", "true_divide", "eq", "ne", "le", "ge",
                "greater", "greater_equal", "gt", "less_equal", "lt", "less", "maximum", "minimum", "fmax", "fmin",
                "not_equal")
INPLACE_BINARY_NAMES = tuple(n + "_" for n in BINARY_NAMES if n not in (
    "logaddexp", "logaddexp2", "equal", "fmin", "minimum", "maximum", "fmax"))


def _unary(name: str, self, *args, **kwargs):
    if any(isinstance(a, (Tensor, MaskedTensor)) for a in args):
        raise TypeError("MaskedTensor unary ops do not support additional Tensor arguments")
    inplace = name.endswith("_")
    fn = getattr(core, name.removesuffix("_"))
    if self.is_sparse:
        result = _sparse_mt.on_values(fn, self._masked_data, *args, **kwargs)
    else:
        result = fn(self._masked_data, *args, **kwargs)
    if inplace:
        return _replace_data(self, result)
    return _wrap(result, self._masked_mask, [(self, _mask_grad.same)])


def _sparse_binary(fn, a, b, *args, **kwargs):
    if isinstance(b, Tensor) and b.layout == core.sparse_coo:
        if not _sparse_mt.same_indices(a, b):
            raise ValueError("sparse_coo indices must match. If you need support for this, please open an issue on "
                             "Github.")
        if a.size() != b.size():
            raise ValueError("input1 and input2 must have the same size for binary functions.")
    return _sparse_mt.on_values(fn, a, b, *args, **kwargs)


def _operand(x, other):
    """``x``'s data for a binary op. NOTE: where the other operand is a plain tensor that requires grad, the
    masked-out elements read as 1, so that its gradient (summed over them in core, skipped by torch's masked
    gradients) is not spoilt by what they hold (a NaN, an inf)."""
    if not isinstance(x, MaskedTensor):
        return x
    if isinstance(other, Tensor) and other.requires_grad:
        return core.where(x._masked_mask, x._masked_data, 1)
    return x._masked_data


def _replace_data(self, result):
    """An in-place op: ``self`` now holds ``result``, its gradient mask flowing back to what ``self`` was."""
    before = _wrap(self._masked_data, self._masked_mask, self._mask_parents)
    before._mask_parents = self._mask_parents
    self._masked_data = result
    self._mask_parents = ((before, _mask_grad.same),) if result.grad_fn is not None else ()
    return self


def _binary(name: str, a, b, *args, **kwargs):
    if any(isinstance(x, (Tensor, MaskedTensor)) for x in args):
        raise TypeError("MaskedTensor binary ops do not support Tensor arguments aside from the lhs and rhs")
    if not _masks_match(a, b):
        raise ValueError("Input masks must match. If you need support for this, please open an issue on Github.")
    inplace = name.endswith("_")
    fn = getattr(core, name.removesuffix("_"))
    if a.layout == core.sparse_coo:
        result = _sparse_binary(fn, _data(a), _data(b), *args, **kwargs)
    else:
        result = fn(_operand(a, b), _operand(b, a), *args, **kwargs)
    if inplace:
        return _replace_data(a, result)
    mask = a._masked_mask if isinstance(a, MaskedTensor) else b._masked_mask
    if result.layout == core.sparse_coo:
        return _wrap(result, mask)
    parents = [(x, _mask_grad.to_shape(x.shape)) for x in (a, b) if isinstance(x, MaskedTensor)]
    return _wrap(result, mask.expand_as(result), parents)


# ----- reductions --------------------------------------------------------------------------------------------
REDUCE_NAMES = ("sum", "mean", "amin", "amax", "argmin", "argmax", "prod", "all", "norm", "var", "std")


def _any_over(mask, dim, keepdim: bool):
    for d in sorted([dim] if isinstance(dim, int) else dim, reverse=True):
        mask = core.any(mask, dim=d, keepdim=keepdim)
    return mask


def _reduce_all(name: str, self):
    data, mask = self._masked_data, self._masked_mask
    if self.is_sparse:
        return _wrap(*_sparse_mt.reduce_all(name, data, mask))
    if name == "all":
        result = data.masked_fill(~mask, True).all()
    else:
        result = getattr(core.masked, name)(data, mask=mask)
    return _wrap(result, core.any(mask), [(self, _mask_grad.reduced(mask, None, False))])


def _reduce_dim(name: str, self, dim, keepdim=False, dtype=None):
    if self.is_sparse:
        raise TypeError(f"The sparse version of {name} is not implemented in reductions.\n{_FEATURE_REQUEST}")
    data, mask = self._masked_data, self._masked_mask
    if name == "all":
        result = core.all(data.masked_fill(~mask, True), dim=dim, keepdim=keepdim)
    else:
        result = getattr(core.masked, name)(data, dim=dim, keepdim=keepdim, dtype=dtype, mask=mask)
    return _wrap(result, _any_over(mask, dim, keepdim), [(self, _mask_grad.reduced(mask, dim, keepdim))])


def _reduce(name: str, self, *args, **kwargs):
    if not args and not kwargs:
        return _reduce_all(name, self)
    if not is_masked_tensor(self):
        raise TypeError("Input to reduce_dim must be a MaskedTensor")
    return _reduce_dim(name, self, *args, **kwargs)


# ----- shape ops -----------------------------------------------------------------------------------------------
PASSTHROUGH_NAMES = ("select", "transpose", "split", "t", "expand", "view", "reshape", "unsqueeze", "unfold",
                     "expand_as", "view_as", "reshape_as", "squeeze", "flatten", "permute", "narrow", "unbind",
                     "chunk", "movedim", "swapaxes", "swapdims", "flip", "roll")


def _passthrough(fn, *args, **kwargs):
    if any(isinstance(a, MaskedTensor) and a.is_sparse for a in args):
        raise NotImplementedError(_sparse_mt.NOT_SUPPORTED.format(fn.__name__))
    data = fn(*_map(args, _data), **_map(kwargs, _data))
    mask = fn(*_map(args, _mask), **_map(kwargs, _mask))
    if not isinstance(args[0], MaskedTensor) or any(isinstance(a, MaskedTensor) for a in args[1:]):
        return _wrap_result(data, mask)  # cat, stack: no gradient mask recorded (the leaves keep their own)
    rest = _map(args[1:], _data)
    kwargs = _map(kwargs, _data)
    source = args[0]
    if isinstance(data, (list, tuple)):
        return type(data)(_wrap(d, m, [(source, _mask_grad.moved(_piece(fn, k, rest, kwargs), source.shape))])
                          for k, (d, m) in enumerate(zip(data, mask)))
    return _wrap(data, mask, [(source, _mask_grad.moved(lambda t: fn(t, *rest, **kwargs), source.shape))])


def _piece(fn, k, rest, kwargs):
    return lambda t: fn(t, *rest, **kwargs)[k]


def where(condition, input, other):
    """``torch.where(condition, mt, mt)``: data and mask chosen elementwise; a plain tensor counts as unmasked."""
    if not isinstance(condition, Tensor):
        raise ValueError("__torch_dispatch__, aten.where: expected args[0] to be a tensor")
    x, y = _unmasked(input), _unmasked(other)
    if x.is_sparse or y.is_sparse:
        raise NotImplementedError(_sparse_mt.NOT_SUPPORTED.format("where"))
    parents = [(v, _mask_grad.chosen(condition, v is x, v.shape)) for v in (input, other)
               if isinstance(v, MaskedTensor)]
    return _wrap(core.where(condition, x._masked_data, y._masked_data),
                 core.where(condition, x._masked_mask, y._masked_mask), parents)


def _unmasked(value):
    """A MaskedTensor as it is; a tensor (or a number, as a 0-d tensor) with nothing masked out."""
    if isinstance(value, MaskedTensor):
        return value
    value = value if isinstance(value, Tensor) else core.tensor(value)
    return _wrap(value, core.ones_like(value, dtype=core.bool))


def _softmax(self, dim, dtype=None):
    if self.is_sparse:
        raise NotImplementedError(_sparse_mt.NOT_SUPPORTED.format("softmax"))
    data = self._masked_data if dtype is None else self._masked_data.to(dtype)
    result = core.masked.softmax(data, dim, mask=self._masked_mask)
    return _wrap(core.where(self._masked_mask.any(dim, keepdim=True), result, 0.0), self._masked_mask,
                 [(self, _mask_grad.same)])


def _autograd_grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, **kwargs):
    """``torch.autograd.grad`` with MaskedTensor outputs or inputs: the data's gradients; a MaskedTensor input's
    comes back as a MaskedTensor whose mask the masks' backward computed."""
    outs, ins = _as_list(outputs), _as_list(inputs)
    gos = None if grad_outputs is None else _as_list(grad_outputs)
    found = core.autograd.grad([_data(o) for o in outs], [_data(i) for i in ins],
                               None if gos is None else [_data(g) for g in gos], retain_graph, create_graph, **kwargs)
    roots = [(o, _mask(gos[k]) if gos is not None and isinstance(gos[k], MaskedTensor) else o._masked_mask)
             for k, o in enumerate(outs) if isinstance(o, MaskedTensor)]
    masks = _mask_grad.propagate(roots, stop_at=[i for i in ins if isinstance(i, MaskedTensor)])
    return tuple(_wrap(g, masks[id(i)][1] if id(i) in masks else i._masked_mask)
                 if isinstance(i, MaskedTensor) and g is not None else g for i, g in zip(ins, found))


def _as_list(x) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


_FUNCTIONS: dict = {}  # core function name -> implementation taking the core function's arguments
_FUNCTIONS.update({n: functools.partial(_unary, n) for n in UNARY_NAMES + INPLACE_UNARY_NAMES})
_FUNCTIONS.update({n: functools.partial(_binary, n) for n in BINARY_NAMES + INPLACE_BINARY_NAMES})
_FUNCTIONS.update({n: functools.partial(_reduce, n) for n in REDUCE_NAMES})
_FUNCTIONS.update({n: functools.partial(_passthrough, getattr(core.Tensor, n))
                   for n in PASSTHROUGH_NAMES if hasattr(core.Tensor, n)})
_FUNCTIONS.update({n: functools.partial(_passthrough, getattr(core, n)) for n in ("cat", "concat", "stack")})
_FUNCTIONS["where"] = where
_FUNCTIONS["grad"] = _autograd_grad
_FUNCTIONS["softmax"] = lambda input, dim, dtype=None, **_: _softmax(input, dim, dtype)


class MaskedTensor:
    """``torch.masked.MaskedTensor(data, mask, requires_grad=False)``: copies of ``data`` and its bool ``mask``."""

    def __init__(self, data, mask, requires_grad: bool = False):
        data, mask = _check_members(data, mask)
        _warn_created(data, stacklevel=2)
        if requires_grad and data.layout != core.strided:
            raise NotImplementedError("a sparse COO MaskedTensor cannot require grad in core (core's sparse tensors "
                                      "take no part in autograd)")
        # NOTE: core's detach() of a sparse tensor gives a strided one; sparse tensors record no autograd anyway
        self._masked_data = data.clone() if data.layout == core.sparse_coo else data.detach().clone()
        self._masked_mask = mask.clone()
        self._grad_mask, self._mask_parents = None, ()
        if requires_grad:
            self._masked_data.requires_grad_(True)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        impl = _FUNCTIONS.get(getattr(func, "__name__", None))
        if impl is None:
            return NotImplemented
        return impl(*args, **(kwargs or {}))

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
        g = self._masked_data.grad
        if g is None:
            return None
        return _wrap(g, self._masked_mask if self._grad_mask is None else self._grad_mask)

    @grad.setter
    def grad(self, value):
        self._masked_data.grad = _data(value)
        self._grad_mask = value._masked_mask if isinstance(value, MaskedTensor) else None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """The data's backward; the leaves' gradient masks follow (``core.masked._mask_grad``)."""
        self._masked_data.backward(_data(gradient), retain_graph=retain_graph, create_graph=create_graph,
                                   inputs=None if inputs is None else _map(list(inputs), _data))
        start = gradient._masked_mask if isinstance(gradient, MaskedTensor) else self._masked_mask
        for leaf, g in _mask_grad.propagate([(self, start)]).values():
            if leaf._masked_data.is_leaf and leaf._masked_data.requires_grad:
                leaf._grad_mask = g if leaf._grad_mask is None else leaf._grad_mask | g

    # ----- ops -----------------------------------------------------------------------------------------------
    def __getitem__(self, index):
        index = _data(index)
        return _wrap(self._masked_data[index], self._masked_mask[index],
                     [(self, _mask_grad.moved(lambda t: t[index], self.shape))])

    def where(self, condition, other):
        return where(condition, self, other)

    def softmax(self, dim, dtype=None):
        return _softmax(self, dim, dtype)

    def __lt__(self, other):  # NOTE: as torch's, no check that the masks match
        return _wrap(self._masked_data < _data(other), self._masked_mask)

    def __repr__(self) -> str:
        return _printing.masked_repr(self._masked_data.detach(), self._masked_mask)

    __str__ = __repr__
    __hash__ = object.__hash__


def _method(impl, name):
    def method(self, *args, **kwargs):
        return impl(self, *args, **kwargs)

    method.__name__ = method.__qualname__ = name
    return method


_OPERATORS = {"__add__": "add", "__sub__": "sub", "__mul__": "mul", "__truediv__": "div",
              "__floordiv__": "floor_divide", "__mod__": "remainder", "__pow__": "pow",
              "__and__": "bitwise_and", "__or__": "bitwise_or",
              "__xor__": "bitwise_xor", "__eq__": "eq", "__ne__": "ne", "__le__": "le", "__gt__": "gt",
              "__ge__": "ge", "__neg__": "neg", "__abs__": "abs", "__invert__": "bitwise_not",
              "__iadd__": "add_", "__isub__": "sub_", "__imul__": "mul_", "__itruediv__": "div_",
              "__radd__": "add", "__rmul__": "mul"}
for _name, _impl in _FUNCTIONS.items():
    if _name not in ("cat", "concat", "stack", "where", "softmax", "grad"):
        setattr(MaskedTensor, _name, _method(_impl, _name))
for _name, _target in _OPERATORS.items():
    setattr(MaskedTensor, _name, _method(_FUNCTIONS[_target], _name))
