"""``torch.ao.nn.quantized.dynamic``: modules with int8 weights whose activations are quantized per call."""

from core.ao.nn.quantized.dynamic.modules.linear import Linear
from core.ao.nn.quantized.dynamic.modules.rnn import GRU, LSTM

__all__ = ["GRU", "LSTM", "Linear"]
