"""``torch.Tag``: the tags an operator carries (``torch.Tag.inplace``, ``torch.Tag.out``...), with torch's values.

A custom op tagged ``inplace`` mutates its first Tensor argument and returns it; one tagged ``out`` writes its
keyword-only Tensor arguments and returns them (``custom_op(..., tags=...)``, PyTorch 2.13).
"""

from __future__ import annotations

import enum

__all__ = ["Tag"]


class Tag(enum.Enum):
    """An operator tag (``<Tag.inplace: 6>``)."""

    __module__ = "core"  # torch.Tag, as torch.typename names it

    core = 0
    cudagraph_unsafe = 1
    data_dependent_output = 2
    dynamic_output_shape = 3
    flexible_layout = 4
    generated = 5
    inplace = 6
    inplace_view = 7
    maybe_aliasing_or_mutating = 8
    needs_contiguous_strides = 9
    needs_exact_strides = 10
    needs_fixed_stride_order = 11
    nondeterministic_bitwise = 12
    nondeterministic_seeded = 13
    out = 14
    out_variant = 15
    pointwise = 16
    pt2_compliant_tag = 17
    reduction = 18
    view_copy = 19


def as_tuple(tags) -> tuple:
    """``custom_op``'s ``tags``: None, one tag or a sequence of them."""
    if tags is None:
        return ()
    return (tags,) if isinstance(tags, Tag) else tuple(tags)
