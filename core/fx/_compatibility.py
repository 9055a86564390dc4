"""``torch.fx._compatibility.compatibility``: the decorator PyTorch (and libraries extending torch.fx, Hugging
Face's ``HFTracer``) put on FX APIs to say whether they are backward compatible; it appends that note to the
object's docstring and records it, returning the object itself."""

from __future__ import annotations

import textwrap

__all__ = ["compatibility"]

_BACK_COMPAT_OBJECTS: dict = {}
_MARKED_WITH_COMPATIBILITY: dict = {}

_BACK_COMPAT_NOTE = "\n\n.. note::\n    Backwards-compatibility for this API is guaranteed.\n"
_EXPERIMENTAL_NOTE = "\n\n.. warning::\n    This API is experimental and is *NOT* backward-compatible.\n"


def compatibility(is_backward_compatible: bool):
    def mark(fn):
        fn.__doc__ = textwrap.dedent(getattr(fn, "__doc__", None) or "") + (
            _BACK_COMPAT_NOTE if is_backward_compatible else _EXPERIMENTAL_NOTE)
        if is_backward_compatible:
            _BACK_COMPAT_OBJECTS.setdefault(fn)
        _MARKED_WITH_COMPATIBILITY.setdefault(fn)
        return fn

    return mark
