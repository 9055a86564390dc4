"""NumPy's keyword names on ops that take ``dim``: ``axis=`` for ``dim=`` and ``keepdims=`` for ``keepdim=``.

PyTorch's argument parser accepts both spellings on every native op (``torch.cat(ts, axis=0)``,
``x.squeeze(axis=0)``, ``x.sum(axis=1, keepdims=True)``), but not on ops written in Python
(``torch.split``, ``Tensor.unflatten``), which raise ``TypeError`` for ``axis``. The reductions wrap
themselves (``reduction.accept_numpy_names``); ``install`` wraps the other public ops that take
``dim`` in ``core``'s namespace and in ``Tensor``'s method table, leaving each family's own
module functions (what core calls internally) as they are.
"""

from __future__ import annotations

import functools
import inspect

__all__ = ["install", "rename_numpy_kwargs", "call_with_keywords"]

# PyTorch defines these in Python: they take ``dim`` only.
_PYTHON_DEFINED = frozenset({"split", "unflatten", "norm", "unique", "unique_consecutive", "stft", "istft"})


def _takes_dim_only(name: str, fn) -> bool:
    if name.startswith("_") or name in _PYTHON_DEFINED or not callable(fn) or isinstance(fn, type):
        return False
    if hasattr(fn, "__wrapped__"):  # already wrapped (the reductions)
        return False
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return ("dim" in params or "keepdim" in params) and "axis" not in params


def rename_numpy_kwargs(name: str, kwargs: dict) -> dict:
    """``kwargs`` with NumPy's ``axis``/``keepdims`` renamed ``dim``/``keepdim``; both spellings of one argument at
    once are PyTorch's ``TypeError`` (``sum() got an unexpected keyword argument 'axis'``)."""
    for numpy_name, torch_name in (("axis", "dim"), ("keepdims", "keepdim")):
        if numpy_name in kwargs:
            if torch_name in kwargs:
                raise TypeError(f"{name}() got an unexpected keyword argument '{numpy_name}'")
            kwargs[torch_name] = kwargs.pop(numpy_name)
    return kwargs


def with_numpy_names(fn):
    """``fn`` that also takes ``axis``/``keepdims`` for its ``dim``/``keepdim``."""

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if not kwargs:
            return fn(*args)
        return call_with_keywords(fn, args, rename_numpy_kwargs(fn.__name__, kwargs))

    return op


_STD_NAMES = ("std", "var", "var_mean", "std_mean")


def call_with_keywords(fn, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)``, an argument error naming a keyword argument's position worded as PyTorch's parser
    words it (no position: ``torch.cumsum(x, dim=True)``; ``core.ops.method_args``)."""
    name = fn.__name__
    if name in _STD_NAMES and len(args) == 1 and isinstance(kwargs.get("dim"), (bool, float)):
        from core._arg_types import keyword_dim_error  # (it imports tensors)

        # (the op reads a bool dim as unbiased, as by position; var_mean/std_mean are functions only)
        raise keyword_dim_error(name, kwargs, method=name in ("std", "var"))
    try:  # NOTE: no cost unless it raises
        return fn(*args, **kwargs)
    except TypeError as error:
        from core._arg_types import reworded
        from core.ops.method_args import parser_form  # (it imports core._arg_types, which imports tensors)

        call = getattr(error, "dim_call", None)  # a bool or float dim the op took as a position: given by keyword
        if call is not None and not call[3] and len(args) == 1 and list(kwargs) == ["dim"]:
            raise reworded(error, keyword=True) from None  # (x.all(dim=True): the parser's keyword lines)
        translated = parser_form(error, fn.__name__, args, kwargs, method=False)
        if translated is None:
            raise
        raise translated from None


# functions without a ``dim`` whose argument errors name a keyword argument as PyTorch's parser does (``torch.clamp(x,
# min="a")``: "got (Tensor, min=str)"; ``torch.transpose(x, dim0=0.0, dim1=1)``: "argument 'dim0' must be int"); their
# methods' errors are reworded by ``method_args.translating``
_KEYWORD_WORDED = ("transpose", "swapaxes", "swapdims", "clamp", "clip")


def with_keyword_wording(fn):
    """``fn`` whose argument errors, when called with keywords, are worded as PyTorch's parser words them."""

    @functools.wraps(fn)
    def op(*args, **kwargs):
        if not kwargs:
            return fn(*args)
        return call_with_keywords(fn, args, kwargs)

    return op


def install(namespace: dict, methods: dict) -> None:
    """Wrap every op taking ``dim`` in ``namespace`` (``core.ops``' names) and ``methods`` (``Tensor``'s table), and
    the functions of ``_KEYWORD_WORDED`` in ``namespace``."""
    for name in _KEYWORD_WORDED:
        namespace[name] = with_keyword_wording(namespace[name])
    wrapped = {}
    for table in (namespace, methods):
        for name, fn in list(table.items()):
            if _takes_dim_only(name, fn):
                if id(fn) not in wrapped:
                    wrapped[id(fn)] = with_numpy_names(fn)
                table[name] = wrapped[id(fn)]
