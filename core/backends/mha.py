"""``torch.backends.mha``: the switch for PyTorch's multi-head-attention fast path (on by default).

core has no fused kernels; the one behaviour the switch decides here is ``TransformerEncoder``'s nested-tensor
path, whose output is zero at padded positions (see ``core.nn.modules.transformer``).
"""

from __future__ import annotations

_enabled = True


def get_fastpath_enabled() -> bool:
    return _enabled


def set_fastpath_enabled(value: bool) -> None:
    global _enabled
    _enabled = bool(value)
