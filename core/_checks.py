"""``torch._check`` and its siblings: assertions that raise torch's error types with torch's default message.

``torch.export``'s programming model uses ``torch._check(nz.shape[0] > 0)`` to decide a data-dependent branch;
core traces with the example's real sizes, so the condition is a plain ``bool`` here.
"""

from __future__ import annotations

__all__ = ["_check", "_check_index", "_check_not_implemented", "_check_type", "_check_value", "_check_with"]

_DEFAULT = ("Expected cond to be True, but got False. (Could this error message be improved? If so, please report "
            "an enhancement request to PyTorch.)")


def _check_with(error_type, cond, message) -> None:
    """Raises ``error_type(message())`` (torch's default text when ``message`` is None) unless ``cond`` is True."""
    if not isinstance(cond, bool):
        from core._tensor import Tensor

        if isinstance(cond, Tensor):
            raise TypeError("cond must be a bool, but got a Tensor. For tensor conditions, use "
                            "torch._check_tensor_all() to assert that all elements are true.")
        raise TypeError(f"cond must be a bool, but got {type(cond)}")
    if cond:
        return
    if not issubclass(error_type, Exception) or issubclass(error_type, Warning):
        raise AssertionError(f"error_type must be a subclass of Exception but not Warning, got {error_type}")
    if message is not None and not callable(message):
        raise TypeError("message must be a callable")
    raise error_type(_DEFAULT if message is None else str(message()))


def _check(cond, message=None) -> None:
    _check_with(RuntimeError, cond, message)


def _check_index(cond, message=None) -> None:
    _check_with(IndexError, cond, message)


def _check_value(cond, message=None) -> None:
    _check_with(ValueError, cond, message)


def _check_type(cond, message=None) -> None:
    _check_with(TypeError, cond, message)


def _check_not_implemented(cond, message=None) -> None:
    _check_with(NotImplementedError, cond, message)
