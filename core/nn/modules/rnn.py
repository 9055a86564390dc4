"""Recurrent layers ``RNN``, ``LSTM``, ``GRU`` and their one-step cells, with PyTorch's parameters and semantics.

Parameter names, shapes, registration order and initialisation are PyTorch's (``weight_ih_l0``,
``weight_hh_l0``, ``bias_ih_l0``, ``bias_hh_l0``, ``weight_hr_l0`` for projections, ``_reverse`` for
the backward direction; every parameter drawn from U(-1/sqrt(hidden), 1/sqrt(hidden)) in
registration order), so a PyTorch state dict loads as is. The recurrences are composed from core
ops (``linear``, ``sigmoid``, ``tanh``, slicing, ``cat``), so autograd differentiates them like any
other graph (the steps and the layer loop: ``_rnn_layers``). Inputs are run in packed form: padded input is
a packed sequence whose batch never shrinks, and a ``PackedSequence`` drops finished sequences from the batch
step by step.
"""

from __future__ import annotations

import math
import numbers
import warnings
import weakref

import core
from core._user_warning import warn_in_core
from core._warn_once import warn_once
from core.nn import functional as F
from core.nn import init
from core.nn.module import Module
from core.nn.modules import _fused_rnn, _rnn_output
from core.nn.modules._rnn_layers import _STEPS, _run, _Stack, _Weights
from core.nn.modules.linear import empty_param
from core.nn.utils.rnn import PackedSequence
from core.ops.rnn_forms import rnn_relu, rnn_tanh

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}
_rnn_impls = {"RNN_TANH": rnn_tanh, "RNN_RELU": rnn_relu}  # (torch's name: copies of RNN.forward look it up)


def _apply_permutation(tensor, permutation, dim: int = 1):
    """``tensor`` with ``dim`` in ``permutation``'s order (torch's helper for a packed sequence's hidden state)."""
    return tensor.index_select(dim, permutation)


def apply_permutation(tensor, permutation, dim: int = 1):
    warnings.warn("`apply_permutation` is deprecated, please use `tensor.index_select(dim, permutation)` instead",
                  FutureWarning, stacklevel=2)
    return _apply_permutation(tensor, permutation, dim)




def _check_config(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size) -> None:
    if not isinstance(dropout, numbers.Number) or isinstance(dropout, bool) or not 0 <= dropout <= 1:
        raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                         "being zeroed")
    if dropout > 0 and num_layers == 1:
        warn_in_core("dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                     f"num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}")
    for name, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                              ("input_size", input_size, int), ("hidden_size", hidden_size, int)):
        if not isinstance(value, kind):
            raise TypeError(f"{name} should be of type {kind.__name__}, got: {type(value).__name__}")
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size), ("num_layers", num_layers)):
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
    if proj_size < 0:
        raise ValueError("proj_size should be a positive integer or zero to disable projections")
    if proj_size >= hidden_size:
        raise ValueError("proj_size has to be smaller than hidden_size")


def _register_weights(module, device, dtype) -> None:
    """The parameters in PyTorch's order and names; ``_all_weights`` groups their names by layer and direction."""
    directions = 2 if module.bidirectional else 1
    gate_size = _GATES[module.mode] * module.hidden_size
    out_size = module.proj_size or module.hidden_size
    for layer in range(module.num_layers):
        for direction in range(directions):
            in_size = module.input_size if layer == 0 else out_size * directions
            shapes = {"weight_ih": (gate_size, in_size), "weight_hh": (gate_size, out_size)}
            if module.bias:
                shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
            if module.proj_size > 0:
                shapes["weight_hr"] = (module.proj_size, module.hidden_size)
            suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
            names = [kind + suffix for kind in shapes]
            for name, shape in zip(names, shapes.values()):
                setattr(module, name, empty_param(*shape, device=device, dtype=dtype))
            module._flat_weights_names.extend(names)
            module._all_weights.append(names)


def _zero_state(module, batch: int, like):
    """The zero initial state in the module's form (a tensor, or ``(h, c)`` for an LSTM)."""
    layers = module.num_layers * (2 if module.bidirectional else 1)
    h = core.zeros(layers, batch, module.proj_size or module.hidden_size, dtype=like.dtype, device=like.device)
    if module.mode != "LSTM":
        return h
    return h, core.zeros(layers, batch, module.hidden_size, dtype=like.dtype, device=like.device)


def _check_dims(module, input, hx) -> bool:
    """Raise PyTorch's errors for input and state ranks; True when the input has a batch dimension."""
    name = "RNN" if module.mode.startswith("RNN") else module.mode
    if input.dim() not in (2, 3):
        tail = " tensor" if name == "RNN" else ""
        raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tail} instead")
    batched = input.dim() == 3
    want, kind = (3, "batched 3-D") if batched else (2, "unbatched 2-D")
    if hx is not None and module.mode == "LSTM" and (hx[0].dim() != want or hx[1].dim() != want):
        raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got "
                           f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
    if hx is not None and module.mode != "LSTM" and hx.dim() != want:
        raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got {hx.dim()}-D tensor")
    return batched


def _layer_weights(module, names: list) -> _Weights:
    params = {name.split("_l")[0]: getattr(module, name) for name in names}
    return _Weights(params["weight_ih"], params["weight_hh"], params.get("bias_ih"), params.get("bias_hh"),
                    params.get("weight_hr"))




def _module_stack(module) -> _Stack:
    return _Stack(module.mode, module.num_layers, module.bidirectional,
                  [_layer_weights(module, names) for names in module._all_weights], module.dropout, module.training)




def _warn_at_forward(message: str) -> None:
    """A warning named at ``_run_padded``'s line, as PyTorch's names its module's forward (through ``warn_once``)."""
    warnings.warn(message, UserWarning, stacklevel=3)


def _run_padded(stack: _Stack, input, batch_first: bool, state: tuple, warn=_warn_at_forward) -> tuple:
    """A padded 3-D batch through ``_run``: the output (batch first where asked, as PyTorch's view) and the final
    states. ``warn`` reports PyTorch's one-time note on a projected LSTM (``warn_user`` from ``torch.lstm``)."""
    if stack.weights[0].hr is not None and _rnn_output.uses_onednn(stack.mode, 0, input) and input.numel():
        warn_once("lstm_projection_onednn", "LSTM with projections is not supported with oneDNN. Using default "
                  "implementation.", warn)
    batch_dim = 0 if batch_first else 1
    batch, steps = input.size(batch_dim), input.size(1 - batch_dim)
    time_major = input.transpose(0, 1) if batch_first else input
    if not _fused_rnn.steps_wanted():  # the rows as one contiguous matrix: the projection rounds as torch's
        time_major = time_major.reshape(steps * batch, input.size(-1))
    out, state = _run(stack, time_major, [batch] * steps, state, padded=True)
    return (_rnn_output.to_batch_first(out, stack.mode) if batch_first else out), state


def _as_state(module, hx) -> tuple:
    return tuple(hx) if module.mode == "LSTM" else (hx,)


def _check_packed_lstm(module, data, hx, batch_sizes) -> None:
    """PyTorch's packed LSTM checks in C++ (an overriding ``check_forward_args`` is not called): the same words."""
    RNNBase.check_input(module, data, batch_sizes)
    RNNBase.check_hidden_size(module, hx[0], RNNBase.get_expected_hidden_size(module, data, batch_sizes),
                              "Expected hidden[0] size {}, got {}")
    RNNBase.check_hidden_size(module, hx[1], LSTM.get_expected_cell_size(module, data, batch_sizes),
                              "Expected hidden[1] size {}, got {}")


def _forward_packed(module, input: PackedSequence, hx):
    """A packed sequence's forward, calling ``permute_hidden`` and ``check_forward_args`` where PyTorch does."""
    data, batch_sizes, sorted_indices, unsorted_indices = input
    sizes = batch_sizes.tolist()
    if hx is None:
        hx = _zero_state(module, sizes[0] if sizes else 0, data)
    else:
        hx = module.permute_hidden(hx, sorted_indices)
    if sizes and module.mode == "LSTM":
        _check_packed_lstm(module, data, hx, batch_sizes)
    elif sizes:
        module.check_forward_args(data, hx, batch_sizes)
    out, state = _run(_module_stack(module), data, sizes, _as_state(module, hx))
    final = state if module.mode == "LSTM" else state[0]
    return PackedSequence(out, batch_sizes, sorted_indices, unsorted_indices), module.permute_hidden(final,
                                                                                                      unsorted_indices)


def _forward_padded(module, input, hx):
    """A padded batch's forward, calling ``permute_hidden`` and ``check_forward_args`` where PyTorch does."""
    batched = _check_dims(module, input, hx)
    batch_dim = 0 if module.batch_first else 1
    if not batched:
        input = input.unsqueeze(batch_dim)
        if hx is not None:
            hx = tuple(h.unsqueeze(1) for h in hx) if module.mode == "LSTM" else hx.unsqueeze(1)
    batch = input.size(batch_dim)
    if hx is None:
        hx = _zero_state(module, batch, input)
        module.check_forward_args(input, hx, None)
    elif module.mode == "LSTM":
        module.check_forward_args(input, hx, None)
        hx = module.permute_hidden(hx, None)
    else:
        hx = module.permute_hidden(hx, None)
        module.check_forward_args(input, hx, None)
    out, state = _run_padded(_module_stack(module), input, module.batch_first, _as_state(module, hx))
    if not batched:
        out, state = out.squeeze(batch_dim), tuple(s.squeeze(1) for s in state)
    return out, module.permute_hidden(state if module.mode == "LSTM" else state[0], None)


class RNNBase(Module):
    """What ``RNN``, ``LSTM`` and ``GRU`` share: parameters, PyTorch's checks (``check_forward_args`` and the
    methods it calls, which a subclass may override as in PyTorch), and the layer/direction loop.

    ``_flat_weights`` lists the parameters in ``_flat_weights_names``' order, kept current as PyTorch keeps it:
    assigning one of them, ``_apply`` (``.to()``, ``.double()``) and unpickling refresh it."""

    __constants__ = [
        "mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout", "bidirectional",
        "proj_size"]
    __jit_unused_properties__ = ["all_weights"]

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None):
        super().__init__()
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        _check_config(input_size, hidden_size, num_layers, bias, batch_first, dropout, proj_size)
        self.mode, self.input_size, self.hidden_size, self.num_layers = mode, input_size, hidden_size, num_layers
        self.bias, self.batch_first, self.dropout = bias, batch_first, float(dropout)
        self.bidirectional, self.proj_size = bidirectional, proj_size
        self._flat_weights_names, self._all_weights = [], []
        _register_weights(self, device, dtype)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self) -> None:
        self._flat_weights = [getattr(self, name, None) for name in self._flat_weights_names]
        self._flat_weight_refs = [None if w is None else weakref.ref(w) for w in self._flat_weights]
        self.flatten_parameters()

    def __setattr__(self, attr, value) -> None:
        names = self.__dict__.get("_flat_weights_names")
        if names is not None and attr in names and "_flat_weights" in self.__dict__:
            self._flat_weights[names.index(attr)] = value  # (kept current, as PyTorch's __setattr__ keeps it)
        super().__setattr__(attr, value)

    def _weights_have_changed(self) -> bool:
        """Whether a parameter was replaced since ``_flat_weights`` was made (``functional_call`` does it)."""
        for ref, name in zip(self._flat_weight_refs, self._flat_weights_names):
            weight = getattr(self, name, None)
            if weight is not None and ref is not None and ref() is not weight:
                return True
        return False

    def _update_flat_weights(self) -> None:
        if self._weights_have_changed():
            self._init_flat_weights()

    def __getstate__(self):
        self._update_flat_weights()
        state = super().__getstate__()
        state.pop("_flat_weight_refs", None)  # (weak references do not pickle)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        if "proj_size" not in state:
            self.proj_size = 0
        if "_flat_weights" not in state:
            self._flat_weights = [getattr(self, name, None) for name in self._flat_weights_names]
        self._flat_weight_refs = [None if w is None else weakref.ref(w) for w in self._flat_weights]

    def _apply(self, fn, recurse: bool = True):
        self._flat_weight_refs = []
        out = super()._apply(fn, recurse)
        self._init_flat_weights()
        return out

    @property
    def all_weights(self) -> list:
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """A no-op: PyTorch packs the weights for cuDNN here; core keeps them as they are."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # --- PyTorch's checks --------------------------------------------------------------------------

    def check_input(self, input, batch_sizes) -> None:
        """The input's dtype (the first weight's), rank (2 packed, 3 padded) and feature size."""
        wdtype = self._flat_weights[0].dtype
        if input.dtype != wdtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({wdtype}). Convert input: "
                             f"input.to({wdtype}), or convert model: model.to({input.dtype})")
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes) -> tuple:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        layers = self.num_layers * (2 if self.bidirectional else 1)
        return layers, mini_batch, self.proj_size if self.proj_size > 0 else self.hidden_size

    def check_hidden_size(self, hx, expected_hidden_size, msg: str = "Expected hidden size {}, got {}") -> None:
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        """``hx`` with its batch (dim 1) in ``permutation``'s order (a packed sequence's sorting)."""
        return hx if permutation is None else hx.index_select(1, permutation)

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return _forward_packed(self, input, hx)
        return _forward_padded(self, input, hx)


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (``relu`` with ``nonlinearity='relu'``)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if self.nonlinearity not in modes:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(modes[self.nonlinearity], *args, **kwargs)


class LSTM(RNNBase):
    """Long short-term memory, gates (i, f, g, o) in that order, with an optional output projection."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes) -> tuple:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        return self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)


class GRU(RNNBase):
    """Gated recurrent unit, gates (r, z, n) in that order; n = tanh(W_in x + b_in + r * (W_hn h + b_hn))."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


def _check_cell_ranks(cell, input, hx: tuple) -> None:
    name = type(cell).__name__
    if input.dim() not in (1, 2):
        raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
    for k, h in enumerate(hx):
        if h.dim() not in (1, 2):
            what = f"hx[{k}]" if len(hx) == 2 else "hidden"
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.dim()}D instead")


def _check_cell_sizes(cell, input, state: tuple) -> None:
    if input.size(1) != cell.input_size:
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {cell.input_size}")
    for k, h in enumerate(state):
        if h.size(0) != input.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{k} batch size "
                               f"{h.size(0)}")
        if h.size(1) != cell.hidden_size:
            raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got {h.size(1)}, "
                               f"expected {cell.hidden_size}")


def _cell_step(cell, input, hx, mode: str) -> tuple:
    """One step from ``hx`` (a tensor, a tuple of them, or None for zeros); the new state as a tuple."""
    n_states = 2 if mode == "LSTM" else 1
    given = () if hx is None else (tuple(hx) if n_states == 2 else (hx,))
    _check_cell_ranks(cell, input, given)
    batched = input.dim() == 2
    if not batched:
        input, given = input.unsqueeze(0), tuple(h.unsqueeze(0) for h in given)
    zeros = core.zeros(input.size(0), cell.hidden_size, dtype=input.dtype, device=input.device)
    state = given or (zeros,) * n_states
    _check_cell_sizes(cell, input, state)
    w = _Weights(cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    out = _STEPS[mode](F.linear(input, w.ih, w.b_ih), state, w)
    return out if batched else tuple(s.squeeze(0) for s in out)


class RNNCellBase(Module):
    """What the one-step cells share: ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh`` and the input checks."""

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None, dtype=None):
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        self.weight_ih = empty_param(num_chunks * hidden_size, input_size, device=device, dtype=dtype)
        self.weight_hh = empty_param(num_chunks * hidden_size, hidden_size, device=device, dtype=dtype)
        if bias:
            self.bias_ih = empty_param(num_chunks * hidden_size, device=device, dtype=dtype)
            self.bias_hh = empty_param(num_chunks * hidden_size, device=device, dtype=dtype)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)


class RNNCell(RNNCellBase):
    """One Elman RNN step: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or ``relu``)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return _cell_step(self, input, hx, "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU")[0]


class LSTMCell(RNNCellBase):
    """One LSTM step; returns ``(h', c')``."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return _cell_step(self, input, hx, "LSTM")


class GRUCell(RNNCellBase):
    """One GRU step."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        return _cell_step(self, input, hx, "GRU")[0]
