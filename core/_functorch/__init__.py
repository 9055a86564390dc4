"""``torch._functorch``: only its ``config`` module, whose flags scripts set (``enable_autograd_cache``); core's
function transforms live in ``core.func``."""

from __future__ import annotations

from core._functorch import config

__all__ = ["config"]
