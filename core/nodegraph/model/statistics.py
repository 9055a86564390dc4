"""Summary statistics of a value or gradient, as the Inspector shows them, computed with ``core`` ops.

``tensor_stats(t)`` gives the element count, the NaN count and, over the elements that are not NaN, min,
max, mean, std (unbiased, as ``Tensor.std``; 0 for one element) and the 2-norm. It works in float64 on
the tensor's own device, without recording autograd history, so it never changes what the session
computed. Anything that is not a tensor, or an empty tensor, has no statistics (None).
"""

from __future__ import annotations

from dataclasses import dataclass

import core

__all__ = ["TensorStats", "tensor_stats"]


@dataclass(frozen=True)
class TensorStats:
    """What ``tensor_stats`` found; ``min`` ... ``norm`` are None when every element is NaN."""

    numel: int
    nan: int
    min: float | None = None
    max: float | None = None
    mean: float | None = None
    std: float | None = None
    norm: float | None = None


def tensor_stats(t: object) -> TensorStats | None:
    """Statistics of ``t`` over its non-NaN elements (see the module docstring); None for a non-tensor or empty one."""
    if not isinstance(t, core.Tensor) or t.numel() == 0:
        return None
    with core.no_grad():
        x = t.detach()
        x = (x.abs() if x.is_complex() else x).to(core.float64).reshape(-1)
        nan = core.isnan(x)
        stats = TensorStats(numel=int(x.numel()), nan=int(nan.sum().item()))
        finite = x[~nan] if stats.nan else x  # the same elements in the same order: no copy (0.6 s of 25M elements)
        if finite.numel() == 0:
            return stats
        std = finite.std().item() if finite.numel() > 1 else 0.0
        return TensorStats(stats.numel, stats.nan, min=finite.min().item(), max=finite.max().item(),
                           mean=finite.mean().item(), std=std, norm=core.linalg.vector_norm(finite).item())
