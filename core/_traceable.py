"""``torch._assert``: an ``assert`` that symbolic tracing records instead of evaluating.

Python's ``assert cond, msg`` needs a real bool, which a traced value (a ``core.fx`` Proxy) cannot give; model code
(torchvision's among it) writes ``torch._assert(cond, msg)`` instead, which hands a value that overrides
``__torch_function__`` to it (so the trace gets a ``call_function`` node) and otherwise raises ``AssertionError``.
"""

from __future__ import annotations

__all__ = ["_assert"]


def _assert(condition, message):
    r"""A wrapper around Python's assert which is symbolically traceable."""
    from core._tensor import Tensor
    from core.overrides import handle_torch_function, has_torch_function

    if type(condition) is not Tensor and has_torch_function((condition,)):
        return handle_torch_function(_assert, (condition,), condition, message)
    if not condition:
        raise AssertionError(message)
    return None


_assert.__module__ = "core"  # torch._assert, as tracing prints it
