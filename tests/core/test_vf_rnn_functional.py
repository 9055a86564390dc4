"""``torch._VF`` and the functional recurrent stacks (``torch.lstm``, ``gru``, ``rnn_tanh``, ``rnn_relu``) give torch's
outputs, final states, gradients, ``grad_fn`` names, dropout draws and errors for the same flat weights."""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, check_error, to_numpy

MODES = [("lstm", "LSTM", {}), ("gru", "GRU", {}), ("rnn_tanh", "RNN", {}),
         ("rnn_relu", "RNN", {"nonlinearity": "relu"})]
MODE_IDS = [m[0] for m in MODES]
TOL = {"rtol": 1e-5, "atol": 1e-6}  # float32, as tests/core/nn/test_rnn.py's float32 LSTM


def flat_weights(torch, module_name, input_size, hidden_size, **kwargs) -> list:
    """A seeded torch module's flat weights as float32 arrays, in ``_flat_weights`` order."""
    torch.manual_seed(0)
    module = getattr(torch.nn, module_name)(input_size, hidden_size, **kwargs)
    return [w.detach().numpy().copy() for w in module._flat_weights]


def randn(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def run(lib, fn, arrays_x, hx_arrays, weights, *args, lstm: bool, extra=()):
    """``fn(x, *extra, hx, weights, *args)`` with leaves everywhere; backward of a fixed weighting of every result;
    the results, their grad_fn names and the gradients of input, states and weights."""
    x = lib.tensor(arrays_x.copy(), requires_grad=True)
    hs = [lib.tensor(h.copy(), requires_grad=True) for h in hx_arrays]
    ws = [lib.tensor(w.copy(), requires_grad=True) for w in weights]
    hx = tuple(hs) if lstm else hs[0]
    result = getattr(lib, fn)(x, *[lib.tensor(e) for e in extra], hx, ws, *args)
    rng = np.random.default_rng(3)
    loss = sum((t * lib.tensor(rng.standard_normal(tuple(t.shape)).astype(np.float32))).sum() for t in result)
    loss.backward()
    return list(result), [type(t.grad_fn).__name__ for t in result], [x.grad, *[h.grad for h in hs]], \
        [w.grad for w in ws]


def compare(torch, fn, x, hx, weights, *args, extra=()):
    lstm = fn == "lstm"
    ours = run(core, fn, x, hx, weights, *args, lstm=lstm, extra=extra)
    theirs = run(torch, fn, x, hx, weights, *args, lstm=lstm, extra=extra)
    assert_same(ours[0], theirs[0], path="results", **TOL)
    assert ours[1] == theirs[1]
    assert_same(ours[2], theirs[2], path="input and state grads", **TOL)
    assert_same(ours[3], theirs[3], path="weight grads", **TOL)


def states(fn, layers, batch, hidden, proj=0, seed=1) -> list:
    h = randn(layers, batch, proj or hidden, seed=seed)
    return [h, randn(layers, batch, hidden, seed=seed + 1)] if fn == "lstm" else [h]


@pytest.mark.parametrize(("fn", "module", "kw"), MODES, ids=MODE_IDS)
@pytest.mark.parametrize(("config", "batch_first"), [({}, False), ({"num_layers": 2, "bidirectional": True}, True),
                                                     ({"bias": False}, True)],
                         ids=["plain", "deep-bi-bf", "no-bias-bf"])
def test_padded_form_matches_torch_results_grad_fns_and_gradients(torch, fn, module, kw, config, batch_first):
    weights = flat_weights(torch, module, 3, 4, **kw, **config)
    layers = config.get("num_layers", 1) * (2 if config.get("bidirectional") else 1)
    x = randn(2, 5, 3) if batch_first else randn(5, 2, 3)
    compare(torch, fn, x, states(fn, layers, 2, 4), weights, config.get("bias", True), config.get("num_layers", 1),
            0.0, True, config.get("bidirectional", False), batch_first)


def test_lstm_with_projection_reads_w_hr_from_the_state_sizes(torch):
    weights = flat_weights(torch, "LSTM", 3, 5, proj_size=2, num_layers=2, bidirectional=True)
    compare(torch, "lstm", randn(4, 2, 3), states("lstm", 4, 2, 5, proj=2), weights, True, 2, 0.0, False, True,
            False)


@pytest.mark.parametrize(("fn", "module", "kw"), MODES, ids=MODE_IDS)
def test_packed_form_matches_torch_on_sorted_batch_sizes(torch, fn, module, kw):
    weights = flat_weights(torch, module, 3, 4, **kw, num_layers=2, bidirectional=True)
    lengths = [4, 3, 1]  # (enforce_sorted's descending lengths)
    padded = torch.tensor(randn(4, 3, 3))
    packed = torch.nn.utils.rnn.pack_padded_sequence(padded, lengths, enforce_sorted=True)
    compare(torch, fn, packed.data.numpy(), states(fn, 4, 3, 4), weights, True, 2, 0.0, False, True,
            extra=(packed.batch_sizes.numpy(),))


@pytest.mark.parametrize(("fn", "module", "kw"), MODES, ids=MODE_IDS)
def test_dropout_between_layers_draws_torchs_masks_in_training(torch, fn, module, kw):
    weights = flat_weights(torch, module, 3, 4, **kw, num_layers=3)
    results = []
    for lib in (core, torch):
        lib.manual_seed(7)
        hx = [lib.tensor(h) for h in states(fn, 3, 2, 4)]
        ws = [lib.tensor(w) for w in weights]
        train = getattr(lib, fn)(lib.tensor(randn(5, 2, 3)), tuple(hx) if fn == "lstm" else hx[0], ws, True, 3, 0.5,
                                 True, False, False)
        evaluation = getattr(lib, fn)(lib.tensor(randn(5, 2, 3)), tuple(hx) if fn == "lstm" else hx[0], ws, True, 3,
                                      0.5, False, False, False)
        results.append((list(train), list(evaluation)))
    assert_same(results[0], results[1], **TOL)
    assert not np.allclose(to_numpy(results[0][0][0]), to_numpy(results[0][1][0]))  # the masks acted in training


def test_module_forward_and_functional_form_give_the_same_values(torch):
    """The module and ``core.lstm`` share the layer loop: identical bits."""
    module = core.nn.LSTM(3, 4, num_layers=2, bidirectional=True, batch_first=True)
    x, h0, c0 = core.randn(2, 5, 3), core.randn(4, 2, 4), core.randn(4, 2, 4)
    out, (h, c) = module(x, (h0, c0))
    result = core.lstm(x, (h0, c0), module._flat_weights, True, 2, 0.0, False, True, True)
    for a, b in zip((out, h, c), result):
        assert np.array_equal(to_numpy(a), to_numpy(b))
        assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__


def _call(fn, hx, nweights, layers=1, bidirectional=False, lstm_states=2):
    """A call with ``nweights`` of a 2-layer bidirectional module's weights and an ``hx`` of ``hx`` layers."""
    def call(lib, *_):
        module = "LSTM" if fn == "lstm" else "GRU"
        lib.manual_seed(0)
        weights = getattr(lib.nn, module)(3, 4, num_layers=2, bidirectional=True).double()._flat_weights[:nweights]
        h = lib.zeros(hx, 2, 4, dtype=lib.float64)
        state = (h,) * lstm_states if fn == "lstm" else h
        return getattr(lib, fn)(lib.zeros(5, 2, 3, dtype=lib.float64), state, weights, True, layers, 0.0, False,
                                bidirectional, False)
    return call


@pytest.mark.parametrize(("fn", "args", "match"), [
    ("gru", (1, 3), "got an incorrect number of RNN parameters"),
    ("lstm", (1, 6), "got an incorrect number of RNN parameters"),
    ("gru", (1, 4, 2), "Expected more hidden states in stacked_rnn"),
    ("gru", (2, 4, 2), "Expected more weights in stacked_rnn"),
    ("lstm", (1, 8), "Expected more weights in stacked_rnn"),
    ("lstm", (2, 4, 1, True), "Odd number of params or hiddens given to a bidirectional RNN"),
], ids=["gru-count", "lstm-count", "hiddens", "gru-layers", "lstm-layers", "bidirectional-odd"])
def test_wrong_weight_or_state_counts_raise_torchs_errors(torch, fn, args, match):
    check_error(_call(fn, *args), [], torch, match=match)


def test_lstm_refuses_one_state_tensor_as_torch(torch):
    check_error(_call("lstm", 1, 4, lstm_states=1), [], torch, match="lstm expects two hidden states")


def test_vf_is_a_module_whose_names_are_the_native_functions(torch):
    from core import _VF

    assert importlib.import_module("core._VF") is _VF is core._VF
    assert _VF.lstm is core.lstm and _VF.gru is core.gru and _VF.rnn_tanh_cell is core.rnn_tanh_cell
    for name in ("lstm", "gru", "rnn_tanh", "rnn_relu", "lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"):
        assert hasattr(torch._VF, name) and hasattr(_VF, name)
    for name in ("no_such_op", "is_tensor", "manual_seed"):  # Python-level torch functions are not native
        with pytest.raises(AttributeError) as ours:
            getattr(_VF, name)
        with pytest.raises(AttributeError) as theirs:
            getattr(torch._VF, name)
        assert str(ours.value) == str(theirs.value)


def test_from_torch_import_vf_works_under_the_torch_alias():
    code = ("import sys; from tests.external.runner import _TorchAlias; sys.meta_path.insert(0, _TorchAlias()); "
            "from torch import _VF; import torch._VF; import torch; "
            "assert torch._VF is _VF and _VF.lstm is torch.lstm; print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "ok", done.stderr


A, B, M = randn(3, 4), randn(4, 5, seed=1), np.array([[1, 2], [1, 2], [0, 1]])


@pytest.mark.parametrize("call", [
    lambda lib, a, b, m: lib._VF.einsum("ij,jk->ik", [a, b]),
    lambda lib, a, b, m: lib._VF.einsum("ij,jk->ik", [a, b], path=[0, 1]),
    lambda lib, a, b, m: lib._VF.broadcast_tensors([a, b[:1, :1]]),
    lambda lib, a, b, m: lib._VF.meshgrid([a[0], b[0]], indexing="ij"),
    lambda lib, a, b, m: lib._VF.unique_dim(m, 0, True, False, False),
    lambda lib, a, b, m: lib._VF.unique_consecutive(m.flatten(), True, True, None),
    lambda lib, a, b, m: lib._VF.tensordot(a, b, [1], [0]),
    lambda lib, a, b, m: lib._VF.cartesian_prod([m[0], m[1]]),
    lambda lib, a, b, m: lib._VF.cdist(a, a, 2.0, None),
    lambda lib, a, b, m: lib._VF.cdist(a, a, 1.0, 2),
    lambda lib, a, b, m: lib._VF.chain_matmul([a, b]),
    lambda lib, a, b, m: lib._VF.block_diag([a, b]),
    lambda lib, a, b, m: lib._VF.norm(a, 2, [1], keepdim=False, dtype=lib.float64),
    lambda lib, a, b, m: lib._VF.frobenius_norm(a, [0, 1], keepdim=True),
    lambda lib, a, b, m: lib._VF.nuclear_norm(a, keepdim=False),
    lambda lib, a, b, m: lib._VF.split(a, 2, 0),
    lambda lib, a, b, m: lib._VF.split_with_sizes(a, [1, 3], 1),
    lambda lib, a, b, m: lib._VF.atleast_2d(a[0]),
    lambda lib, a, b, m: lib._VF.stft(a.flatten(), 4, 2, 4, lib.hann_window(4), False, True, True),
    lambda lib, a, b, m: lib._VF.dropout(a, 0.0, False),
], ids=["einsum", "einsum-path", "broadcast_tensors", "meshgrid", "unique_dim", "unique_consecutive", "tensordot",
        "cartesian_prod", "cdist", "cdist-mode", "chain_matmul", "block_diag", "norm", "frobenius_norm",
        "nuclear_norm", "split", "split_with_sizes", "atleast_2d", "stft", "dropout"])
@pytest.mark.filterwarnings("ignore:torch.chain_matmul is deprecated")
def test_vf_functions_take_their_native_arguments(torch, call):
    results = [call(lib, lib.tensor(A), lib.tensor(B), lib.tensor(M)) for lib in (core, torch)]
    assert_same(results[0], results[1], **TOL)


@pytest.mark.parametrize(("cell", "states_count", "gates"), [("lstm_cell", 2, 4), ("gru_cell", 1, 3),
                                                              ("rnn_tanh_cell", 1, 1), ("rnn_relu_cell", 1, 1)])
def test_vf_cells_match_torch(torch, cell, states_count, gates):
    arrays = [randn(2, 3), *[randn(2, 4, seed=s) for s in range(1, 1 + states_count)], randn(4 * gates, 3, seed=5),
              randn(4 * gates, 4, seed=6), randn(4 * gates, seed=7), randn(4 * gates, seed=8)]
    results = []
    for lib in (core, torch):
        x, *rest = [lib.tensor(a, requires_grad=True) for a in arrays]
        hx, weights = (tuple(rest[:2]), rest[2:]) if states_count == 2 else (rest[0], rest[1:])
        out = getattr(lib._VF, cell)(x, hx, *weights)
        outs = list(out) if isinstance(out, tuple) else [out]
        sum((o * o).sum() for o in outs).backward()
        results.append((outs, [t.grad for t in [x, *rest]]))
    assert_same(results[0], results[1], **TOL)


def _custom_lstm(lib):
    """A user's LSTM whose forward is a copy of ``nn.LSTM.forward``'s padded path, calling ``_VF.lstm``."""
    _VF = lib._VF

    class MyLSTM(lib.nn.LSTM):
        def forward(self, input, hx=None):
            self._update_flat_weights()
            num_directions = 2 if self.bidirectional else 1
            real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
            max_batch_size = input.size(0) if self.batch_first else input.size(1)
            if hx is None:
                h_zeros = lib.zeros(self.num_layers * num_directions, max_batch_size, real_hidden_size,
                                    dtype=input.dtype, device=input.device)
                c_zeros = lib.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                                    dtype=input.dtype, device=input.device)
                hx = (h_zeros, c_zeros)
            self.check_forward_args(input, hx, None)
            result = _VF.lstm(input, hx, self._flat_weights, self.bias, self.num_layers, self.dropout, self.training,
                              self.bidirectional, self.batch_first)
            return result[0], self.permute_hidden(result[1:], None)

    return MyLSTM


def test_user_lstm_subclass_copying_forward_with_vf_lstm_matches_torch(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        model = _custom_lstm(lib)(3, 4, num_layers=2, proj_size=2, batch_first=True)
        if lib is core:  # torch's seeded weights
            torch.manual_seed(0)
            reference = torch.nn.LSTM(3, 4, num_layers=2, proj_size=2, batch_first=True)
            model.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in reference.state_dict().items()})
        x = lib.tensor(randn(2, 5, 3), requires_grad=True)
        out, (h, c) = model(x)
        (out.sum() + h.sum() + c.sum()).backward()
        results.append(([out, h, c, x.grad], [p.grad for p in model.parameters()]))
    assert_same(results[0], results[1], **TOL)


@pytest.mark.parametrize("via", ["module", "functional"])
def test_projected_float32_lstm_notes_that_onednn_is_not_used_as_torch(torch, via):
    for lib in (core, torch):
        always = lib.is_warn_always_enabled()
        lib.set_warn_always(True)  # (a one-time note otherwise: once per process)
        try:
            module = lib.nn.LSTM(3, 4, proj_size=2)
            x = lib.randn(5, 2, 3)
            with pytest.warns(UserWarning, match="LSTM with projections is not supported with oneDNN"):
                if via == "module":
                    module(x)
                else:
                    lib.lstm(x, (lib.zeros(1, 2, 2), lib.zeros(1, 2, 4)), module._flat_weights, True, 1, 0.0, False,
                             False, False)
        finally:
            lib.set_warn_always(always)


def test_rnn_module_file_has_torchs_helpers_that_copied_forwards_import(torch):
    from core.nn.modules import rnn

    assert rnn._rnn_impls == {"RNN_TANH": core.rnn_tanh, "RNN_RELU": core.rnn_relu}
    assert set(rnn._rnn_impls) == set(torch.nn.modules.rnn._rnn_impls)
    x = np.arange(6.0).reshape(2, 3)
    results = []
    for lib, module in ((core, rnn), (torch, torch.nn.modules.rnn)):
        permutation = lib.tensor([2, 0, 1])
        private = module._apply_permutation(lib.tensor(x), permutation)
        with pytest.warns(FutureWarning, match="`apply_permutation` is deprecated") as record:
            public = module.apply_permutation(lib.tensor(x), permutation)
        assert record[0].filename == __file__
        results.append([private, public])
    assert_same(results[0], results[1])


def _with_torchs_forward(torch, lib, name):
    """``lib.nn.<name>`` subclassed with torch's own ``forward`` source, verbatim, run against ``lib`` (its ``_VF``
    calls, ``PackedSequence``, ``_rnn_impls``): what a user's copy of that forward does."""
    import inspect
    import textwrap

    from core.nn.modules import rnn

    namespace = {"torch": lib, "_VF": lib._VF, "PackedSequence": lib.nn.utils.rnn.PackedSequence, "Tensor": lib.Tensor,
                 "_rnn_impls": (rnn if lib is core else torch.nn.modules.rnn)._rnn_impls}
    exec(textwrap.dedent(inspect.getsource(getattr(torch.nn, name).forward)), namespace)
    return type("My" + name, (getattr(lib.nn, name),), {"forward": namespace["forward"]})


@pytest.mark.parametrize(("name", "kw"), [("LSTM", {"proj_size": 2}), ("LSTM", {}), ("GRU", {}),
                                          ("RNN", {"nonlinearity": "relu"})], ids=["lstm-proj", "lstm", "gru", "rnn"])
def test_torchs_own_forward_source_runs_on_core_vf_padded_packed_and_unbatched(torch, name, kw):
    torch.manual_seed(0)
    reference = getattr(torch.nn, name)(3, 4, num_layers=2, bidirectional=True, **kw)
    results = []
    for lib in (core, torch):
        model = _with_torchs_forward(torch, lib, name)(3, 4, num_layers=2, bidirectional=True, **kw)
        model.load_state_dict({k: lib.tensor(v.detach().numpy()) for k, v in reference.state_dict().items()})
        x = lib.tensor(randn(4, 3, 3), requires_grad=True)
        packed = lib.nn.utils.rnn.pack_padded_sequence(x, lib.tensor([4, 2, 3]), enforce_sorted=False)
        (padded_out, padded_h), (packed_out, packed_h), (one_out, one_h) = model(x), model(packed), model(x[:, 0])
        outs = [padded_out, packed_out.data, one_out, *[h for hs in (padded_h, packed_h, one_h)
                                                        for h in (hs if name == "LSTM" else (hs,))]]
        sum((o * o).sum() for o in outs).backward()
        results.append((outs, x.grad, [p.grad for p in model.parameters()]))
    assert_same(results[0], results[1], **TOL)


@pytest.mark.parametrize(("fn", "module"), [("gru", "GRU")])
def test_padded_gru_refuses_an_unbatched_input_as_torch(torch, fn, module):
    def call(lib):
        lib.manual_seed(0)
        weights = getattr(lib.nn, module)(3, 4).double()._flat_weights
        return getattr(lib, fn)(lib.zeros(5, 3, dtype=lib.float64), lib.zeros(1, 5, 4, dtype=lib.float64), weights,
                                True, 1, 0.0, False, False, False)
    check_error(lambda lib: call(lib), [], torch, match=r"Dimension out of range \(expected to be in range of "
                                                         r"\[-1, 0\], but got 1\)")
