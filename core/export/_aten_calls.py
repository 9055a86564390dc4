"""How a torch-level call (``F.linear(x, w, b)``, ``x.view(2, -1)``, ``a + b``) reads as the ATen operator
``torch.export`` records for it (``aten.linear.default(x, w, b)``, ``aten.view.default(x, [2, -1])``,
``aten.add.Tensor(a, b)``), with ATen's argument order and trailing defaults left out as torch's graphs print them.

``SCHEMAS`` holds ATen's signatures for the ops models use most; any other call is recorded under the ATen
operator of the same name (its ``default`` overload, else its ``Tensor`` one) with the arguments as given, which
reads well and runs, but may differ from torch's text."""

from __future__ import annotations

import inspect

import core
from core._aten_ops import aten
from core._library.custom_ops import OpOverload as CustomOverload
from core.overrides import resolve_name

__all__ = ["PREV", "aten_call", "is_value_read"]

PREV = object()  # in a chain of calls (``x[0, 1:]``), the result of the call before (the first: the tensor)


def _schema(text: str) -> list[tuple[str, object, int]]:
    """``"input, weight, bias=None, stride=1*2"``: (name, default, list length) per parameter; ``*n`` marks an
    int list of length n, ``*`` one of any length."""
    out = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, equals, default = part.partition("=")
        length = 0
        if "*" in default:
            default, _, n = default.partition("*")
            length = int(n) if n else -1
        value = eval(default, {"False": False, "True": True, "None": None}) if equals else inspect.Parameter.empty
        if length and isinstance(value, int):
            value = [value] * max(length, 1)
        out.append((name, value, length))
    return out


_CONV = "input, weight, bias=None, stride=1*{n}, padding=0*{n}, dilation=1*{n}, groups=1"
_POOL = "self, kernel_size=0*{n}, stride=[]*{n}, padding=0*{n}, dilation=1*{n}, ceil_mode=False"
# ATen name -> (overload, its parameters); the torch-level call's arguments are matched by name
SCHEMAS = {
    "linear": ("default", "input, weight, bias=None"),
    "relu": ("default", "self"), "sigmoid": ("default", "self"), "tanh": ("default", "self"),
    "silu": ("default", "self"), "hardtanh": ("default", "self, min_val=-1.0, max_val=1.0"),
    "conv1d": ("default", _CONV.format(n=1)), "conv2d": ("default", _CONV.format(n=2)),
    "conv3d": ("default", _CONV.format(n=3)),
    "max_pool1d": ("default", _POOL.format(n=1)), "max_pool2d": ("default", _POOL.format(n=2)),
    "max_pool3d": ("default", _POOL.format(n=3)),
    "avg_pool2d": ("default", "self, kernel_size=0*2, stride=[]*2, padding=0*2, ceil_mode=False, "
                              "count_include_pad=True, divisor_override=None"),
    "adaptive_avg_pool1d": ("default", "self, output_size=0*1"),
    "adaptive_avg_pool2d": ("default", "self, output_size=0*2"),
    "flatten": ("using_ints", "self, start_dim=0, end_dim=-1"),
    "dropout": ("default", "input, p, train"),
    "softmax": ("int", "self, dim, dtype=None"), "log_softmax": ("int", "self, dim, dtype=None"),
    "cat": ("default", "tensors, dim=0"), "stack": ("default", "tensors, dim=0"),
    "select": ("int", "self, dim, index"), "transpose": ("int", "self, dim0, dim1"),
    "unsqueeze": ("default", "self, dim"), "squeeze": ("dim", "self, dim"),
    "layer_norm": ("default", "input, normalized_shape=0*, weight=None, bias=None, eps=1e-05, cudnn_enable=True"),
    "gelu": ("default", "self, approximate='none'"),
    "leaky_relu": ("default", "self, negative_slope=0.01"),
    "embedding": ("default", "weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False"),
    "split": ("Tensor", "self, split_size, dim=0"),
}
_BINARY = {"add": "alpha", "sub": "alpha", "mul": None, "div": None, "rsub": "alpha"}
_SIZES = {"view", "reshape", "permute", "expand", "repeat"}  # (self, *sizes): a list in ATen
_NAMES = {"input": "self", "self": "input", "split_size": "split_size_or_sections", "start_dim": "start_dim",
          "p": "p", "train": "training",
          "tensors": "tensors", "other": "other", "indices": "input", "output_size": "output_size"}


def _bound(func, args, kwargs) -> dict:
    """The call's arguments by the name core's function gives them."""
    try:
        signature = inspect.signature(getattr(func, "__wrapped__", func))
        bound = signature.bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    values = dict(bound.arguments)
    for name, param in signature.parameters.items():
        if param.kind is inspect.Parameter.VAR_KEYWORD and name in values:
            values.update(values.pop(name))
    return values


def _without_defaults(func, kwargs: dict) -> dict:
    try:
        params = inspect.signature(getattr(func, "__wrapped__", func)).parameters
    except (TypeError, ValueError):
        return kwargs
    return {k: v for k, v in kwargs.items() if k not in params or params[k].default is inspect.Parameter.empty
            or not (v is params[k].default or (type(v) is type(params[k].default) and v == params[k].default))}


def _normalized(value, length: int):
    if length and isinstance(value, int) and not isinstance(value, bool):
        return [value] * max(length, 1)
    if isinstance(value, tuple):
        return list(value)
    return value


def _by_schema(name: str, func, args, kwargs):
    overload, text = SCHEMAS[name]
    params = _schema(text)
    values = _bound(func, args, kwargs)
    if not values:
        return None
    first = next(iter(values.values()))
    if name == "embedding":  # F.embedding(input, weight): ATen puts the weight first
        values["indices"] = values.pop("input", first)
        if values.get("padding_idx") is None:
            values["padding_idx"] = -1
    if name == "layer_norm":  # F.layer_norm passes torch.backends.cudnn.enabled, False on a CPU build
        values["cudnn_enable"] = False
    if name == "dropout":
        values["train"] = values.get("training", True)
    out = []
    for i, (param, default, length) in enumerate(params):
        if i == 0 and param not in values:
            value = first
        else:
            value = values.get(param, values.get(_NAMES.get(param, param), default))
        if name.startswith("max_pool") and param == "stride" and value is None:
            value = inspect.Parameter.empty if default is inspect.Parameter.empty else default
        if value is inspect.Parameter.empty:
            return None
        out.append((_normalized(value, length), default))
    while out and out[-1][1] is not inspect.Parameter.empty and out[-1][0] == out[-1][1]:
        out.pop()  # torch's graphs leave trailing defaults out
    return getattr(getattr(aten, name), overload), tuple(v for v, _ in out), {}


def _packet_overload(name: str, preferred: tuple[str, ...]):
    try:
        packet = getattr(aten, name)
    except AttributeError:
        return None
    overloads = packet.overloads()
    chosen = next((o for o in preferred if o in overloads), overloads[0] if overloads else None)
    return None if chosen is None else getattr(packet, chosen)


def _generic(name: str, args, kwargs):
    if name in _BINARY and len(args) >= 2:
        op = _packet_overload(name, ("Tensor",))
        extra = {k: v for k, v in kwargs.items() if not (k == "alpha" and v == 1)}
        return op, tuple(args[:2]), extra
    if name in _SIZES and len(args) >= 1:
        sizes = args[1:]
        if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)):
            sizes = sizes[0]
        return _packet_overload(name, ("default",)), (args[0], list(sizes)), {}
    if name in ("sum", "mean", "amax", "amin") and (len(args) > 1 or "dim" in kwargs):
        dim = kwargs.get("dim", args[1] if len(args) > 1 else None)
        dims = list(dim) if isinstance(dim, (list, tuple)) else [dim]
        keepdim = kwargs.get("keepdim", args[2] if len(args) > 2 else False)
        return _packet_overload(name, ("dim", "default")), (args[0], dims, *([keepdim] if keepdim else [])), {}
    if name in ("max", "min") and (len(args) > 1 or "dim" in kwargs):
        other = kwargs.get("dim", args[1] if len(args) > 1 else None)
        if not isinstance(other, int):  # torch.max(a, b)
            return _packet_overload(name, ("other",)), tuple(args), dict(kwargs)
        keepdim = kwargs.get("keepdim", args[2] if len(args) > 2 else False)
        return getattr(aten, name).dim, (args[0], other, *([keepdim] if keepdim else [])), {}
    op = _packet_overload(name, ("default", "Tensor", "int", "self"))
    return op, tuple(args), dict(kwargs)


_FACTORIES = {"zeros", "ones", "empty", "rand", "randn"}


def _factory(name: str, args, kwargs):
    """``torch.zeros(3)``: ATen's ``zeros.default([3], device=..., pin_memory=False)``, as torch records it."""
    extra = {k: kwargs[k] for k in ("dtype",) if kwargs.get(k) is not None}
    extra.update(device=kwargs.get("device") or core.device("cpu"), pin_memory=False)
    if name == "arange":
        overload = {1: "default", 2: "start", 3: "start_step"}[len(args)]
        return getattr(aten.arange, overload), tuple(args), extra
    sizes = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    if name == "full":
        return aten.full.default, (list(args[0]), args[1]), extra
    return getattr(aten, name).default, (list(sizes),), extra


def _getitem(args):
    """``x[0]``, ``x[:, 1:3]``: select/slice per dimension, as torch records basic indexing."""
    base, index = args[0], args[1]
    index = index if isinstance(index, tuple) else (index,)
    if not all(isinstance(i, (int, slice)) or i is None or i is Ellipsis for i in index) or Ellipsis in index:
        return [(_packet_overload("index", ("Tensor",)), (base, [index]), {})]
    calls, dim = [], 0
    for i in index:
        if i is None:
            calls.append((aten.unsqueeze.default, (dim,)))
            dim += 1
        elif isinstance(i, int):
            calls.append((aten.select.int, (dim, i)))
        elif i == slice(None):
            dim += 1
        else:
            start, stop, step = i.start, i.stop, i.step
            tail = [start or 0, stop] + ([step] if step not in (None, 1) else [])
            while stop is None and len(tail) > 1 and tail[-1] is None:
                tail.pop()
            calls.append((aten.slice.Tensor, (dim, *tail)))
            dim += 1
    return [(op, (PREV, *rest), {}) for op, rest in calls]


_CONVERSIONS = {"long": "int64", "int": "int32", "float": "float32", "double": "float64", "half": "float16",
                "bool": "bool", "short": "int16", "char": "int8", "byte": "uint8", "bfloat16": "bfloat16"}


def _conversion(resolved: str, name: str, args, kwargs):
    """The dtype a ``Tensor.long()``/``Tensor.to(dtype)`` call converts to, or None for any other call."""
    if not resolved.startswith("torch.Tensor.") or not args:
        return None
    if name in _CONVERSIONS and len(args) == 1 and not kwargs:
        return getattr(core, _CONVERSIONS[name])
    if name == "to" and len(args) == 2 and isinstance(args[1], core.dtype) and not kwargs:
        return args[1]
    return None


def aten_call(func, args, kwargs) -> list[tuple]:
    """``[(OpOverload, args, kwargs), ...]``: the ATen calls ``func(*args, **kwargs)`` records (a chain for
    indexing, where each call's first argument ``PREV`` is the one before's result); empty when there is no ATen
    operator of that name."""
    if isinstance(func, CustomOverload):  # a custom op is one node of its own (torch.ops.mylib.sin.default)
        return [(func, args, kwargs)]
    resolved = resolve_name(func) or getattr(func, "__name__", "")
    name = resolved.rsplit(".", 1)[-1]
    if name == "__getitem__":
        return _getitem(args)
    name = {"__matmul__": "matmul", "__rsub__": "rsub", "__truediv__": "div", "true_divide": "div",
            "multiply": "mul", "subtract": "sub"}.get(name, name)
    if resolved == "torch.nn.functional.batch_norm":
        values = _bound(func, args, kwargs)
        order = ("input", "weight", "bias", "running_mean", "running_var", "training", "momentum", "eps")
        defaults = {"weight": None, "bias": None, "training": False, "momentum": 0.1, "eps": 1e-05}
        return [(aten.batch_norm.default, tuple(values.get(k, defaults.get(k)) for k in order) + (False,), {})]
    if resolved in (f"torch.{n}" for n in (*_FACTORIES, "arange", "full")):
        return [_factory(name, args, kwargs)]
    if name == "split" and isinstance(_bound(func, args, kwargs).get("split_size_or_sections"), (list, tuple)):
        values = _bound(func, args, kwargs)
        dim = values.get("dim", 0)
        return [(aten.split_with_sizes.default, (args[0], list(values["split_size_or_sections"]),
                                                 *([dim] if dim else [])), {})]
    target_dtype = _conversion(resolved, name, args, kwargs)
    if target_dtype is not None:  # x.long(), x.to(torch.int64): torch checks the input, then converts
        x = args[0]
        check = (aten._assert_tensor_metadata.default, (x,),
                 {"dtype": x.dtype, "device": x.device, "layout": core.strided})
        return [check, (aten.to.dtype, (x, target_dtype), {})]
    if name in SCHEMAS:
        found = _by_schema(name, func, args, kwargs)
        if found is not None and _bound(func, args, kwargs).get("inplace") is True:  # F.relu(x, inplace=True)
            found = (_packet_overload(name + "_", ("default",)) or found[0], *found[1:])
        if found is not None:
            return [found]
    if resolved.startswith("torch.nn.functional."):  # (its wrapper spells out the defaults)
        kwargs = _without_defaults(func, kwargs)
    op, call_args, call_kwargs = _generic(name, args, kwargs)
    return [] if op is None else [(op, call_args, call_kwargs)]


def is_value_read(func) -> bool:
    """Whether ``func`` turns a tensor into a Python value (the program would branch on data)."""
    name = (resolve_name(func) or "").rsplit(".", 1)[-1]
    return name in ("__bool__", "item", "__int__", "__float__", "__index__", "tolist", "__complex__")

