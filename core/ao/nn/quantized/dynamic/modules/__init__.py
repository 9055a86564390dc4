"""``torch.ao.nn.quantized.dynamic.modules``."""

from core.ao.nn.quantized.dynamic.modules.linear import Linear
from core.ao.nn.quantized.dynamic.modules.rnn import GRU, LSTM

__all__ = ["GRU", "LSTM", "Linear"]
