"""PyTorch's argument-type errors for functions handed something that is not a tensor (a NumPy array, a list, the
builtin ``input`` where a tutorial meant its own variable): the type named as CPython's ``tp_name`` names it, which is
what PyTorch's argument parser prints (``numpy.ndarray``, ``list``, a Python class by its bare name).

``require_tensors("linear", input=(1, x), weight=(2, w))`` raises ``linear(): argument 'input' (position 1) must be
Tensor, not numpy.ndarray`` for the first argument that is not a tensor; ``conv_arguments_error`` is the message of
``conv1d``/``conv2d``/``conv3d``, whose two overloads PyTorch lists.
"""

from __future__ import annotations

import numpy as np

from core._tensor import Tensor

__all__ = ["tp_name", "require_tensors", "require_input", "require_tensor_input", "require_one_tensor",
           "conv_arguments_error", "random_factory_kwargs_error", "spaced_arguments_error", "is_index",
           "require_int_list", "number_arg", "dim_overloads_error", "require_bool", "require_int",
           "keyword_dim_error", "dim_error", "reworded", "std_dim_error", "int64"]

_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class defined in Python, whose tp_name is its bare name


def tp_name(obj) -> str:
    """The name CPython gives ``type(obj)`` in C: a built-in or extension type with its module (``numpy.ndarray``,
    ``int``), a Python class (``Parameter``, a user's ``Foo``) bare."""
    cls = type(obj)
    if isinstance(obj, Tensor):  # PyTorch's Tensor and Parameter are Python classes over its C type
        return cls.__name__
    if cls.__flags__ & _HEAP_TYPE or cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def number_arg(fn: str, name: str, position: int, value):
    """A ``Number`` (ATen ``Scalar``) argument as a Python number: a number passes, a 0-d tensor gives its value
    (BoTorch's ``softplus(x, beta=1 / tau)`` with a tensor ``tau``), anything else (a tensor with dimensions
    included) raises PyTorch's ``argument 'beta' (position 2) must be Number, not Tensor``."""
    if isinstance(value, Tensor):
        if value.dim() == 0:
            return value.item()
    elif isinstance(value, (bool, int, float, complex, np.generic)):
        return value
    raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Number, not {tp_name(value)}")


def require_tensors(fn: str, optional: tuple = (), **args) -> None:
    """Raise PyTorch's TypeError for the first of ``args`` (name=(position, value)) that is not a tensor; the names
    in ``optional`` may also be None."""
    for name, (position, value) in args.items():
        if not isinstance(value, Tensor) and not (value is None and name in optional):
            raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be Tensor, not {tp_name(value)}")


def require_input(fn: str, input) -> None:
    """``require_tensors(fn, input=(1, input))`` for a function of one tensor (``torch.unsqueeze(x, 0)``), unless
    ``input`` is a tensor-like with ``__torch_function__`` (PyTorch hands it to that instead)."""
    if not isinstance(input, Tensor) and not hasattr(type(input), "__torch_function__"):
        raise TypeError(f"{fn}(): argument 'input' (position 1) must be Tensor, not {tp_name(input)}")


_BINARY_OVERLOADS = (" * (Tensor input, Tensor other, *, Tensor out = None)",
                     " * (Tensor input, Number other, *, Tensor out = None)")


def require_tensor_input(fn: str, input, other, overloads: tuple = _BINARY_OVERLOADS) -> None:
    """PyTorch's parser error for a function of ``(Tensor input, Tensor or Number other)`` called with a Python
    number (or anything else that is not a tensor) first: ``torch.gt(1, x)`` and ``torch.fmod(2, x)`` raise it, as
    only add/sub/mul/div and their aliases let a number stand in for the input tensor."""
    if isinstance(input, Tensor) or hasattr(type(input), "__torch_function__"):
        return
    raise TypeError(f"{fn}() received an invalid combination of arguments - got ({tp_name(input)}, {tp_name(other)}), "
                    "but expected one of:\n" + "\n".join(overloads) + "\n")


def require_one_tensor(fn: str, input, other) -> None:
    """The functions with a ``(Number self, Tensor other)`` overload (remainder, xlogy, the shifts) still need one
    tensor: ``torch.remainder(2, 3)`` is PyTorch's TypeError."""
    if not isinstance(other, Tensor):
        require_tensor_input(fn, input, other, (_BINARY_OVERLOADS[0], " * (Number self, Tensor other)",
                                                _BINARY_OVERLOADS[1]))


def refuse_bool_dim(fn: str, dim, kind: str = "int", position: int = 2) -> None:
    """PyTorch's TypeError for a bool, float or str ``dim``: its parser takes none as an int (``torch.cumsum(x, True)``
    is no sum along dim 1, as Python's ``bool`` subclassing ``int`` would make it; core has no named dims)."""
    if isinstance(dim, (bool, float, str)):
        raise TypeError(f"{fn}(): argument 'dim' (position {position}) must be {kind}, not {tp_name(dim)}")


def require_bool(fn: str, name: str, position: int | None, value) -> None:
    """PyTorch's TypeError for a ``bool`` parameter given anything but a bool (``x.sum(0, 1)``, ``keepdim=1``): its
    parser takes no int, None or NumPy bool there, where Python's truthiness would. ``position`` None: keyword-only.
    Worded for the function; a method's position (one less) comes from ``core.ops.method_args``."""
    if value is not True and value is not False:
        where = "" if position is None else f" (position {position})"
        raise TypeError(f"{fn}(): argument '{name}'{where} must be bool, not {tp_name(value)}")


def require_int(fn: str, name: str, position: int, value, kind: str = "int") -> None:
    """PyTorch's TypeError for an ``int`` (or, ``kind``, ``tuple of ints``) parameter given no int: a float, None, a
    str, a bool (``x.tril(1.5)``, ``x.chunk(None)``), where ``__index__`` or ``int()`` would fail in other words or
    truncate. ``position`` counts the input, as the function's parser does; the error carries ``input_counted`` so
    that a method (``core.ops.arity_words``) says one less."""
    if isinstance(value, (bool, float, str)) or value is None or not (hasattr(value, "__index__")
                                                                      or isinstance(value, Tensor)):
        error = TypeError(f"{fn}(): argument '{name}' (position {position}) must be {kind}, not {tp_name(value)}")
        error.input_counted = True  # type: ignore[attr-defined]
        raise error


def is_index(value) -> bool:
    """What PyTorch's argument parser takes as one int of an int list: an int (not a bool), a NumPy integer, or a
    one-element integer tensor."""
    if isinstance(value, bool):
        return False
    if isinstance(value, Tensor):
        return value.numel() == 1 and not value.dtype.is_floating_point and not value.dtype.is_complex \
            and value.dtype.name != "bool"
    return hasattr(type(value), "__index__") and not isinstance(value, (list, tuple))


def require_int_list(fn: str, name: str, position: int, value, single: bool = True):
    """``value`` as PyTorch's parser reads an ``int[]`` argument (an int, when ``single``, or a list or tuple of
    ints; integer tensors and NumPy integers as Python ints), or its TypeError: ``max_pool2d(x, 2.0)``,
    ``F.layer_norm(x, 8)`` (``single=False``: a shape takes no bare int), a bool or str anywhere."""
    if is_index(value) and single:
        return int(value)
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            if not is_index(v):
                if i and isinstance(value, list):
                    raise TypeError(f"{fn}(): argument '{name}' failed to unpack the object at pos {position} with "
                                    f"error \"type must be tuple of ints,but got {tp_name(v)}\"")
                if isinstance(value, list):
                    raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, but "
                                    f"found element of type {tp_name(v)} at pos {i}")
                raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, not tuple")
        return type(value)(int(v) for v in value) if not hasattr(value, "numel") else value
    raise TypeError(f"{fn}(): argument '{name}' (position {position}) must be tuple of ints, not {tp_name(value)}")


_CONV_SIGNATURES = (
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, tuple of ints padding = 0, "
    "tuple of ints dilation = 1, int groups = 1)",
    " * (Tensor input, Tensor weight, Tensor bias = None, tuple of ints stride = 1, str padding = \"valid\", "
    "tuple of ints dilation = 1, int groups = 1)")
_CONV_DEFAULTS = (None, 1, 0, 1, 1)  # bias, stride, padding, dilation, groups


def _described(value) -> str:
    if isinstance(value, tuple):
        return f"tuple of ({', '.join(tp_name(v) for v in value)}{',' if len(value) == 1 else ''})"
    return tp_name(value)


def _is_default(value, default) -> bool:
    return value is None if default is None else type(value) is int and value == default


def _int_list_ok(value) -> bool:
    """Whether the parser takes ``value`` as an ``int[]`` (a conv's stride, padding or dilation)."""
    try:
        require_int_list("", "", 0, value)
    except TypeError:
        return False
    return True


def conv_arguments_error(fn: str, args: tuple) -> TypeError | None:
    """None when input, weight and bias are tensors (bias may be None) and the sizes ints or lists of ints (padding
    may be a str); else PyTorch's 'invalid combination' error.
    The arguments count as passed up to the last one that is not its default, or all seven when a size is a tuple
    (as the Conv modules pass them); with all seven, each overload's line says which arguments did not match, as
    PyTorch's does."""
    input, weight, bias = args[:3]
    if isinstance(input, Tensor) and isinstance(weight, Tensor) and (bias is None or isinstance(bias, Tensor)) \
            and all(_int_list_ok(v) or (i == 1 and isinstance(v, str)) for i, v in enumerate(args[3:6])) \
            and is_index(args[6]):
        return None
    given = list(args)
    if not any(isinstance(a, tuple) for a in args[3:6]):  # the Conv modules pass all seven, their sizes as tuples
        while len(given) > 2 and _is_default(given[-1], _CONV_DEFAULTS[len(given) - 3]):
            given.pop()
    lines = [f"{fn}() received an invalid combination of arguments - got ({', '.join(tp_name(a) for a in given)}), "
             "but expected one of:"]
    for signature in _CONV_SIGNATURES:
        lines.append(signature)
        if len(given) == 7:
            lines.append("      didn't match because some of the arguments have invalid types: ("
                         + ", ".join(f"!{_described(a)}!" for a in given) + ")")
    return TypeError("\n".join(lines) + "\n")


_FACTORY_SIGNATURES = (
    " * (tuple of ints size, *, torch.Generator generator, Tensor out = None, torch.dtype dtype = None, "
    "torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)",
    " * (tuple of ints size, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
    "torch.device device = None, bool pin_memory = False, bool requires_grad = False)")


def _torch_type_name(value) -> str:
    """tp_name, with core's classes named as PyTorch's C types are (torch.dtype, torch.device, torch._C.Generator)."""
    from core import _device, _dtype, _random  # (they import Tensor's module too)

    if isinstance(value, _dtype.dtype):
        return "torch.dtype"
    if isinstance(value, _device.device):
        return "torch.device"
    if isinstance(value, _random.Generator):
        return "torch._C.Generator"
    return tp_name(value)


def random_factory_kwargs_error(fn: str, sizes: tuple, kwargs: dict) -> TypeError:
    """``rand``/``randn`` called with a keyword they lack (``names=``, gone with named tensors): PyTorch's message,
    which lists the positional arguments' types, then every keyword's, the last given first."""
    if not sizes and len(kwargs) == 1 and "size" not in kwargs:
        return TypeError(f'{fn}() missing 1 required positional arguments: "size"')
    keywords = [f"{k}={_torch_type_name(v)}" for k, v in reversed(kwargs.items())]
    positional = [_torch_type_name(s) for s in sizes]
    got = ", ".join(positional + keywords) if positional else "".join(f"{k}, " for k in keywords)
    return TypeError(f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     + "\n".join(_FACTORY_SIGNATURES) + "\n")


_SPACED_REST = ("int steps{base}, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, "
                "torch.device device = None, bool pin_memory = False, bool requires_grad = False)")


def spaced_arguments_error(fn: str, start, end, steps) -> TypeError:
    """``linspace``/``logspace`` given a start or end that is neither a number nor a tensor, or steps that is not an
    int: PyTorch's parser lists its four overloads (Tensor or Number start and end)."""
    rest = _SPACED_REST.format(base=", float base = 10.0" if fn == "logspace" else "")
    lines = [f"{fn}() received an invalid combination of arguments - got ({tp_name(start)}, {tp_name(end)}, "
             f"{tp_name(steps)}), but expected one of:"]
    lines += [f" * ({a} start, {b} end, {rest}" for a, b in
              (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"), ("Number", "Number"))]
    return TypeError("\n".join(lines) + "\n")


# PyTorch's overloads of the ops whose dim a bool or float is refused by, as its parser lists them (method form: no
# ``Tensor input``), each with whether the parser adds its "didn't match" line for one positional bool or float dim
_DIM_OVERLOADS = {  # (overload, its line for a positional dim, its line for a keyword dim: "types", "keyword", "")
    ("squeeze", True): (("()", True, "keyword"), ("(int dim)", True, "types"), ("(tuple of ints dim)", True, "types")),
    ("squeeze", False): (("(Tensor input)", False, ""), ("(Tensor input, int dim)", True, "types"),
                         ("(Tensor input, tuple of ints dim)", True, "types")),
    ("count_nonzero", True): (("(int dim = None)", True, "keyword"), ("(tuple of ints dim)", True, "types")),
    ("count_nonzero", False): (("(Tensor input, int dim = None)", True, "keyword"),
                               ("(Tensor input, tuple of ints dim)", True, "types")),
    ("all", True): (("()", True, "keyword"), ("(tuple of ints dim = None, bool keepdim = False)", False, ""),
                    ("(int dim, bool keepdim = False)", False, "")),
    ("all", False): (("(Tensor input, *, Tensor out = None)", False, ""),
                     ("(Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)", False,
                      ""),
                     ("(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)", False, "")),
}
for _name, _out in (("sort", "tuple of Tensors out = None"), ("argsort", "Tensor out = None")):  # (no lines at all)
    _DIM_OVERLOADS[_name, True] = (("(*, bool stable, int dim = -1, bool descending = False)", False, ""),
                                   ("(int dim = -1, bool descending = False)", False, ""))
    _DIM_OVERLOADS[_name, False] = (
        (f"(Tensor input, *, bool stable, int dim = -1, bool descending = False, {_out})", False, ""),
        ("(Tensor input, int dim = -1, bool descending = False" + (", *, tuple of Tensors out = None)"
                                                                   if _name == "sort" else ")"), False, ""))
_DIM_OVERLOADS.update({("any", m): v for (name, m), v in list(_DIM_OVERLOADS.items()) if name == "all"})


_STD_OVERLOADS = (" * (tuple of ints dim, bool unbiased = True, bool keepdim = False)",
                  " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)",
                  " * (bool unbiased = True)")
_STD_FUNCTION_OVERLOADS = (
    " * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, Tensor out = None)",
    " * (Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False, Tensor out = None)",
    " * (Tensor input, bool unbiased = True)")


def dim_error(message: str, fn: str, dim, method: bool, keyword: bool) -> TypeError:
    """A parser TypeError for a bool or float ``dim`` that knows how it was called (``fn``, the ``dim``, ``method``,
    ``keyword``: its ``dim_call``), so a wrapper that knows better (the function form of a method's op, a keyword
    where the op saw a position) can raise the same error in PyTorch's words for that call (``reworded``). A plain
    TypeError, as torch's."""
    error = TypeError(message)
    error.dim_call = (fn, dim, method, keyword)
    return error


def reworded(error: TypeError, *, method: bool | None = None, keyword: bool | None = None) -> TypeError:
    """``dim_error``'s ``error`` in PyTorch's words for the method or function form, a keyword or a positional dim."""
    fn, dim, was_method, was_keyword = error.dim_call
    method = was_method if method is None else method
    keyword = was_keyword if keyword is None else keyword
    if fn in ("std", "var", "var_mean", "std_mean"):
        return std_dim_error(fn, dim, method, keyword, getattr(error, "dim_more", ()))
    return dim_overloads_error(fn, dim, method, keyword)


def keyword_dim_error(fn: str, kwargs: dict, method: bool = True) -> TypeError:
    """PyTorch's parser error for ``x.std(dim=True)``/``torch.var(x, dim=1.0)``: a bool given as ``dim`` by keyword
    is no ``unbiased`` (a bool by position is), and matches none of the overloads (worded for the method or the
    function)."""
    if len(kwargs) == 1 and "dim" in kwargs:
        return std_dim_error(fn, kwargs["dim"], method, keyword=True)
    got = ("" if method else "Tensor, ") + ", ".join(f"{k}={tp_name(v)}" for k, v in reversed(kwargs.items()))
    got += ", " if method else ""
    lines = [f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:",
             *_std_overloads(fn, method)]
    return TypeError("\n".join(lines) + "\n")


def std_dim_error(fn: str, dim, method: bool, keyword: bool, more: tuple = ()) -> TypeError:
    """PyTorch's parser error for a float ``dim`` of ``std``/``var``/``var_mean``/``std_mean`` (``x.std(1.0)``), or a
    bool one by keyword (``x.std(dim=True)``; a bool by position is ``unbiased``). ``more``: the type names of the
    arguments given after a positional ``dim`` (``torch.std(x, "a", True)``); the parser lists them, and then no
    overload takes that many arguments, so it says of none why it did not match."""
    name = tp_name(dim)
    if keyword:
        got, why = (f"dim={name}, " if method else f"Tensor, dim={name}"), "some of the keywords were incorrect: dim"
    else:
        marked = f"!{name}!" if method else f"Tensor, !{name}!"
        got = ", ".join(([] if method else ["Tensor"]) + [name, *more])
        why = None if more else f"some of the arguments have invalid types: ({marked})"
    lines = [f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:",
             *_std_overloads(fn, method)] + ([f"      didn't match because {why}"] if why else [])
    error = dim_error("\n".join(lines) + "\n", fn, dim, method, keyword)
    error.dim_more = more
    return error


def _std_overloads(fn: str, method: bool) -> tuple:
    if method:
        return _STD_OVERLOADS
    if fn in ("std", "var"):
        return _STD_FUNCTION_OVERLOADS
    return tuple(line.replace(", *, Tensor out = None", "").replace(", Tensor out = None", "")
                 for line in _STD_FUNCTION_OVERLOADS)  # (var_mean, std_mean: no out=)


def dim_overloads_error(fn: str, dim, method: bool, keyword: bool = False) -> TypeError:
    """PyTorch's parser error for ``x.squeeze(True)``/``torch.all(x, 1.0)``/``x.all(dim=True)``...: a bool or float
    dim matches none of ``fn``'s overloads (``_DIM_OVERLOADS``), listed as its parser lists them for a method or a
    function, with its "didn't match" lines for a positional or a keyword ``dim``."""
    name = tp_name(dim)
    given = f"dim={name}" if keyword else name
    got = (f"{given}, " if keyword else given) if method else f"Tensor, {given}"
    marked = (f"!{given}!, " if keyword else f"!{given}!") if method else f"Tensor, !{given}!"
    lines = [f"{fn}() received an invalid combination of arguments - got ({got}), but expected one of:"]
    for overload, mismatch, by_keyword in _DIM_OVERLOADS[fn, method]:
        lines.append(f" * {overload}")
        why = by_keyword if keyword else mismatch and "types"
        if why == "types":
            lines.append(f"      didn't match because some of the arguments have invalid types: ({marked})")
        elif why == "keyword":
            lines.append("      didn't match because some of the keywords were incorrect: dim")
    return dim_error("\n".join(lines) + "\n", fn, dim, method, keyword)


def int64(value: int) -> int:
    """``value`` where it fits torch's ``int64_t`` argument; past it (``narrow(0, 0, 2**63)``, ``topk(2**64)``),
    torch's parser's ValueError."""
    if not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return value
