"""``torch.ao.nn.quantized.dynamic.LSTM`` and ``GRU`` (``DynamicQuantizedLSTM``/``GRU``): recurrent layers whose
weight matrices per layer and direction are ``qint8`` (quantized as the dynamic Linear's), run as torch's
``quantized_lstm``/``quantized_gru`` with ``use_dynamic=True``.

Per layer and direction: the input's share of the gates is one dynamic quantized linear over the whole sequence
(its activation qparams from all time steps at once, as torch precomputes it), the hidden state's share one per
step (bias included in each); then torch's cell with core's float ops in torch's order (LSTM: ``gates = hh + ih``,
``c' = f * c + i * g``, ``h' = o * tanh(c')``; GRU: ``n = tanh(i_n + h_n * r)``, ``h' = (h - n) * z + n``). The
integer parts equal torch's bit for bit; the gates' ``sigmoid``/``tanh`` are core's, which can differ from torch's
by an ulp on some layouts, so outputs agree to float32 rounding. Training-mode dropout between layers, packed
sequences and unbatched inputs are not here."""

from __future__ import annotations

import numpy as np

import core
from core._backend import to_numpy_array
from core._quantized import per_tensor_symmetric, qint8, quantize_per_tensor
from core._script_object import cell_params, cell_weights
from core.ao.nn.quantized.dynamic.modules.linear import _linear_dynamic, _weight_qparams
from core.nn import Module, ModuleList

__all__ = ["GRU", "LSTM", "PackedParameter", "RNNBase"]


class PackedParameter(Module):
    """One layer and direction's ``(w_ih, b_ih, w_hh, b_hh)``, the weights quantized (``param`` in the state dict)."""

    def __init__(self, param):
        super().__init__()
        self.param = param

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "param"] = self.param

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.param = state_dict.pop(prefix + "param")


def _quantized(weight) -> object:
    w = weight.detach().float()
    return quantize_per_tensor(w, _weight_qparams(to_numpy_array(w._data)), 0, qint8)


class RNNBase(Module):
    """What the dynamic LSTM and GRU share: the packed weights, the layer and direction loop, the repr."""

    mode = ""
    _version = 2  # the state dict's metadata says so, as torch's does

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, dtype=qint8):
        super().__init__()
        self.input_size, self.hidden_size, self.num_layers = input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.dtype, self.version = bidirectional, dtype, 2
        self._all_weight_values = ModuleList()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        for name, default in (("num_layers", 1), ("bias", True), ("batch_first", False), ("dropout", 0),
                              ("bidirectional", False)):
            if getattr(self, name) != default:
                s += f", {name}={getattr(self, name)}"
        return s

    def __repr__(self) -> str:  # (the packed weights are not shown, as torch hides them)
        return f"{self._get_name()}({self.extra_repr()})"

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False, qconfig=None):
        weight = None if qconfig is None else qconfig.weight()
        if weight is not None and weight.qscheme is not per_tensor_symmetric:
            raise NotImplementedError(f"core's {cls.__name__} quantizes its weights per tensor only")
        if not mod.bias:
            raise AssertionError("mod.bias must be True")
        q = cls(mod.input_size, mod.hidden_size, mod.num_layers, mod.bias, mod.batch_first, mod.dropout,
                mod.bidirectional)
        for layer in range(mod.num_layers):
            for suffix in ("", "_reverse")[:2 if mod.bidirectional else 1]:
                names = [f"{kind}_{ih}_l{layer}{suffix}" for ih in ("ih", "hh") for kind in ("weight", "bias")]
                w_ih, b_ih, w_hh, b_hh = (getattr(mod, n) for n in names)
                packed = cell_params(_quantized(w_ih), b_ih, _quantized(w_hh), b_hh)
                q._all_weight_values.append(PackedParameter(packed))
        return q

    def forward(self, input, hx=None):
        if input.dim() != 3:
            raise NotImplementedError(f"core's {self._get_name()} takes batched 3-d inputs only")
        x = to_numpy_array(input.detach().float()._data)
        if self.batch_first:
            x = x.transpose(1, 0, 2)
        dirs = 2 if self.bidirectional else 1
        zeros = np.zeros((self.num_layers * dirs, x.shape[1], self.hidden_size), np.float32)
        if hx is None:
            states = (zeros, zeros) if self.mode == "LSTM" else (zeros,)
        else:
            states = tuple(to_numpy_array(t.detach().float()._data) for t in (hx if self.mode == "LSTM" else (hx,)))
        finals = []
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                out, final = self._direction(x, tuple(s[k] for s in states), self._all_weight_values[k].param, d == 1)
                outs.append(out)
                finals.append(final)
            x = np.concatenate(outs, axis=2) if dirs == 2 else outs[0]
        out = core.tensor(np.ascontiguousarray(x.transpose(1, 0, 2) if self.batch_first else x))
        stacked = tuple(core.tensor(np.stack([f[j] for f in finals])) for j in range(len(states)))
        return out, (stacked if self.mode == "LSTM" else stacked[0])

    def _direction(self, x: np.ndarray, state: tuple, param, reverse: bool):
        w_ih, b_ih, w_hh, b_hh = cell_weights(param)
        steps, batch, _ = x.shape
        gi = _linear_dynamic(x, w_ih, b_ih).reshape(steps, batch, -1)
        state = tuple(core.tensor(s) for s in state)
        outs = [None] * steps
        for t in (reversed(range(steps)) if reverse else range(steps)):
            gh = core.tensor(_linear_dynamic(to_numpy_array(state[0]._data), w_hh, b_hh))
            state = self._cell(core.tensor(gi[t]), gh, state)
            outs[t] = to_numpy_array(state[0]._data)
        return np.stack(outs), tuple(to_numpy_array(s._data) for s in state)


class LSTM(RNNBase):
    """``DynamicQuantizedLSTM``: see the module docstring."""

    mode = "LSTM"

    def _get_name(self) -> str:
        return "DynamicQuantizedLSTM"

    @staticmethod
    def _cell(gi, gh, state):
        gates = gh + gi
        i, f, g, o = gates.chunk(4, 1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        c = (f * state[1]) + (i * g)
        return o * c.tanh(), c


class GRU(RNNBase):
    """``DynamicQuantizedGRU``: as the LSTM, with torch's GRU cell (``n = tanh(i_n + r * h_n)``,
    ``h' = (h - n) * z + n``)."""

    mode = "GRU"

    def _get_name(self) -> str:
        return "DynamicQuantizedGRU"

    @staticmethod
    def _cell(gi, gh, state):
        i_r, i_z, i_n = gi.chunk(3, 1)
        h_r, h_z, h_n = gh.chunk(3, 1)
        r = (h_r + i_r).sigmoid()
        z = (h_z + i_z).sigmoid()
        n = (i_n + h_n * r).tanh()
        return ((state[0] - n) * z + n,)
