"""MaskedTensor's ops: what each torch function and method does to a MaskedTensor's data and mask.

``MaskedTensor.__torch_function__`` looks a call up here by the function's name (``torch.add``,
``torch.Tensor.add`` and ``mt + x`` all find ``add``); :func:`install` gives MaskedTensor the method forms.
The semantics are described in ``core.masked._maskedtensor``'s docstring.
"""

from __future__ import annotations

import functools

import core
from core._tensor import Tensor
from core.masked import _mask_grad, _sparse_mt
from core.masked._maskedtensor import _FEATURE_REQUEST, MaskedTensor, _data, _map, _mask, _wrap, is_masked_tensor

__all__ = ["install", "softmax", "torch_function", "where"]


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
    parents = [(x, _mask_grad.to_shape(x.shape)) for x in (a, b)
               if isinstance(x, MaskedTensor) or isinstance(x, Tensor) and x.requires_grad]
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


def softmax(self, dim, dtype=None):
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
    masks = _mask_grad.propagate(roots, stop_at=ins)
    return tuple(g if g is None or not (isinstance(i, MaskedTensor) or id(i) in masks)
                 else _wrap(g, masks[id(i)][1] if id(i) in masks else i._masked_mask) for i, g in zip(ins, found))


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
_FUNCTIONS["softmax"] = lambda input, dim, dtype=None, **_: softmax(input, dim, dtype)


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


def torch_function(func, args, kwargs):
    """``func(*args, **kwargs)`` with MaskedTensor arguments, or NotImplemented where MaskedTensor has no rule."""
    name = getattr(func, "__name__", None)
    impl = _FUNCTIONS.get(_OPERATORS.get(name, name))
    if impl is None:
        return NotImplemented
    return impl(*args, **kwargs)


def install(cls) -> None:
    """Give MaskedTensor (``cls``) the method forms of its ops and Python's operators."""
    for name, impl in _FUNCTIONS.items():
        if name not in ("cat", "concat", "stack", "where", "softmax", "grad"):
            setattr(cls, name, _method(impl, name))
    for name, target in _OPERATORS.items():
        setattr(cls, name, _method(_FUNCTIONS[target], name))
