"""Which ATen operators a torch-level call runs as, for ``__torch_dispatch__`` (``core._torch_dispatch``).

PyTorch's dispatcher sees ATen operators, not ``torch.*`` functions: ``F.linear(x, w, b)`` on a matrix is
``aten.t.default(w)`` then ``aten.addmm.default(b, x, wt)``, ``x @ w`` is ``aten.mm.default``, ``x.softmax(-1)`` is
``aten._softmax.default(x, -1, False)``, ``torch.randn(4)`` is ``aten.randn.default([4], device=...,
pin_memory=False)``, ``x.reshape(12)`` of a transposed ``x`` is ``clone`` then ``_unsafe_view``. ``plan`` gives a
call as a function that makes those ATen calls (each an ``OpOverload`` call, so each reaches the modes and
subclasses), ``None`` for what is no operator (sizes, strides, printing), ``PASS`` for a call whose inner operators
the dispatcher sees (``backward``), and raises NotImplementedError for a call core cannot present so.

The decompositions here follow torch 2.13's CompositeImplicitAutograd kernels for the calls realistic snippets
make; any other call is its same-named ATen operator with the overload its arguments pick (``pow.Tensor_Scalar``,
``gt.Scalar``, ``sum.dim_IntList``) and trailing defaults left out, as torch's argument parser passes them.
"""

from __future__ import annotations

import numbers

import numpy

import core
from core._aten_ops import aten

__all__ = ["plan"]

# calls that are not operators: metadata, autograd bookkeeping, printing (torch prints with modes off)
_NOT_OPERATORS = frozenset({
    "size", "dim", "ndimension", "stride", "numel", "nelement", "element_size", "storage_offset", "is_contiguous",
    "is_floating_point", "is_complex", "is_signed", "is_inference", "data_ptr", "get_device", "untyped_storage",
    "requires_grad_", "retain_grad", "register_hook", "register_post_accumulate_grad_hook", "__repr__", "__str__",
    "__format__", "__len__", "__hash__", "__reduce_ex__", "__deepcopy__", "__setstate__", "__dlpack__",
    "__dlpack_device__", "__array__", "tolist", "numpy", "type", "is_set_to", "is_shared", "is_pinned",
    "has_names", "_is_view", "__contains__", "__iter__", "__reversed__", "module_load", "__bool__",
})
# calls that are not operators themselves but run some, which the dispatcher sees: the caller runs them as they are
_RUNS_OPERATORS = frozenset({"backward", "register_hook", "apply_", "map_"})
PASS = object()
_PROPERTY_OPS = {"T": "numpy_T", "mT": "mT", "H": "H", "mH": "mH"}
_DUNDERS = {"__matmul__": "matmul", "__pow__": "pow", "__truediv__": "div", "__floordiv__": "floor_divide",
            "__mod__": "remainder", "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt",
            "__ge__": "ge", "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
            "__invert__": "bitwise_not", "__lshift__": "__lshift__", "__rshift__": "__rshift__",
            "__ipow__": "pow_", "__iand__": "bitwise_and_", "__ior__": "bitwise_or_", "__ixor__": "bitwise_xor_",
            "__abs__": "abs", "true_divide": "div", "multiply": "mul", "subtract": "sub", "divide": "div",
            "__rsub__": "rsub", "negative": "neg", "absolute": "abs", "greater": "gt", "less": "lt",
            "greater_equal": "ge", "less_equal": "le", "not_equal": "ne", "clip": "clamp", "arccos": "acos",
            "arcsin": "asin", "arctan": "atan", "fix": "trunc", "concat": "cat", "concatenate": "cat"}
# ops whose Python scalar operand torch wraps as a tensor (``x - 1``: ``aten.sub.Tensor(x, 1)``)
_WRAPS_SCALARS = frozenset({"add", "sub", "mul", "div", "add_", "sub_", "mul_", "div_"})
_DIM_FIRST = frozenset({"sum", "mean", "amax", "amin", "max", "min", "argmax", "argmin", "prod", "any", "all",
                        "logsumexp", "median", "nansum", "nanmean", "norm", "count_nonzero", "cumsum", "cumprod",
                        "squeeze", "unsqueeze", "std", "var", "mode", "sort", "argsort", "unbind", "flip"})
_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "randint_like"})
_CONVERSIONS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16", "long": "int64",
                "int": "int32", "short": "int16", "char": "int8", "byte": "uint8", "bool": "bool",
                "cfloat": "complex64", "cdouble": "complex128"}


def _name_of(public) -> tuple[str, str]:
    """(namespace, name) of a torch-level callable: ``("torch.Tensor", "add")``, ``("property", "T")``."""
    owner = getattr(public, "__self__", None)
    if owner is not None and type(owner).__name__ in ("DispatchingProperty", "DispatchingField"):
        return "property", owner.__name__
    from core.overrides import resolve_name

    resolved = resolve_name(public) or getattr(public, "__name__", "")
    namespace, _, name = resolved.rpartition(".")
    return namespace, name


def plan(public, original, args, kwargs):
    """A function making the ATen calls of ``public(*args, **kwargs)``, None for a call that is no operator (run
    below the dispatcher) or ``PASS`` for one whose inner calls the dispatcher sees (``backward``)."""
    namespace, name = _name_of(public)
    if namespace == "property":
        if name not in _PROPERTY_OPS:
            return None
        return lambda: _property(name, args[0], original)
    if name in _NOT_OPERATORS or name.startswith("is_"):
        return None
    if name in _RUNS_OPERATORS:
        return PASS
    name = _DUNDERS.get(name, name)
    special = _SPECIAL.get(name)
    if special is not None:
        return lambda: special(namespace, original, args, kwargs)
    return _generic(namespace, name, args, kwargs, original)


def _packet(name: str, what: str):
    try:
        return getattr(aten, name)
    except AttributeError:
        raise NotImplementedError(f"__torch_dispatch__: core cannot run {what} as ATen operators "
                                  f"(no aten.{name} in core)") from None


def _is_tensor(value) -> bool:
    return isinstance(value, core.Tensor)


def _overload(name: str, packet, args, kwargs):
    overloads = packet.overloads()
    second = args[1] if len(args) > 1 else kwargs.get("other", kwargs.get("exponent"))
    if name in _WRAPS_SCALARS and "Tensor" in overloads:
        preferred = ("Tensor_mode", "Tensor") if kwargs.get("rounding_mode") else ("Tensor",)
    elif len(args) > 1 and isinstance(args[1], (list, tuple)) and ("dim_IntList" in overloads or "dim" in overloads):
        preferred = ("dim_IntList", "dim")
    elif len(args) > 1 and isinstance(args[1], int) and not isinstance(args[1], bool) and name in (
            "max", "min", "sum", "mean", "median", "mode", "sort", "cumsum", "cumprod", "softmax", "log_softmax",
            "squeeze", "squeeze_", "std", "var", "prod", "any", "all", "logsumexp", "unbind", "select", "nanmedian",
            "kthvalue", "topk", "transpose", "count_nonzero"):
        preferred = ("dim", "int", "dim_IntList", "default")
    elif _is_tensor(second):
        preferred = ("Tensor", "Tensor_Tensor", "self", "other", "default")
    elif args and not _is_tensor(args[0]) and "Scalar" in overloads:
        preferred = ("Scalar",)  # (a number first: pow(2, x))
    elif second is not None and isinstance(second, (numbers.Number, bool)):
        preferred = ("Tensor_Scalar", "Scalar", "default", "Tensor")
    else:
        preferred = ("default", "Tensor", "self", "int", "using_ints", "dims", "Scalar")
    chosen = next((o for o in preferred if o in overloads), overloads[0])
    return getattr(packet, chosen)


def _generic(namespace: str, name: str, args, kwargs, original=None):
    what = f"{namespace}.{name}" if namespace else name
    packet = _packet(name, what)
    if namespace == "torch.nn.functional":
        from core._torch_function import undispatched

        if original is not None and undispatched(packet.op) is not undispatched(original):
            return _in_aten_order(what, original, args, kwargs)  # (F.batch_norm's arguments are not ATen's)
        kwargs = _without_defaults(getattr(core.nn.functional, name, None), kwargs)
    if name in ("view", "reshape", "permute", "expand", "repeat", "tile", "flip") and len(args) > 1 \
            and not isinstance(args[1], (list, tuple, core.dtype)):
        args = (args[0], list(args[1:]))
    elif len(args) > 1 and isinstance(args[1], tuple) and all(isinstance(v, int) for v in args[1]):
        args = (args[0], list(args[1]), *args[2:])
    if len(args) == 1 and "dim" in kwargs and name in _DIM_FIRST:  # torch's parser puts them in schema order
        kwargs = dict(kwargs)
        args = (args[0], kwargs.pop("dim"))
        if "keepdim" in kwargs:
            keepdim = kwargs.pop("keepdim")
            args = (*args, keepdim) if keepdim else args
    if name in ("cat", "concat", "concatenate", "stack") and "dim" in kwargs:
        kwargs = dict(kwargs)  # torch's parser: dim is positional, and left out at its default 0
        dim = kwargs.pop("dim")
        args = (*args, dim) if dim != 0 else args
    if name in ("sum", "mean", "amax", "amin", "std", "var") and len(args) > 1 and isinstance(args[1], int) \
            and not isinstance(args[1], bool):
        args = (args[0], [args[1]], *args[2:])
    op = _overload(name, packet, args, kwargs)
    call_kwargs = {k: v for k, v in kwargs.items()  # (``out=None`` is the functional overload: torch drops it)
                   if not (k == "alpha" and v == 1) and not (k == "out" and v is None)}
    return lambda: op(*args, **call_kwargs)


def _in_aten_order(what: str, original, args, kwargs):
    """A ``torch.nn.functional`` call whose ATen operator takes other arguments: ``torch.export``'s table of ATen
    argument orders gives the call (``aten.batch_norm.default(input, weight, bias, ...)``)."""
    from core.export._aten_calls import aten_call

    calls = aten_call(original, args, kwargs)
    if len(calls) != 1 or calls[0][0] is None:
        raise NotImplementedError(f"__torch_dispatch__: core cannot run {what} as ATen operators")
    op, call_args, call_kwargs = calls[0]
    return lambda: op(*call_args, **call_kwargs)


def _without_defaults(function, kwargs: dict) -> dict:
    """``torch.nn.functional``'s wrapper spells every default out; torch's dispatcher sees only what was given."""
    import inspect

    if function is None:
        return kwargs
    try:
        params = inspect.signature(getattr(function, "__wrapped__", function)).parameters
    except (TypeError, ValueError):
        return kwargs
    return {k: v for k, v in kwargs.items() if k not in params or params[k].default is inspect.Parameter.empty
            or not (v is params[k].default or (type(v) is type(params[k].default) and v == params[k].default))}


# ----- decompositions (torch's CompositeImplicitAutograd kernels) ---------------------------------------------
def _bound(original, args, kwargs) -> dict:
    import inspect

    signature = inspect.signature(getattr(original, "__wrapped__", original))
    bound = signature.bind(*args, **kwargs)
    return dict(bound.arguments)


def _matmul(a, b):
    """torch's ``matmul``: ``dot``, ``mv``, ``mm`` or a folded/batched ``mm``/``bmm`` by the operands' ranks."""
    da, db = a.dim(), b.dim()
    if da == 1 and db == 1:
        return aten.dot.default(a, b)
    if da == 2 and db == 1:
        return aten.mv.default(a, b)
    if da == 1 and db == 2:
        out = aten.mm.default(aten.unsqueeze.default(a, 0), b)
        return aten.squeeze_.dim(out, 0)
    if da == 2 and db == 2:
        return aten.mm.default(a, b)
    if da >= 3 and db in (1, 2):
        flat = aten.view.default(a, [-1, a.shape[-1]]) if a.is_contiguous() else aten.reshape.default(
            a, [-1, a.shape[-1]])
        if db == 1:
            out = aten.mv.default(flat, b)
            return aten._unsafe_view.default(out, list(a.shape[:-1]))
        out = aten.mm.default(flat, b)
        return aten._unsafe_view.default(out, [*a.shape[:-1], b.shape[-1]])
    if da >= 1 and db >= 1:
        batch = list(numpy.broadcast_shapes(a.shape[:-2] if da > 1 else (), b.shape[:-2] if db > 1 else ()))
        a2 = a if da > 1 else aten.unsqueeze.default(a, 0)
        b2 = b if db > 1 else aten.unsqueeze.default(b, 1)
        n = 1
        for s in batch:
            n *= s
        left = aten.view.default(aten.expand.default(a2, [*batch, *a2.shape[-2:]]), [n, *a2.shape[-2:]])
        right = aten.view.default(aten.expand.default(b2, [*batch, *b2.shape[-2:]]), [n, *b2.shape[-2:]])
        out = aten._unsafe_view.default(aten.bmm.default(left, right), [*batch, a2.shape[-2], b2.shape[-1]])
        if da == 1:
            out = aten.squeeze.dim(out, -2)
        if db == 1:
            out = aten.squeeze.dim(out, -1)
        return out
    raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")


def _matmul_call(namespace, original, args, kwargs):
    return _matmul(args[0], args[1] if len(args) > 1 else kwargs["other"])


def _rmatmul_call(namespace, original, args, kwargs):
    return _matmul(args[1], args[0])


def _softmax_call(aten_name: str):
    def call(namespace, original, args, kwargs):
        values = _bound(original, args, kwargs)
        x, dim = values.get("input", values.get("self", args[0])), values.get("dim")
        if values.get("dtype") is not None:
            x = aten._to_copy.default(x, dtype=values["dtype"])
        return getattr(aten, aten_name).default(x, dim, False)
    return call


def _reshape(x, shape):
    """torch's ``reshape``: a ``view`` where the strides allow one, else ``clone`` then ``_unsafe_view``."""
    try:
        core._torch_dispatch.run_below(x.view, shape)
    except RuntimeError:
        copy = aten.clone.default(x, memory_format=core.contiguous_format)
        return aten._unsafe_view.default(copy, list(shape))
    return aten.view.default(x, list(shape))


def _reshape_call(namespace, original, args, kwargs):
    x = args[0]
    shape = args[1:] if len(args) > 1 else (kwargs.get("shape"),)
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
        shape = shape[0]
    return _reshape(x, tuple(shape))


def _flatten_call(namespace, original, args, kwargs):
    values = _bound(original, args, kwargs)
    x = values.get("input", values.get("self", args[0]))
    start, end = values.get("start_dim", 0), values.get("end_dim", -1)
    n = x.dim()
    if n == 0:
        return _reshape(x, (1,))
    start, end = start % n, end % n
    if start == end:
        return x
    middle = 1
    for s in x.shape[start:end + 1]:
        middle *= s
    return _reshape(x, (*x.shape[:start], middle, *x.shape[end + 1:]))


def _narrow_call(namespace, original, args, kwargs):
    """torch's ``narrow`` is composite: its dispatcher sees ``slice.Tensor`` (a tensor ``start`` read first)."""
    values = _bound(original, args, kwargs)
    x = values.get("input", values.get("self", args[0]))
    dim, start, length = values["dim"], values["start"], values["length"]
    core._torch_dispatch.run_below(original, *args, **kwargs)  # core's checks and errors (a view: nothing copied)
    if isinstance(start, core.Tensor):
        start = aten._local_scalar_dense.default(start)
    start = start + x.shape[dim] if start < 0 else start
    return aten.slice.Tensor(x, dim, start, start + length)


def _view_as_call(namespace, original, args, kwargs):
    return aten.view.default(args[0], list(args[1].shape))


def _contiguous_call(namespace, original, args, kwargs):
    x = args[0]
    fmt = kwargs.get("memory_format", args[1] if len(args) > 1 else core.contiguous_format)
    if core._torch_dispatch.run_below(x.is_contiguous, memory_format=fmt):
        return x
    return aten.clone.default(x, memory_format=fmt)


def _conversion(namespace, original, args, kwargs):
    """``x.to(dtype)``, ``x.float()``...: one ``_to_copy`` with what changes; nothing when nothing changes."""
    x = args[0]
    values = core._torch_dispatch.run_below(_to_target, original, args, kwargs)
    if values is None:
        return x
    return aten._to_copy.default(x, **values)


def _to_target(original, args, kwargs):
    x = args[0]
    name = getattr(original, "__name__", "to")
    if name in _CONVERSIONS:
        dtype, device, copy = getattr(core, _CONVERSIONS[name]), None, False
    else:
        dtype, device = _dtype_in(args, kwargs, x.dtype), _device_in(args, kwargs, None)
        copy = kwargs.get("copy", False)
    changes = {}
    if dtype != x.dtype:
        changes["dtype"] = dtype
    if device is not None and device != x.device:
        changes["device"] = device
    if not changes and not copy:
        return None
    return changes


def _dtype_in(args, kwargs, default):
    for value in (*args[1:], *kwargs.values()):
        if isinstance(value, core.dtype):
            return value
        if isinstance(value, core.Tensor):
            return value.dtype
    return default


def _device_in(args, kwargs, default):
    for value in (*args[1:], kwargs.get("device")):
        if isinstance(value, (str, core.device)) and not isinstance(value, core.dtype):
            try:
                return core.device(value)
            except (RuntimeError, TypeError, ValueError):
                continue
        if isinstance(value, core.Tensor):
            return value.device
    return None


def _factory_call(name: str):
    def call(namespace, original, args, kwargs):
        kwargs = dict(kwargs)
        requires_grad = kwargs.pop("requires_grad", False)
        sizes = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
        extra = {k: kwargs[k] for k in ("dtype", "layout") if kwargs.get(k) is not None}
        if "generator" in kwargs and kwargs["generator"] is not None:
            extra["generator"] = kwargs["generator"]
        device = kwargs.get("device")
        extra.update(device=core.device(device) if device is not None else core.get_default_device(),
                     pin_memory=kwargs.get("pin_memory", False))
        if name == "arange":
            overload = {1: "default", 2: "start", 3: "start_step"}[len(args)]
            out = getattr(aten.arange, overload)(*args, **extra)
        elif name == "full":
            out = aten.full.default(list(args[0]), args[1], **extra)
        else:
            out = getattr(aten, name).default(list(sizes), **extra)
        if requires_grad:
            core._torch_dispatch.run_below(out.requires_grad_)
        return out
    return call


def _like_call(name: str):
    def call(namespace, original, args, kwargs):
        kwargs = dict(kwargs)
        requires_grad = kwargs.pop("requires_grad", False)
        extra = {k: v for k, v in kwargs.items() if v is not None}
        extra.setdefault("pin_memory", False)
        out = getattr(aten, name).default(*args, **extra)
        if requires_grad:
            core._torch_dispatch.run_below(out.requires_grad_)
        return out
    return call


def _tensor_call(namespace, original, args, kwargs):
    """``torch.tensor(data)``: the tensor is made below the dispatcher, then ``lift_fresh`` shows it."""
    kwargs = dict(kwargs)
    requires_grad = kwargs.pop("requires_grad", False)
    made = core._torch_dispatch.run_below(original, *args, **kwargs)
    out = aten.lift_fresh.default(made)
    if requires_grad:
        core._torch_dispatch.run_below(out.requires_grad_)
    return out


def _item_call(namespace, original, args, kwargs):
    return aten._local_scalar_dense.default(args[0])


def _basic_index(x, index):
    """``index`` as a tuple without Ellipsis (it becomes full slices)."""
    index = index if isinstance(index, tuple) else (index,)
    if any(i is Ellipsis for i in index):
        at = next(n for n, i in enumerate(index) if i is Ellipsis)
        used = sum(1 for i in index if i is not None and i is not Ellipsis)
        index = (*index[:at], *(slice(None),) * (x.dim() - used), *index[at + 1:])
    return index


def _is_basic(index) -> bool:
    return all(isinstance(i, (int, slice)) and not isinstance(i, bool) or i is None for i in index)


def _view_chain(x, index):
    """select/slice/unsqueeze per dimension, as torch runs basic indexing."""
    dim = 0
    for i in index:
        if i is None:
            x = aten.unsqueeze.default(x, dim)
            dim += 1
        elif isinstance(i, int):
            x = aten.select.int(x, dim, i)
        elif i == slice(None):
            dim += 1
        else:
            start, stop, step = i.start, i.stop, i.step
            if stop is None:
                stop = 9223372036854775807  # (torch's indexing fills an open stop in: INT64_MAX)
            tail = [0 if start is None else start, stop] + ([step] if step not in (None, 1) else [])
            x = aten.slice.Tensor(x, dim, *tail)
            dim += 1
    return x


def _advanced(x, index):
    below = core._torch_dispatch.run_below
    items = [i if i is None or isinstance(i, (slice, core.Tensor)) else below(core.tensor, i) for i in index]
    if any(i is None or (isinstance(i, slice) and i != slice(None)) for i in items):
        raise NotImplementedError("__torch_dispatch__: core cannot run indexing that mixes tensors with slices "
                                  "or None as ATen operators")
    while items and isinstance(items[-1], slice):
        items.pop()
    return [None if isinstance(i, slice) else i for i in items]


def _getitem_call(namespace, original, args, kwargs):
    x, index = args[0], _basic_index(args[0], args[1])
    if _is_basic(index):
        out = _view_chain(x, index)
        return aten.alias.default(x) if out is x else out
    return aten.index.Tensor(x, _advanced(x, index))


def _setitem_call(namespace, original, args, kwargs):
    x, index, value = args[0], _basic_index(args[0], args[1]), args[2]
    if not isinstance(value, core.Tensor):
        value = aten.lift_fresh.default(core._torch_dispatch.run_below(core.tensor, value))
    if not _is_basic(index):
        aten.index_put_.default(x, _advanced(x, index), value)
        return None
    target = _view_chain(x, index)
    if value.dim() == 0:
        aten.fill_.Tensor(target, value)
    else:
        aten.copy_.default(target, value)
    return None


def _property(name: str, x, original):
    core._torch_dispatch.run_below(original, x)  # (core's property gives torch's warnings: x.T of a vector)
    if name == "T":
        return aten.permute.default(x, list(range(x.dim()))[::-1])
    if name == "mT":
        return aten.transpose.int(x, -2, -1)
    if name == "H":
        return aten.adjoint.default(x) if x.is_complex() else aten.permute.default(x, list(range(x.dim()))[::-1])
    return aten.adjoint.default(x) if x.is_complex() else aten.transpose.int(x, -2, -1)


def _identity_call(namespace, original, args, kwargs):
    return args[0]


def _rdiv_call(namespace, original, args, kwargs):
    return aten.mul.Tensor(aten.reciprocal.default(args[0]), args[1])


_SPECIAL = {
    "matmul": _matmul_call, "__rmatmul__": _rmatmul_call,
    "softmax": _softmax_call("_softmax"), "log_softmax": _softmax_call("_log_softmax"),
    "reshape": _reshape_call, "flatten": _flatten_call, "narrow": _narrow_call, "view_as": _view_as_call,
    "contiguous": _contiguous_call,
    "to": _conversion, **{name: _conversion for name in _CONVERSIONS},
    **{name: _factory_call(name) for name in ("zeros", "ones", "empty", "rand", "randn", "arange", "full")},
    **{name: _like_call(name) for name in _LIKE},
    "tensor": _tensor_call, "item": _item_call, "__getitem__": _getitem_call, "__setitem__": _setitem_call,
    "__rtruediv__": _rdiv_call, "__rdiv__": _rdiv_call,
}

from core._aten_plan_nn import NN_SPECIAL  # noqa: E402 (it uses the helpers above)

_SPECIAL.update(NN_SPECIAL)
