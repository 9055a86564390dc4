"""``nn.MultiLabelMarginLoss``: the module form of ``F.multilabel_margin_loss``, as PyTorch's."""

from __future__ import annotations

from core.nn.functional.multilabel import multilabel_margin_loss
from core.nn.modules.loss import _Loss

__all__ = ["MultiLabelMarginLoss"]


class MultiLabelMarginLoss(_Loss):
    __constants__ = ["reduction"]

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)

    def forward(self, input, target):
        return multilabel_margin_loss(input, target, reduction=self.reduction)
