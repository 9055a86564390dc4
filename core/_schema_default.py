"""A schema argument's default value as PyTorch prints it (c10's ``operator<<`` for an ``IValue``).

One printer for every schema core prints: ``torch.library``'s operators (``core._library.schema``) and a
TorchScript function's declaration (``core._jit_function``). A float that an int64 holds exactly prints as that
integer and a dot (``1.``, ``10000000000000000.``; ``-0.0`` as ``0.``: the integer has no sign), any other float
with 17 significant digits (``0.10000000000000001``, ``1e+20``, ``inf``, ``nan``).
"""

from __future__ import annotations

import math

__all__ = ["default_text"]

_INT64 = 2.0 ** 63


def _float_text(value: float) -> str:
    if math.isfinite(value) and value.is_integer() and -_INT64 <= value < _INT64:
        return f"{int(value)}."
    if math.isnan(value):  # (C++ streams print a NaN's sign)
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:.17g}"  # std::setprecision(max_digits10) in the stream's default notation


def default_text(value) -> str:
    """``value`` as a schema prints it after ``=``: ``True``, ``None``, ``"mean"``, ``[1, 2]``, ``0.5``, ``1.``."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(default_text(v) for v in value) + "]"
    return str(value)
