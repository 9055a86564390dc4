"""``torch.ao.nn.quantized.dynamic.modules``."""

from core.ao.nn.quantized.dynamic.modules.linear import Linear
from core.ao.nn.quantized.dynamic.modules.rnn import LSTM

__all__ = ["LSTM", "Linear"]
