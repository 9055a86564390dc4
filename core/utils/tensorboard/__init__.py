"""``torch.utils.tensorboard``: a ``SummaryWriter`` that keeps what is logged in memory (see ``writer``).

PyTorch's module needs the separate ``tensorboard`` package and writes event files; core needs neither.
"""

from core.utils.tensorboard.writer import SummaryWriter

__all__ = ["SummaryWriter"]
