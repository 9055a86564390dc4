"""``torch._dynamo``'s names that scripts touch: ``config`` (``suppress_errors``, ``cache_size_limit``...),
``reset()`` and ``OptimizedModule`` (what ``torch.compile`` gives for a module, in ``eval_frame``).

core has no dynamo: ``core.compile`` captures and replays ops (``core.autograd.capture``); the flags are kept
so that ``torch._dynamo.config.suppress_errors = True`` runs as written.
"""

from __future__ import annotations

from core._dynamo import config
from core._dynamo.eval_frame import OptimizedModule

__all__ = ["OptimizedModule", "config", "reset"]


def reset() -> None:
    """PyTorch clears dynamo's caches; core's captures live in each compiled function and need no reset."""
