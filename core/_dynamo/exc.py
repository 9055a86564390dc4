"""``torch._dynamo.exc``: the exception dynamo raises for code it cannot trace (libraries catch it by name)."""

from __future__ import annotations

__all__ = ["TorchDynamoException", "Unsupported"]


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    """Dynamo met something it cannot trace; core never raises it (it has no tracer), scripts name it in except."""
