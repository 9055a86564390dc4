"""How a MaskedTensor prints: torch's ``MaskedTensor(...)`` layout, with ``--`` for each masked-out element."""

from __future__ import annotations

import core

__all__ = ["masked_repr"]


def masked_repr(data, mask) -> str:
    """``MaskedTensor(...)`` as torch prints it: kept values as ``{:8.4f}`` (floats) or ``str``, ``--`` for the rest."""
    data = data.to_dense() if data.layout == core.sparse_coo else data
    mask = mask.to_dense() if mask.layout == core.sparse_coo else mask
    if data.dim() == 0:
        shown = _format_element(data.item()) if mask.item() else "--"
        return f"MaskedTensor({shown}, {mask.item()})"
    body = _masked_str(data, mask)
    return "MaskedTensor(\n" + "\n".join("  " + line for line in body.split("\n")) + "\n)"


def _format_element(value) -> str:
    return f"{value:8.4f}" if isinstance(value, float) else str(value)


def _masked_str(data, mask) -> str:
    """torch's layout: a 1-d row is ``[e, e, --]`` (``--`` right-aligned to 8), higher dims nest with 2 spaces."""
    if data.dim() == 1:
        shown = [_format_element(v) for v in data.tolist()]
        keep = mask.tolist()
        width = max(len(s) if k else 8 for s, k in zip(shown, keep))
        return "[" + ", ".join(s if k else "--".rjust(width) for s, k in zip(shown, keep)) + "]"
    rows = [_masked_str(d, m) for d, m in zip(data, mask)]
    return "[\n" + ",\n".join("\n".join("  " + line for line in row.split("\n")) for row in rows) + "\n]"
