"""``torch._higher_order_ops``: the control flow operators (``cond``, ``while_loop``, ``map``, ``scan``,
``associative_scan``, run eagerly), and ``foreach_map``, which applies a function across lists of tensors (the
foreach_map recipe builds fused optimizer steps with it). PyTorch compiles it into one kernel under
``torch.compile``; run eagerly it is a loop over the lists, which is what core does."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

__all__ = ["foreach_map", "cond", "while_loop", "map", "scan", "associative_scan"]


def foreach_map(op: Callable, *operands: Any, **kwargs: dict[str, Any]):
    """Apply ``op`` to the i-th items of the list (or tuple) operands, a non-list operand repeated for every i;
    return the list of results (as many as the shortest list). Without any list operand, ``op(*operands)``.

    NOTE: PyTorch 2.13 drops ``kwargs`` on its eager path (``foreach_map(torch.add, a, b, alpha=2)`` adds with
    alpha 1); core does the same so a script gives the same numbers."""
    del kwargs
    if not any(isinstance(operand, (list, tuple)) for operand in operands):
        return op(*operands)
    columns = [operand if isinstance(operand, (list, tuple)) else itertools.repeat(operand) for operand in operands]
    return [op(*items) for items in zip(*columns)]


# the control flow operators, each in its module as PyTorch's (the package names the function, as PyTorch's does)
from core._higher_order_ops.associative_scan import associative_scan  # noqa: E402
from core._higher_order_ops.cond import cond  # noqa: E402
from core._higher_order_ops.map import map  # noqa: E402
from core._higher_order_ops.scan import scan  # noqa: E402
from core._higher_order_ops.while_loop import while_loop  # noqa: E402
