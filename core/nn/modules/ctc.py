"""``CTCLoss``: the connectionist temporal classification loss as a module (``F.ctc_loss``)."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.module import Module

__all__ = ["CTCLoss"]


class CTCLoss(Module):
    __constants__ = ["blank", "reduction"]

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False):
        super().__init__()
        self.blank, self.reduction, self.zero_infinity = blank, reduction, zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)
