"""Parity leftovers against torch (#19, session 21): a COO tensor's ``values()`` is a view of its entries and its
``mul``/``div``/``neg`` methods stay sparse; what a ``__torch_function__`` handler receives from ``split`` and
its family; ``DataLoader`` workers each work on their own copy of the dataset."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core


def _sparse(lib):
    return lib.tensor([[0.0, 2.0, 0.0], [3.0, 0.0, -1.5]]).to_sparse()


def _state(s):
    return s._values().tolist(), s._indices().tolist(), s.to_dense().tolist(), s.layout is not None


# ----- sparse COO: values() is a view, the arithmetic methods stay sparse -----------------------------------------

@pytest.mark.parametrize("write", ["mul_", "setitem", "_values", "fill_", "detach"])
def test_writing_values_changes_the_sparse_tensor(torch, write):
    def run(lib):
        s = _sparse(lib)
        v = s.values()
        if write == "mul_":
            v.mul_(2)
        elif write == "setitem":
            v[1] = 7.0
        elif write == "_values":
            s._values().add_(1)
        elif write == "fill_":
            v.fill_(0.5)
        else:
            s.detach().values().sub_(1)
        out = s @ lib.ones(3, 1)  # an op computing with the sparse tensor sees the new values
        return (*_state(s), out.tolist(), v._is_view(), v._base is s, s._version == v._version)

    assert run(core) == run(torch)


@pytest.mark.parametrize("op", ["mul_", "div_", "neg_", "add_"])
def test_inplace_ops_on_the_sparse_tensor_update_its_values(torch, op):
    def run(lib):
        s = _sparse(lib)
        getattr(s, op)(*([] if op == "neg_" else [s.clone()] if op == "add_" else [2]))
        return _state(s)

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["s.mul(2)", "s.mul(lib.tensor(3.0))", "s.neg()", "s.div(2)", "s.multiply(2)",
                                  "s.divide(4)", "s.negative()", "s.true_divide(2)"])
def test_arithmetic_methods_stay_sparse(torch, expr):
    def run(lib):
        s = _sparse(lib)
        plain = eval(expr, {"s": s, "lib": lib})
        s2 = s.clone().requires_grad_()
        graded = eval(expr, {"s": s2, "lib": lib})
        return (plain.layout == lib.sparse_coo, _state(plain), graded.layout == lib.sparse_coo,
                type(graded.grad_fn).__name__, _state(graded.detach()))

    assert run(core) == run(torch)


@pytest.mark.parametrize("expr", ["s.sum()", "s.values().pow(2).sum()", "(s.mul(2)).to_dense().pow(2).sum()",
                                  "s.neg().sum()", "s.div(2).sum()"])
def test_gradients_through_the_methods_still_match(torch, expr):
    def run(lib):
        s = _sparse(lib).requires_grad_()
        out = eval(expr, {"s": s, "lib": lib})
        out.backward()
        return out.item(), type(out.grad_fn).__name__, s.grad.layout == lib.sparse_coo, s.grad.to_dense().tolist()

    assert run(core) == run(torch)  # (a sparse leaf's gradient is sparse where torch's is: its entries only)


def test_sparse_sum_gradient_still_flows(torch):
    def run(lib):
        s = _sparse(lib).requires_grad_()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = lib.sparse.sum(s.mul(3))
        out.backward()
        return out.item(), s.grad.layout == lib.sparse_coo, s.grad.to_dense().tolist()

    assert run(core) == run(torch)


# ----- __torch_function__: split and its family hand their handlers torch's layout -----------------------------

_SPLIT_CALLS = ["lib.split(t, 2, dim=1)", "lib.split(t, 2, 1)", "lib.split(t, [1, 3], dim=1)", "lib.split(t, 2)",
                "lib.split(t, split_size_or_sections=2)", "lib.split(t, lib.tensor(2), 1)", "t.split(2, dim=1)",
                "t.split(2, 1)", "t.split([1, 3], 1)", "t.split(2)", "t.split(split_size=2)", "lib.chunk(t, 2, dim=1)",
                "lib.chunk(t, 2)", "t.chunk(2, 1)", "lib.tensor_split(t, 2, dim=1)", "lib.tensor_split(t, [1, 2])",
                "t.tensor_split(3)", "lib.unbind(t, 1)", "lib.unbind(t)", "t.unbind(1)", "t.unbind()",
                "lib.unbind(t, dim=1)", "lib.hsplit(t, 2)", "t.vsplit([1])", "t.split_with_sizes([1, 3], 1)"]


def _recorded_split(lib, expr):
    seen = []

    def shape(a):
        if isinstance(a, lib.Tensor):
            return "T"
        return type(a)(shape(x) for x in a) if isinstance(a, (list, tuple)) else a

    class Recording(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            seen.append((func.__name__, func is lib.split, func is lib.Tensor.split,
                         [t.__name__ for t in types], shape(args), shape(kwargs)))
            return super().__torch_function__(func, types, args, kwargs)

    t = lib.arange(12.0).reshape(3, 4).as_subclass(Recording)
    pieces = eval(expr, {"lib": lib, "t": t})
    return seen[0], [(type(p).__name__, tuple(p.shape), p.tolist()) for p in pieces]


@pytest.mark.parametrize("expr", _SPLIT_CALLS)
def test_split_family_hands_handlers_torchs_arguments(torch, expr):
    assert _recorded_split(core, expr) == _recorded_split(torch, expr)


def test_a_mode_sees_splits_dim_as_a_keyword(torch):
    def run(lib):
        seen = []

        class Mode(lib.overrides.TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                seen.append((func.__name__, len(args), dict(kwargs)))
                return func(*args, **kwargs)

        x = lib.ones(4, 4)
        with Mode():
            pieces = lib.split(x, 2, 1) + x.split(3) + lib.split(x, [1, 3], dim=0)
        return seen, [tuple(p.shape) for p in pieces]

    assert run(core) == run(torch)


# ----- DataLoader workers: each works on its own copy of the dataset (and of worker_init_fn's, collate_fn's) -----

def _workers_story(lib, persistent):
    import random

    get_worker_info = lib.utils.data.get_worker_info

    class Counting(lib.utils.data.Dataset):
        def __init__(self):
            self.calls, self.seed, self.rng = 0, None, random.Random(0)

        def __len__(self):
            return 8

        def __getitem__(self, i):
            self.calls += 1  # per worker: torch's workers each count in their own copy
            info = get_worker_info()
            own = info is not None and info.dataset is self
            return lib.tensor([i, self.calls, -1 if info is None else info.id, own, self.rng.randint(0, 1000),
                               self.seed or 0])

    def init(worker_id):  # MONAI's way: re-seed the worker's dataset's own generator
        dataset = get_worker_info().dataset
        dataset.seed = 100 + worker_id
        dataset.rng = random.Random(dataset.seed)

    class Collate:
        def __init__(self):
            self.n = 0

        def __call__(self, batch):
            self.n += 1
            return lib.stack(batch), self.n

    class Stream(lib.utils.data.IterableDataset):
        def __init__(self):
            self.calls = 0

        def __iter__(self):
            info = get_worker_info()
            for i in range(info.id, 6, info.num_workers):
                self.calls += 1
                yield lib.tensor([i, self.calls])

    lib.manual_seed(0)
    seen = []
    dataset, collate, stream = Counting(), Collate(), Stream()
    loader = lib.utils.data.DataLoader(dataset, batch_size=2, num_workers=2, worker_init_fn=init, collate_fn=collate,
                                       persistent_workers=persistent, shuffle=True)
    streams = lib.utils.data.DataLoader(stream, batch_size=2, num_workers=2, persistent_workers=persistent)
    for _ in range(2):
        seen.append([(batch.tolist(), n) for batch, n in loader])
        seen.append([batch.tolist() for batch in streams])
    seen.append((dataset.calls, dataset.seed, dataset.rng.randint(0, 1000), collate.n, stream.calls))
    seen.append(lib.randint(0, 1000, (3,)).tolist())  # persistent workers draw their base seed once
    return seen


@pytest.mark.filterwarnings("ignore:This DataLoader will create")  # (torch's note about this machine's CPUs)
@pytest.mark.parametrize("persistent", [False, True])
def test_workers_change_their_own_dataset_copies_as_torchs(torch, persistent):
    assert _workers_story(core, persistent) == _workers_story(torch, persistent)


def test_a_tensor_dataset_with_worker_init_fn_still_loads(torch):
    def run(lib):
        lib.manual_seed(0)
        data = lib.utils.data.TensorDataset(lib.arange(10.0), lib.arange(10))
        loader = lib.utils.data.DataLoader(data, batch_size=3, shuffle=True, num_workers=2,
                                           worker_init_fn=lambda i: None)
        return [[t.tolist() for t in batch] for batch in loader], data.tensors[0].tolist()

    assert run(core) == run(torch)


# ----- Expanded Weights: nn.RNN/LSTM/GRU run as steps of linear calls, per-sample gradients as torch's ----------

def _rnn_per_sample(lib, kind, batch_first, layers, bidirectional, reduction="sum", packed=False, **extra):
    import importlib

    call = importlib.import_module(f"{lib.__name__}.nn.utils._per_sample_grad").call_for_per_sample_grads
    lib.manual_seed(0)
    cls, kw = (lib.nn.RNN, {"nonlinearity": "relu"}) if kind == "RNN_relu" else (getattr(lib.nn, kind), {})
    module = cls(3, 4, num_layers=layers, bidirectional=bidirectional, batch_first=batch_first, **kw, **extra)
    module = module.double()
    x = lib.randn(*((5, 3, 3) if batch_first else (3, 5, 3)), dtype=lib.float64, requires_grad=True)
    if packed:
        x_in = lib.nn.utils.rnn.pack_padded_sequence(x, [3, 2, 2, 1, 1], batch_first=True)
        out = call(module, batch_size=5)(x_in)[0].data
    else:
        out = call(module, batch_first=batch_first, loss_reduction=reduction)(x)[0]
    weights = lib.randn(tuple(out.shape), dtype=lib.float64, generator=lib.Generator().manual_seed(3))
    loss = (out * weights).sum()
    (loss / 5 if reduction == "mean" else loss).backward()
    samples = {name: np.array(p.grad_sample.tolist()) for name, p in module.named_parameters()}
    return samples, np.array(x.grad.tolist()), [p.grad for p in module.parameters()]


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN", "RNN_relu"])
@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("layers, bidirectional", [(1, False), (2, True)])
def test_expanded_weights_on_recurrent_layers_match_torch(torch, kind, batch_first, layers, bidirectional):
    ours = _rnn_per_sample(core, kind, batch_first, layers, bidirectional)
    theirs = _rnn_per_sample(torch, kind, batch_first, layers, bidirectional)
    assert ours[0].keys() == theirs[0].keys()
    for name in ours[0]:
        assert ours[0][name].shape == theirs[0][name].shape and ours[0][name].shape[0] == 5
        np.testing.assert_allclose(ours[0][name], theirs[0][name], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10, atol=1e-12)
    assert ours[2] == theirs[2] == [None] * len(ours[2])  # only grad_sample is filled


@pytest.mark.parametrize("case", ["packed_lstm", "packed_gru", "projection", "mean_no_bias"])
def test_expanded_weights_on_packed_projected_and_mean_rnns_match_torch(torch, case):
    args = {"packed_lstm": ("LSTM", True, 1, False), "packed_gru": ("GRU", True, 2, True),
            "projection": ("LSTM", True, 2, False), "mean_no_bias": ("RNN", False, 1, False)}[case]
    kwargs = {"packed_lstm": {"packed": True}, "packed_gru": {"packed": True}, "projection": {"proj_size": 2},
              "mean_no_bias": {"reduction": "mean", "bias": False}}[case]
    ours, theirs = _rnn_per_sample(core, *args, **kwargs), _rnn_per_sample(torch, *args, **kwargs)
    assert ours[0].keys() == theirs[0].keys()
    for name in ours[0]:
        np.testing.assert_allclose(ours[0][name], theirs[0][name], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-10, atol=1e-12)


def test_a_worker_init_fn_that_cannot_be_copied_still_leaves_the_dataset_per_worker(torch):
    import threading

    def run(lib):
        class Counting(lib.utils.data.Dataset):
            def __init__(self):
                self.calls = 0

            def __len__(self):
                return 4

            def __getitem__(self, i):
                self.calls += 1
                return lib.tensor([i, self.calls])

        class Trainer:  # holds a lock: copying it fails, as pickling it would in torch's spawned workers
            def __init__(self):
                self.lock, self.seen = threading.Lock(), []

            def init(self, worker_id):
                self.seen.append(worker_id)

        dataset, trainer = Counting(), Trainer()
        loader = lib.utils.data.DataLoader(dataset, batch_size=1, num_workers=2, worker_init_fn=trainer.init)
        return [batch.tolist() for batch in loader], dataset.calls

    assert run(core) == run(torch)
