"""``torch._higher_order_ops.while_loop``: ``while_loop(cond_fn, body_fn, carried_inputs)``, run eagerly."""

from __future__ import annotations

from core._runtime_names import while_loop

__all__ = ["while_loop"]
