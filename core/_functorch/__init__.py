"""``torch._functorch``: its ``config`` module, whose flags scripts set (``enable_autograd_cache``), and what the
legacy ``functorch`` package imports (``deprecated``, ``make_functional``, ``python_key``); core's function
transforms live in ``core.func``."""

from __future__ import annotations

from core._functorch import config

__all__ = ["config"]
