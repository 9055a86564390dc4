"""``torch.fx.passes``: graph passes (only ``shape_prop`` so far)."""

from core.fx.passes import shape_prop

__all__ = ["shape_prop"]
