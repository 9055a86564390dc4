"""Turning a session's values into short text for the canvas, the inspector and the status bar.

Display only: the numbers come from the session (``core`` tensors); a tensor's numbers are written as PyTorch
prints them (``core.nodegraph.model.numtext.printed``: ``[2., 3.]``, ``[ 1.5000, -0.5000]``, ``1.6000``), as the
chapter's ``print(w.grad)`` shows them; a loss or an accuracy the same way wherever the app shows it (``scalar``:
``0.0263``, as ``print(loss)`` writes it); parameter values as typed (``[2.0, 3.0]``); statistics as ``.4g`` numbers.
"""

from __future__ import annotations

import re
from typing import Any

from core.nodegraph.model import numtext
from core.nodegraph.model.numtext import magnitudes, printed, tensor_values

__all__ = ["sentence", "number", "compact", "scalar", "param_text", "short", "badge", "shape_text", "full_text",
           "grad_note", "heat_rows"]

_LEADING_WORD = re.compile(r"[a-z]{2,}(?:['’][a-z]+)?(?=[ :,])|a(?= )")  # an English word, not an identifier

SHORT_NUMEL = 6
FULL_NUMEL = 400


def sentence(message: str) -> str:
    """A message for the status bar, a dialog or a refusal note, read as a sentence: a leading lowercase word gets
    its capital ("can't open a.json: ..." -> "Can't open ..."). Errors from ``core`` are lowercase, as Python's
    and PyTorch's are; one that starts with a name (``x``, ``edges[0]:``, ``model.weight``) is left as it is."""
    return message[0].upper() + message[1:] if _LEADING_WORD.match(message) else message


def number(v: object) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, float):
        return format(v, ".4g")
    return str(v)


def compact(v: object) -> str:
    """A number in a node's value line, whose room is a 190 px node: as ``number`` writes it (``4.747``, ``True``),
    but a float that needs an exponent keeps it with two digits (``1.3e-10``, not ``1.344e-10`` cut to ``1.34…``:
    the exponent is the news in a gradient check's ``max_error``)."""
    if isinstance(v, float) and v == v and v not in (0.0, float("inf"), float("-inf")) \
            and not 1e-4 <= abs(v) < 1e4:  # where ".4g" turns to an exponent
        return format(v, ".2g")
    return number(v)


def scalar(v: float) -> str:
    """A number the session measured as a 0-d tensor (a loss, an accuracy) written as ``print`` writes that tensor
    in PyTorch (``0.0263``, ``1.2346e-05``, ``nan``): the text the canvas shows on the loss node for it."""
    return numtext.scalar(v)


def param_text(v: object, limit: int = 40) -> str:
    """A parameter's value as the Inspector's field writes it (``[2.0, 3.0]``, ``0.1``), cut to ``limit`` chars; a
    large tensor literal (held as an array) as its shape, ``(300, 400) values``: ``numtext.param_text``, as the
    names of parameter edits write it ("w: dtype set to float64")."""
    return numtext.param_text(v, limit)


def _nested(v: object) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_nested(x) for x in v) + "]"
    return number(v)


def _is_tensor(t: object) -> bool:
    return hasattr(t, "shape") and hasattr(t, "tolist")


def shape_text(shape: Any) -> str:
    """A shape as PyTorch's tuple writes it (``(32, 10)``, ``(2,)``), a 0-d tensor's as ``() scalar``: a bare
    ``()`` on an edge read as nothing to a newcomer."""
    dims = tuple(shape)
    if not dims:
        return "() scalar"
    return "(" + ", ".join(map(str, dims)) + (",)" if len(dims) == 1 else ")")


def badge(t: Any) -> str:
    """``(32, 10) float32 cpu``: shape, dtype and device of a tensor (``() scalar float32 cpu`` for a 0-d one)."""
    return f"{shape_text(t.shape)} {str(t.dtype).split('.')[-1]} {t.device}"


def short(t: Any) -> str:
    """A scalar or short vector as numbers, anything bigger as its badge; '' for None."""
    if t is None:
        return ""
    if isinstance(t, list):
        return _nested(t)
    if not _is_tensor(t):
        return number(t) if isinstance(t, (int, float, bool)) else type(t).__name__
    if t.numel() <= SHORT_NUMEL and len(t.shape) <= 1:
        return printed(t)
    return badge(t)


def short_array(a: Any) -> str:
    """Like ``short`` for a NumPy/CuPy array (the ledger's copies): numbers when short, else its shape."""
    if a.ndim <= 1 and a.size <= SHORT_NUMEL:
        return printed(a)
    return "(" + ", ".join(map(str, a.shape)) + (",)" if a.ndim == 1 else ")") + " array"


def full_text(t: Any) -> str:
    """Every number of a small tensor (nested lists); a badge for a big one."""
    if t is None:
        return "—"
    if not _is_tensor(t):
        return short(t)
    if t.numel() <= FULL_NUMEL:
        return printed(t)
    return badge(t)


def grad_note(calls: int) -> str:
    """What a ``.grad`` summed over several backward calls says under its numbers: ``sum of 2 backward calls``
    (the lessons' and the diagnostic's words); '' for one call. Its own line, never ``grad ×2 2.``, which reads
    as a multiplication."""
    return f"sum of {calls} backward calls" if calls > 1 else ""


def heat_rows(t: Any, limit: int = 16) -> list:
    """A 2-D tensor's values scaled to [0, 1] (NaN kept), subsampled to at most ``limit`` x ``limit``."""
    import numpy as np

    if not _is_tensor(t) or len(t.shape) != 2 or t.numel() == 0:
        return []
    a = np.asarray(magnitudes(tensor_values(t)), dtype=np.float64)
    a = a[:: max(1, -(-a.shape[0] // limit)), :: max(1, -(-a.shape[1] // limit))]
    finite = a[np.isfinite(a)]
    lo, hi = (finite.min(), finite.max()) if finite.size else (0.0, 1.0)
    with np.errstate(invalid="ignore"):
        scaled = (a - lo) / (hi - lo) if hi > lo else np.where(np.isnan(a), np.nan, 0.5)
    return np.clip(scaled, 0.0, 1.0).tolist()
