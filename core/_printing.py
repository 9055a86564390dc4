"""Tensor reprs in PyTorch's exact format, and ``set_printoptions``.

A port of PyTorch's ``_tensor_str`` on host NumPy arrays: the same formatter (int mode,
scientific mode, one width for all elements), the same line breaks, indentation, summarising
with ``...`` and the same suffixes (``dtype=``, ``device=``, ``requires_grad=``, ``grad_fn=``),
because learners compare what Nodegrad prints with PyTorch character by character.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math

import numpy as np

from core import _backend, _dtype

__all__ = ["set_printoptions", "get_printoptions", "printoptions"]


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None) -> None:
    """Set how tensors print (``profile``: ``default``, ``short`` or ``full``), as ``torch.set_printoptions``."""
    if profile is not None and profile in _PROFILES:
        (PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems,
         PRINT_OPTS.linewidth) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict:
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Temporarily change the print options (same arguments as ``set_printoptions``)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """One width and one style (int, fixed or scientific) for every element, chosen as PyTorch does."""

    def __init__(self, arr: np.ndarray):
        self.floating = arr.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = arr.reshape(-1)
        if not self.floating:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return
        with np.errstate(all="ignore"):
            vals = flat[np.isfinite(flat) & (flat != 0)]
        if vals.size == 0:
            return
        absolute = np.abs(vals).astype(np.float64)
        lo, hi = absolute.min(), absolute.max()
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = bool(hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4)
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        p = PRINT_OPTS.precision
        values = vals.tolist()
        if self.sci_mode:
            widths = (len(f"{v:.{p}e}") for v in values)
        elif self.int_mode:
            widths = (len(f"{v:.0f}") + 1 for v in values)
        else:
            widths = (len(f"{v:.{p}f}") for v in values)
        self.max_width = max(self.max_width, max(widths))

    def format(self, value) -> str:
        if self.floating:
            p = PRINT_OPTS.precision
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


class _ComplexFormatter:
    """PyTorch's complex printing: the real parts share one formatter, the imaginary parts another.

    An element is ``real`` then ``+imagj`` (the sign from the imaginary part, ``+`` added when it has none).
    """

    def __init__(self, arr: np.ndarray):
        self.real, self.imag = _Formatter(np.ascontiguousarray(arr.real)), _Formatter(np.ascontiguousarray(arr.imag))
        self.max_width = self.real.max_width + self.imag.max_width + 1  # the "j"

    def format(self, value) -> str:
        imag = (self.imag.format(value.imag) + "j").lstrip()
        return self.real.format(value.real) + ("" if imag[0] in "+-" else "+") + imag


def _vector_str(arr, indent: int, summarize: bool, fmt: _Formatter) -> str:
    element_length = fmt.max_width + 2
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        data = ["..."]
    elif summarize and arr.shape[0] > 2 * edge:
        data = ([fmt.format(v) for v in arr[:edge].tolist()] + [" ..."]
                + [fmt.format(v) for v in arr[-edge:].tolist()])
    else:
        data = [fmt.format(v) for v in arr.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _str_with_formatter(arr, indent: int, summarize: bool, fmt: _Formatter) -> str:
    ndim = arr.ndim
    if ndim == 0:
        return fmt.format(arr.item())
    if ndim == 1:
        return _vector_str(arr, indent, summarize, fmt)
    edge = PRINT_OPTS.edgeitems
    n = arr.shape[0]
    if summarize and n > 2 * edge:
        rows = list(range(edge)) + [None] + list(range(n - edge, n))
    else:
        rows = list(range(n))
    slices = ["..." if i is None else _str_with_formatter(arr[i], indent + 1, summarize, fmt) for i in rows]
    return "[" + ("," + "\n" * (ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized(arr: np.ndarray) -> np.ndarray:
    """The elements a summarised print shows (PyTorch's ``get_summarized_data``)."""
    edge = PRINT_OPTS.edgeitems
    if arr.ndim == 0:
        return arr
    if arr.ndim == 1:
        return np.concatenate((arr[:edge], arr[-edge:])) if arr.shape[0] > 2 * edge else arr
    if not edge:
        return arr[(slice(0, 0),) * arr.ndim]
    n = arr.shape[0]
    rows = list(range(edge)) + list(range(n - edge, n)) if n > 2 * edge else range(n)
    return np.stack([_summarized(arr[i]) for i in rows])


def _tensor_str(arr: np.ndarray, indent: int) -> str:
    if arr.size == 0:
        return "[]"
    summarize = arr.size > PRINT_OPTS.threshold
    shown = _summarized(arr) if summarize else arr
    fmt = _ComplexFormatter(shown) if arr.dtype.kind == "c" else _Formatter(shown)
    return _str_with_formatter(arr, indent, summarize, fmt)


def _add_suffixes(text: str, suffixes: list, indent: int) -> str:
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _meta_repr(t, prefix: str, suffixes: list, indent: int) -> str:
    suffixes.append("size=" + str(tuple(t.shape)))
    if t.dtype is not _dtype.get_default_dtype():
        suffixes.append(f"dtype={t.dtype!r}")
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + "...", suffixes, indent)


def tensor_repr(t) -> str:
    """``repr(t)`` exactly as PyTorch prints it (``str`` is the same)."""
    prefix = "tensor(" if type(t).__name__ in ("Tensor", "Parameter") else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes = []
    dev = t.device
    if dev.type != "cpu":
        suffixes.append(f"device='{dev}'")
    if dev.type == "meta":  # no data: PyTorch prints the size (and any dtype but the default) instead
        return _meta_repr(t, prefix, suffixes, indent)
    arr = _backend.to_numpy_array(t._data)
    dt = t.dtype
    if arr.dtype.kind == "V":  # bfloat16, float8_e4m3fn (ml_dtypes): PyTorch formats their values as float32
        arr = arr.astype(np.float32)
    default = _dtype.get_default_dtype()
    if arr.size == 0:
        if arr.ndim != 1:
            suffixes.append("size=" + str(tuple(arr.shape)))
        if dt is not default:  # (PyTorch names complex64 here too)
            suffixes.append(f"dtype={dt!r}")
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(arr.shape)))
        if dt not in (default, default.to_complex(), _dtype.int64, _dtype.bool):
            suffixes.append(f"dtype={dt!r}")
        body = _tensor_str(arr, indent)
    if t.grad_fn is not None:
        suffixes.append(f"grad_fn=<{type(t.grad_fn).__name__}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    if "_fw_grad" in t.__dict__:  # a dual tensor inside its forward-AD level shows its tangent, as PyTorch's
        from core.autograd.forward_ad import tangent_of  # the tensor layer imports this module

        tangent = tangent_of(t)
        if tangent is not None:
            suffixes.append(f"tangent={tangent}")
    text = _add_suffixes(prefix + body, suffixes, indent)
    return f"Parameter({text})" if prefix != "tensor(" and _is_parameter(t) else text


def _is_parameter(t) -> bool:
    """A Parameter subclass (geoopt's ManifoldParameter) or a subclass instance made a parameter shows as
    ``Parameter(Sub([...]))``, as PyTorch's ``_str_intern`` prints it."""
    from core.nn.parameter import Parameter  # (the tensor layer imports this module)

    return isinstance(t, Parameter)
