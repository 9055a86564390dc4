"""``gradcheck``/``gradgradcheck``: analytical Jacobians against finite differences (placeholder)."""

from __future__ import annotations

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    pass


def gradcheck(*args, **kwargs):
    raise NotImplementedError


def gradgradcheck(*args, **kwargs):
    raise NotImplementedError
