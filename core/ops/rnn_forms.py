"""``torch.lstm``, ``torch.gru``, ``torch.rnn_tanh``, ``torch.rnn_relu``: whole recurrent stacks from a flat list of
weights, the native functions ``nn.LSTM``'s forward calls through ``torch._VF`` (and custom RNN code copies).

Each has ATen's two overloads: a padded ``(input, hx, params, has_biases, num_layers, dropout, train,
bidirectional, batch_first)`` and a packed ``(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train,
bidirectional)``; ``hx`` is ``(h, c)`` for an LSTM and one tensor otherwise. ``params`` holds per layer and
direction ``w_ih, w_hh[, b_ih, b_hh][, w_hr]`` (``w_hr`` when the LSTM's ``h`` and ``c`` differ in size). They run
the layer loop of ``core.nn.modules.rnn`` (imported on first call: ``core.nn`` imports ``core``), so values,
``grad_fn`` names, gradients and dropout's random draws are the modules'.
"""

from __future__ import annotations

import importlib

from core._user_warning import warn_user

__all__ = ["lstm", "gru", "rnn_tanh", "rnn_relu"]


def _rnn():
    return importlib.import_module("core.nn.modules.rnn")


def _pairs_ok(count: int) -> None:
    if count % 2:
        raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")


def _stack(mode: str, params, has_biases: bool, num_layers: int, dropout, train: bool, bidirectional: bool,
           state: tuple):
    """The weights grouped per layer and direction as ATen's ``gather_params`` groups them, with its checks."""
    rnn = _rnn()
    params = list(params)
    projected = mode == "LSTM" and state[0].size(2) != state[1].size(2)
    stride = (4 if has_biases else 2) + (1 if projected else 0)
    if len(params) % stride:
        raise RuntimeError("got an incorrect number of RNN parameters")
    weights = []
    for k in range(0, len(params), stride):
        w_ih, w_hh, *rest = params[k:k + stride]
        b_ih, b_hh = (rest[0], rest[1]) if has_biases else (None, None)
        weights.append(rnn._Weights(w_ih, w_hh, b_ih, b_hh, rest[-1] if projected else None))
    directions = 2 if bidirectional else 1
    if bidirectional:
        _pairs_ok(len(weights))
        _pairs_ok(state[0].size(0))
    if state[0].size(0) // directions != num_layers:
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if len(weights) // directions != num_layers:
        raise RuntimeError("Expected more weights in stacked_rnn")
    return rnn._Stack(mode, num_layers, bidirectional, weights, float(dropout), bool(train))


def _padded(mode, input, state, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    if input.dim() < 3 and mode == "GRU":  # (ATen's GRU chunks each time step's gates at dim 1)
        rank = max(input.dim() - 1, 1)
        raise IndexError(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got 1)")
    stack = _stack(mode, params, has_biases, num_layers, dropout, train, bidirectional, state)
    output, final = _rnn()._run_padded(stack, input, batch_first, state, warn_user)
    return (output, *final)


def _packed(mode, data, batch_sizes, state, params, has_biases, num_layers, dropout, train, bidirectional):
    stack = _stack(mode, params, has_biases, num_layers, dropout, train, bidirectional, state)
    output, final = _rnn()._run(stack, data, batch_sizes.tolist(), state)
    return (output, *final)


def _lstm_state(hx) -> tuple:
    hx = tuple(hx)
    if len(hx) != 2:
        raise RuntimeError("lstm expects two hidden states")
    return hx


def lstm(*args, **kwargs) -> tuple:
    """``(output, h_n, c_n)`` of a stacked LSTM: ``lstm(input, (h, c), params, has_biases, num_layers, dropout,
    train, bidirectional, batch_first)`` or ``lstm(data, batch_sizes, (h, c), params, ...)`` for packed rows."""
    core = importlib.import_module("core")
    if "batch_sizes" in kwargs or (len(args) > 1 and isinstance(args[1], core.Tensor)):
        return _lstm_packed(*args, **kwargs)
    return _lstm_padded(*args, **kwargs)


def _lstm_padded(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    return _padded("LSTM", input, _lstm_state(hx), params, has_biases, num_layers, dropout, train, bidirectional,
                   batch_first)


def _lstm_packed(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
    return _packed("LSTM", data, batch_sizes, _lstm_state(hx), params, has_biases, num_layers, dropout, train,
                   bidirectional)


def _single_state(mode: str, name: str):
    """The form for a recurrence whose state is one tensor: the packed overload when its third argument is a
    tensor (``batch_sizes`` came second), the padded one otherwise."""
    def padded(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
        return _padded(mode, input, (hx,), params, has_biases, num_layers, dropout, train, bidirectional,
                       batch_first)

    def packed(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
        return _packed(mode, data, batch_sizes, (hx,), params, has_biases, num_layers, dropout, train,
                       bidirectional)

    def op(*args, **kwargs) -> tuple:
        core = importlib.import_module("core")
        if "batch_sizes" in kwargs or (len(args) > 2 and isinstance(args[2], core.Tensor)):
            return packed(*args, **kwargs)
        return padded(*args, **kwargs)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"``(output, h_n)`` of a stacked {mode} recurrence: ``{name}(input, hx, params, has_biases, "
                  f"num_layers, dropout, train, bidirectional, batch_first)`` or ``{name}(data, batch_sizes, hx, "
                  "params, ...)`` for packed rows.")
    return op


gru = _single_state("GRU", "gru")
rnn_tanh = _single_state("RNN_TANH", "rnn_tanh")
rnn_relu = _single_state("RNN_RELU", "rnn_relu")
