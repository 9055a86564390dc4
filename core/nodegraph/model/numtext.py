"""Numbers as PyTorch prints them (``[ 1.5000, -0.5000]``, ``1.``), for text the headless layer writes.

``parse(param, text)`` is the inverse for what a user types into a parameter field: a number or a JSON-like
list (``(2, 3)`` reads as ``[2, 3]``; ``[2., 3.]``, ``.5``, ``nan``, ``inf`` and ``True`` as Python writes them), never
``eval``, refused with a ParamError naming the parameter when it
can't be read, is nested deeper than ``MAX_NESTING``, holds a number too large (``1e999``) or is too long.

``keep(array)`` is what a recorder stores: a copy of a small NumPy/CuPy array, or for a big one only
its shape, dtype and first numbers (``Summary``), so recording never keeps or copies big tensors.
``text(value)`` writes a short array's numbers as ``printed`` does, on one line (the chain-rule products the
canvas shows on hovering a gradient), anything bigger as its shape and first numbers (``(64, 10) [ 0.1000,
-0.2000,  0.3000, …]``). ``printed(t)`` writes a tensor's numbers as ``print(t)`` does in
PyTorch (``[2., 3.]``, ``[ 1.5000, -0.5000]``, ``1.6000``), for the values the app shows beside the chapter's code.
``param_text(value)`` writes a parameter's value as its field holds it (``[2.0, 3.0]``, ``0.1``, ``float64``,
``True``), cut short, for the canvas's parameter lines and the names of edits ("w: dtype set to float64").
The GUI has its own formatter; this one never imports it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any, NamedTuple, NoReturn

import numpy as np

import core
from core.nodegraph.model.spec import Param, ParamError, quote

__all__ = ["tensor_values", "magnitudes",
           "KEEP_NUMEL", "SHORT_NUMEL", "MAX_NESTING", "MAX_TEXT", "Summary", "keep", "host", "number", "parse",
           "param_text", "printed", "scalar", "shape_text", "text"]

KEEP_NUMEL = 4096  # arrays up to this many elements are copied whole
SHORT_NUMEL = 6  # vectors and matrices up to this many elements are written in full
HEAD = 3  # how many numbers a big tensor shows
MAX_NESTING = 32  # brackets a typed value may nest (a tensor literal of 32 dims is far beyond any lesson)
MAX_TEXT = 10_000_000  # characters a typed value may have
Array = Any  # a NumPy or CuPy array


class Summary(NamedTuple):
    """A big array's shape, dtype and first ``HEAD`` numbers (host NumPy)."""

    shape: tuple[int, ...]
    dtype: Any  # the array's NumPy dtype
    head: np.ndarray

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def ndim(self) -> int:
        return len(self.shape)


def tensor_values(t: Any) -> np.ndarray:
    """A tensor's values as a NumPy array (detached, on the CPU) for text, plots and literals.

    bfloat16 and float8 values come as float32, which holds each of them exactly: NumPy knows those types only
    through ml_dtypes, and ``Tensor.numpy()`` refuses them, as PyTorch's does."""
    t = t.detach().cpu()
    if t.is_floating_point() and t.element_size() < 4 and t.dtype != core.float16:
        t = t.float()
    return t.numpy()


def magnitudes(a: np.ndarray) -> np.ndarray:
    """Real values to draw: ``a`` itself, or for complex values their magnitudes."""
    return np.abs(a) if np.iscomplexobj(a) else a


def host(a: Array) -> np.ndarray:
    """A NumPy view/copy of a NumPy or CuPy array (CuPy arrays have ``.get()``)."""
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def keep(a: Array | float | None) -> Array | Summary | None:
    """What to store of ``a`` (an array, a Python number or None): a copy when small, else a ``Summary``."""
    if a is None:
        return None
    if isinstance(a, (bool, int, float)):
        return np.asarray(a)
    if a.size <= KEEP_NUMEL:
        return a.copy()
    return Summary(tuple(a.shape), a.dtype, host(a.reshape(-1)[:HEAD]).copy())


def number(v: float | complex | np.generic) -> str:
    """``2``, ``1.5``, ``0.3333``: four significant digits, no trailing ``.0``."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, complex):
        return format(v, ".4g")
    return format(float(v), ".4g")


def printed(t: Any) -> str:
    """A tensor's (or a NumPy/CuPy array's) numbers as ``print(tensor)`` writes them, without ``tensor(`` and the
    suffixes after the numbers: ``[2., 3.]``, ``[ 1.5000, -0.5000]``, ``1.6000``, ``[1, 2]``; the rows of a matrix
    on their own lines, aligned as PyTorch aligns them. The text is core's ``repr`` (PyTorch's print options)."""
    if not isinstance(t, core.Tensor):
        t = core.from_numpy(host(t).copy())  # a C-ordered copy; a 0-d array stays 0-d
    whole = repr(t.detach())
    start = whole.index("(") + 1
    end = whole.rfind("]") + 1
    if t.dim() == 0 or not end:  # tensor(1.6000, dtype=torch.float64), a meta tensor's "...": no comma inside
        body = whole[start:].split(",")[0].removesuffix(")")
    else:  # the numbers end at the last bracket; the suffixes (dtype=, device=, size=) have none
        body = whole[start:end]
    return "\n".join(line[start:] if i else line for i, line in enumerate(body.split("\n")))


def scalar(v: float) -> str:
    """A number measured as a 0-d tensor (a loss, an accuracy) as ``print`` writes that tensor in PyTorch: ``0.0263``,
    ``1.2346e-05``, ``nan``, the text the app shows on the loss node for the same number."""
    return printed(np.asarray(float(v)))


def shape_text(shape: Iterable[int]) -> str:
    """``(2,)`` written ``(2)``, ``(2, 3)`` as it is: the way ``ones(2)`` reads."""
    return "(" + ", ".join(str(int(n)) for n in shape) + ")"


def text(a: Array | Summary | float | None) -> str:
    """An array's numbers as ``printed`` writes them, on one line (``[ 1.5000, -0.5000]``, ``[ 3., -1.]``, ``1.``,
    a matrix's rows side by side), a big one as its shape and first numbers (``(64, 10) [ 0.1000, -0.2000,
    0.3000, …]``); a Python number as ``number`` writes it; '—' for None."""
    if a is None:
        return "—"
    if isinstance(a, (bool, int, float)):
        return number(a)
    if isinstance(a, Summary):
        return _big(a.shape, a.head)
    a = host(a)
    if a.ndim == 0 or (a.size <= SHORT_NUMEL and a.ndim <= 2):
        return _one_line(printed(a))
    return _big(a.shape, a.reshape(-1)[:HEAD])


def _one_line(shown: str) -> str:
    """``printed``'s rows of a matrix joined on one line: ``[[1., 2.], [3., 4.]]``."""
    return " ".join(line.strip() for line in shown.split("\n"))


def _big(shape: tuple[int, ...], head: Array) -> str:
    return f"{shape_text(shape)} {_one_line(printed(head))[:-1]}, …]"


def param_text(v: object, limit: int = 40) -> str:
    """A parameter's value as its field holds it (``[2.0, 3.0]``, ``0.1``, ``True``, ``float64``, ``None``), cut to
    ``limit`` characters with ``…``; a large tensor literal (held as an array) as its shape, ``(300, 400) values``
    (the node's dtype parameter says what they become; the array holds them as read)."""
    if hasattr(v, "shape") and hasattr(v, "dtype") and hasattr(v, "tolist"):
        return f"{tuple(v.shape)} values"
    if v is None or isinstance(v, (bool, str)):
        text = str(v)
    else:
        try:
            text = json.dumps(list(v) if isinstance(v, tuple) else v)
        except (TypeError, ValueError):  # a value JSON can't write (never a validated parameter's): as Python does
            text = str(v)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def parse(param: Param, text: str) -> object:
    """The value typed for ``param`` (a ``spec.Param``), for ``param.validate``; ParamError naming the parameter
    when it can't be read. A shape, dims or tensor reads as Python would read it in a call: ``2, 3`` as
    ``randn(2, 3)`` takes it, ``(2,)`` and ``[1, 2,]`` with their trailing comma; ``3,,4`` is still refused."""
    if param.kind == "str":
        return text
    t = text.strip()
    if t in ("", "none", "None", "null") and param.kind in ("dims", "seed"):
        return None
    if len(t) > MAX_TEXT:
        raise ParamError(f"parameter '{param.name}': {len(t)} characters is too long to read (at most {MAX_TEXT})")
    t = _python_literals(t.replace("(", "[").replace(")", "]"), param.kind == "tensor")
    if param.kind in _SEQUENCES:
        t = _as_list(t)
    constants = float if param.kind == "tensor" else _no_constant  # NaN and Infinity: a tensor literal's values
    try:
        value = json.loads(t, parse_float=_finite, parse_int=_int, parse_constant=constants)
    except _TooLarge:
        raise ParamError(f"parameter '{param.name}': {quote(text)} holds a number too large to read") from None
    except RecursionError:
        value = _TOO_DEEP
    except ValueError:
        raise ParamError(f"parameter '{param.name}': can't read {quote(text)} (type {_wanted(param)})") from None
    if value is _TOO_DEEP or _nesting(value) > MAX_NESTING:
        raise ParamError(f"parameter '{param.name}': lists nested deeper than {MAX_NESTING} levels")
    return value


_SEQUENCES = ("shape", "dims", "tensor")
_WANTED = {"int": "a whole number", "float": "a number", "seed": "a whole number, or nothing for the session's seed"}


def _wanted(param: Param) -> str:
    """What ``param`` takes, in words for a refusal: a number field is asked for no list."""
    return _WANTED.get(param.kind, "a number or a list like [1, 2]")


def _as_list(t: str) -> str:
    """``2, 3`` -> ``[2, 3]`` (bare values with a comma between), and one trailing comma before each ``]`` dropped
    (``[2,]`` -> ``[2]``); anything else as typed, for JSON to read or refuse."""
    if "," in t and not t.startswith("["):
        t = f"[{t}]"

    def drop(match: re.Match[str]) -> str:  # not after another comma or an opening bracket: [3,,] and [,] stay
        i = match.start() - 1
        while i >= 0 and t[i].isspace():
            i -= 1
        return "]" if i >= 0 and t[i] not in ",[" else match.group()

    return _TRAILING_COMMA.sub(drop, t)


_TRAILING_COMMA = re.compile(r",\s*\]")  # starts at a comma: linear in the text, however many spaces it holds
_BARE_POINT = re.compile(r"(?<=\d)\.(?!\d)")  # 1. and 1.e3, as PyTorch prints them (JSON wants 1.0)
_LEADING_POINT = re.compile(r"(?<![\w.])\.(?=\d)")  # .5 and -.5 (JSON wants 0.5)
_WORDS = re.compile(r"(?<![\w.])(nan|inf|infinity|true|false)(?![\w.])", re.IGNORECASE)  # as print() writes them
_JSON_WORDS = {"nan": "NaN", "inf": "Infinity", "infinity": "Infinity", "true": "true", "false": "false"}


def _python_literals(t: str, tensor: bool) -> str:
    """Numbers as Python and PyTorch write them, in JSON's spelling: ``[2., 3.]`` (what the canvas shows), ``.5``;
    in a tensor also ``nan``, ``inf`` and ``True``/``False``."""
    t = _LEADING_POINT.sub("0.", _BARE_POINT.sub(".0", t))
    return _WORDS.sub(lambda m: _JSON_WORDS[m.group(1).lower()], t) if tensor else t


class _TooLarge(ValueError):
    pass


_TOO_DEEP = object()


def _finite(digits: str) -> float:
    """A typed ``1e999`` would read as infinity: a typo, never what the user meant."""
    value = float(digits)
    if math.isinf(value):
        raise _TooLarge(digits)
    return value


def _int(digits: str) -> int:
    if len(digits) > 40:  # beyond any dtype (uint64 has 20 digits); Python would spend time on 4000 of them
        raise _TooLarge(digits)
    return int(digits)


def _nesting(value: object) -> int:
    """How deeply lists nest in a parsed value (iteratively: any depth costs one pass)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, list):
            deepest = max(deepest, depth + 1)
            stack.extend((x, depth + 1) for x in v)
    return deepest


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a value this field takes")
