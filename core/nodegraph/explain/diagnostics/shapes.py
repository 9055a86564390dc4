"""Shape, layout and type rules: silent broadcast, ``view`` on a non-contiguous tensor, dtype/device mismatch."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

import numpy as np

import core
from core.nodegraph.explain.diagnostics._base import Hint, RuleContext, rule

BROADCAST_KINDS = ("math", "compare", "loss")
_VIEW_ERROR = "view size is not compatible"
_DTYPE_ERROR = re.compile(r"dtype|scalar type|found (Double|Float|Half|Long|Int)|can't be cast|result type", re.I)
_DEVICE_ERROR = re.compile(r"same device|on device|different devices", re.I)


def _shape(t: core.Tensor) -> tuple[int, ...]:
    return tuple(t.shape)


def _column_vs_vector(shapes: list[tuple[int, ...]]) -> bool:
    """The chapter's trap: a shape and the same shape with a trailing 1, e.g. (32, 1) and (32,).

    Other double expansions (an outer product written as ``a[:, None] * b``) are often meant: only info.
    """
    return any(s + (1,) == t or t + (1,) == s for s in shapes for t in shapes)


def _feeds_loss(ctx: RuleContext, nid: str) -> bool:
    loss = ctx.loss_id()
    return loss is not None and (loss == nid or loss in ctx.graph.descendants(nid))


@rule("silent_broadcast")
def silent_broadcast(ctx: RuleContext) -> Iterator[Hint]:
    """Two inputs whose shapes differ and BOTH get expanded: (32, 1) with (32,) gives (32, 32)."""
    for nid in ctx.order:
        if ctx.type_of(nid).split(".")[0] not in BROADCAST_KINDS:
            continue
        shapes = {p: _shape(t) for p, t in ctx.inputs(nid).items() if isinstance(t, core.Tensor)}
        if len(set(shapes.values())) < 2:
            continue
        try:
            out = tuple(np.broadcast_shapes(*shapes.values()))
        except ValueError:
            continue
        if all(math.prod(out) > math.prod(s) for s in shapes.values()):
            into = " into the loss" if _feeds_loss(ctx, nid) else ""
            desc = " and ".join(f"{p} {s}" for p, s in shapes.items())
            classic = ctx.type_of(nid).startswith("loss.") or _column_vs_vector(list(shapes.values()))
            yield Hint(nid, "silent_broadcast", "warning" if classic else "info",
                       f"{desc} broadcast to {out}{into}: every element is paired with every other",
                       "make the shapes equal first, e.g. squeeze(-1) the (N, 1) side or unsqueeze(-1) the (N,) side")


@rule("view_non_contiguous")
def view_non_contiguous(ctx: RuleContext) -> Iterator[Hint]:
    """``view`` needs compatible strides; a transposed or sliced input is where it breaks."""
    for nid in ctx.order:
        err = ctx.error(nid)
        if err is not None and _VIEW_ERROR in err.message:
            yield Hint(nid, "view_non_contiguous", "error",
                       "view can't reinterpret this tensor: its memory is not laid out contiguously "
                       "(e.g. after transpose or permute)",
                       "use reshape(...) (copies when needed), or call .contiguous() before view")
        elif ctx.type_of(nid) == "shape.view" and err is None:
            x = ctx.inputs(nid).get("x")
            if isinstance(x, core.Tensor) and not x.is_contiguous():
                yield Hint(nid, "view_non_contiguous", "info",
                           f"view of a non-contiguous tensor (strides {x.stride()}): it works here, but a "
                           "different size would fail", "prefer reshape(...), or .contiguous() before view")


def _floating_dtypes(inputs: dict[str, Any]) -> dict[str, core.dtype]:
    return {p: t.dtype for p, t in inputs.items() if isinstance(t, core.Tensor) and t.is_floating_point()}


@rule("dtype_mismatch")
def dtype_mismatch(ctx: RuleContext) -> Iterator[Hint]:
    """An op refused mixed dtypes, or silently promoted float32 work to float64."""
    for nid in ctx.order:
        err = ctx.error(nid)
        if (err is not None and err.type != "ParamError" and _DTYPE_ERROR.search(err.message)
                and not _DEVICE_ERROR.search(err.message)):
            yield Hint(nid, "dtype_mismatch", "error", f"dtype mismatch: {err.message}",
                       "cast one side so both match, e.g. .to(torch.float32) or .float() (targets of "
                       "cross_entropy are .long())")
            continue
        dtypes = _floating_dtypes(ctx.inputs(nid))
        if err is None and len(set(dtypes.values())) > 1:
            names = ", ".join(f"{p} {str(d).split('.')[-1]}" for p, d in dtypes.items())
            yield Hint(nid, "dtype_mismatch", "info", f"mixed floating dtypes ({names}): the result is promoted",
                       "make the inputs one dtype (float64 work is slower and uses twice the memory)")


@rule("device_mismatch")
def device_mismatch(ctx: RuleContext) -> Iterator[Hint]:
    """Tensors on different devices in one op."""
    for nid in ctx.order:
        err = ctx.error(nid)
        if err is not None and _DEVICE_ERROR.search(err.message):
            yield Hint(nid, "device_mismatch", "error", f"device mismatch: {err.message}",
                       "move every input to one device with .to(device) (the session's device setting)")
            continue
        devices = {str(t.device) for t in ctx.inputs(nid).values() if isinstance(t, core.Tensor) and t.numel() > 1}
        if err is None and len(devices) > 1:
            yield Hint(nid, "device_mismatch", "warning", f"inputs on several devices: {sorted(devices)}",
                       "move every input to one device with .to(device)")
