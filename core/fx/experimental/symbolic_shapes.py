"""``torch.fx.experimental.symbolic_shapes``: the error ``torch.export`` raises when a traced program branches on
a tensor's value (core's export records no symbols, so only the error's type and message are here)."""

from __future__ import annotations

__all__ = ["GuardOnDataDependentSymNode"]


class GuardOnDataDependentSymNode(RuntimeError):
    """A traced program asked for the value of a tensor (``if x.sum() > 0``, ``int(t)``): export cannot know it."""

    def __init__(self, message: str, cond=None):
        super().__init__(message)
        self.cond = cond
