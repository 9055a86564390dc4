"""``torch._higher_order_ops.cond``: ``cond(pred, true_fn, false_fn, operands)``, run eagerly (``torch.cond``)."""

from __future__ import annotations

from core._runtime_names import cond

__all__ = ["cond"]
