"""What Opacus (differential privacy, its own package run on core by ``tests/external/recipes_opacus.py``) needs from
core, against PyTorch: Expanded Weights' per-sample gradients (``torch.nn.utils._per_sample_grad``, Opacus'
``grad_sample_mode="ew"``), the arguments nn.functional hands a ``__torch_function__`` handler, a subclass made by
``_make_subclass`` without its handler being called, and the DataLoader module's type aliases. Each example runs in
core and in torch and the outcomes are compared.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core
from tests.core.oracle import to_numpy


def _outcome(fn):
    try:
        return "ok", fn()
    except Exception as exc:  # the error is the outcome compared
        return type(exc).__name__, str(exc)


def _per_sample(lib, layer, shape, reduction, integer=False):
    """Per-sample gradients of ``layer`` (built by ``layer(lib)``) through ``call_for_per_sample_grads``, the
    input's gradient, the parameters' ``grad`` (None) and the output's node name."""
    from importlib import import_module

    call = import_module(f"{lib.__name__}.nn.utils._per_sample_grad").call_for_per_sample_grads
    lib.manual_seed(0)
    module = layer(lib)
    x = lib.randint(0, 10, shape) if integer else lib.randn(shape, requires_grad=True)
    out = call(module, loss_reduction=reduction)(x)
    weights = lib.randn(out.shape, generator=lib.Generator().manual_seed(3))
    loss = (out * weights).sum()
    (loss / shape[0] if reduction == "mean" else loss).backward()
    samples = {name: to_numpy(p.grad_sample) for name, p in module.named_parameters()}
    grads = [p.grad for p in module.parameters()]
    return samples, None if integer else to_numpy(x.grad), grads, type(out.grad_fn).__name__


LAYERS = {
    "linear": (lambda lib: lib.nn.Linear(4, 3), (5, 4)),
    "linear_3d": (lambda lib: lib.nn.Linear(4, 3), (5, 2, 4)),
    "conv1d": (lambda lib: lib.nn.Conv1d(2, 3, 3, padding=1), (4, 2, 6)),
    "conv2d": (lambda lib: lib.nn.Conv2d(2, 4, 3, stride=2, padding=1, groups=2), (3, 2, 6, 6)),
    "conv3d": (lambda lib: lib.nn.Conv3d(2, 2, 2), (3, 2, 3, 3, 3)),
    "layer_norm": (lambda lib: lib.nn.LayerNorm(5), (3, 2, 5)),
    "group_norm": (lambda lib: lib.nn.GroupNorm(2, 4), (3, 4, 5)),
    "instance_norm": (lambda lib: lib.nn.InstanceNorm1d(3, affine=True), (3, 3, 5)),
}


@pytest.mark.parametrize("reduction", ["sum", "mean"])
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_expanded_weights_per_sample_grads_match_torch(name, reduction):
    layer, shape = LAYERS[name]
    ours, theirs = _per_sample(core, layer, shape, reduction), _per_sample(torch, layer, shape, reduction)
    assert ours[0].keys() == theirs[0].keys()
    for key in ours[0]:
        assert ours[0][key].shape == theirs[0][key].shape and ours[0][key].dtype == theirs[0][key].dtype
        np.testing.assert_allclose(ours[0][key], theirs[0][key], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-5, atol=1e-6)
    assert ours[2] == theirs[2] == [None] * len(ours[2])  # grad stays None: only grad_sample is filled
    if name != "conv1d" and name != "conv2d" and name != "conv3d":
        assert ours[3] == theirs[3]
    else:
        assert ours[3] == theirs[3] == "ConvPerSampleGradBackward"


def test_expanded_weights_embedding_matches_torch():
    def layer(lib):
        return lib.nn.Sequential(lib.nn.Embedding(10, 3), lib.nn.Flatten(), lib.nn.Linear(6, 2))

    ours, theirs = _per_sample(core, layer, (4, 2), "sum", True), _per_sample(torch, layer, (4, 2), "sum", True)
    for key in ours[0]:
        np.testing.assert_allclose(ours[0][key], theirs[0][key], rtol=1e-5, atol=1e-6)


def test_expanded_weights_instance_norm_updates_running_stats_once():
    def stats(lib):
        lib.manual_seed(0)
        from importlib import import_module

        call = import_module(f"{lib.__name__}.nn.utils._per_sample_grad").call_for_per_sample_grads
        norm = lib.nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
        call(norm)(lib.randn(3, 3, 5)).sum().backward()
        return to_numpy(norm.running_mean), to_numpy(norm.running_var)

    for a, b in zip(stats(core), stats(torch)):
        np.testing.assert_allclose(a, b, rtol=1e-6)


ERRORS = {
    "unhandled": lambda lib, call: call(lib.nn.ConvTranspose1d(2, 2, 2))(lib.randn(2, 2, 3)),
    "reduction": lambda lib, call: call(lib.nn.Linear(2, 2), loss_reduction="x"),
    "batch_size": lambda lib, call: call(lib.nn.Linear(2, 2), batch_size=3)(lib.randn(2, 2)),
    "empty": lambda lib, call: call(lib.nn.Linear(2, 2))(lib.randn(0, 2)),
    "not_module": lambda lib, call: call(lambda x: x),
    "negative": lambda lib, call: call(lib.nn.Linear(2, 2), batch_size=0),
    "unbatched": lambda lib, call: call(lib.nn.Linear(2, 2), batch_size=1)(lib.randn(2)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_expanded_weights_errors_match_torch(name):
    from importlib import import_module

    outcomes = [_outcome(lambda lib=lib: ERRORS[name](
        lib, import_module(f"{lib.__name__}.nn.utils._per_sample_grad").call_for_per_sample_grads))
        for lib in (core, torch)]
    assert outcomes[0][0] == outcomes[1][0] != "ok"
    assert outcomes[0][1] == outcomes[1][1]


def test_expanded_weight_refuses_other_functions_as_torch():
    def run(lib):
        from importlib import import_module

        ew = import_module(f"{lib.__name__}.nn.utils._expanded_weights").ExpandedWeight
        weight = lib.nn.Parameter(lib.ones(2, 2))
        w = ew(weight, 3, "sum")
        return (type(w).__name__, tuple(w.shape), str(w.dtype), _outcome(lambda: w + 1),
                _outcome(lambda: ew(lib.ones(2), 3, "sum")))

    assert run(core) == run(torch)


def _handler_calls(lib):
    """What a ``__torch_function__`` handler receives from nn.functional: positionals and keyword names."""
    seen = []

    class Spy(lib.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append((func.__name__, [type(a).__name__ for a in args], list((kwargs or {}).keys())))
            raise RuntimeError("stop")

    F = lib.nn.functional
    w = Spy(lib.ones(3))
    m = Spy(lib.ones(2, 3))
    calls = [lambda: F.layer_norm(lib.ones(2, 3), (3,), w), lambda: F.group_norm(lib.ones(2, 4), 2, Spy(lib.ones(4))),
             lambda: F.softmax(m, 1), lambda: F.embedding(lib.tensor([1]), m, 0),
             lambda: F.batch_norm(m, None, None, None, None, True), lambda: F.mse_loss(m, m, None, None, "sum"),
             lambda: F.instance_norm(m.view(1, 2, 3), None, None, w[:2]), lambda: F.linear(lib.ones(1, 3), m),
             lambda: F.normalize(m, 2.0, 0), lambda: F.relu(m, True)]
    for call in calls:
        _outcome(call)
    return seen


def test_functional_hands_handlers_torchs_positionals_and_keywords():
    assert _handler_calls(core) == _handler_calls(torch)


def test_make_subclass_does_not_call_the_subclass_handler():
    def run(lib):
        calls = []

        class Refusing(lib.Tensor):
            @classmethod
            def __torch_function__(cls, func, types, args=(), kwargs=None):
                calls.append(func.__name__)
                raise RuntimeError("refused")

        t = lib.Tensor._make_subclass(Refusing, lib.ones(2), True)
        return type(t).__name__, list(calls), _outcome(lambda: t.requires_grad)

    assert run(core) == run(torch)


def test_dataloader_module_type_aliases():
    import typing

    from torch.utils.data import dataloader as theirs

    from core.utils.data import dataloader as ours

    for name in ("_collate_fn_t", "_worker_init_fn_t"):
        assert typing.get_origin(getattr(ours, name)) is typing.get_origin(getattr(theirs, name))
        assert len(typing.get_args(getattr(ours, name))) == len(typing.get_args(getattr(theirs, name)))


def _tied_calls(lib):
    """functional_call on a module whose two layers share a weight: the given value reaches both (tie_weights)."""
    lib.manual_seed(0)
    nn = lib.nn

    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.a, self.b = nn.Linear(3, 3), nn.Linear(3, 3)
            self.b.weight = self.a.weight

        def forward(self, x):
            return self.b(self.a(x))

    m, x = Tied(), lib.randn(2, 3)
    call = lib.func.functional_call
    return [_outcome(lambda: to_numpy(call(m, {"a.weight": lib.eye(3)}, (x,)))),
            _outcome(lambda: to_numpy(call(m, {"a.weight": lib.eye(3)}, (x,), tie_weights=False))),
            _outcome(lambda: call(m, {"a.weight": lib.eye(3), "b.weight": lib.zeros(3, 3)}, (x,))),
            _outcome(lambda: to_numpy(call(m, {"a.weight": lib.eye(3), "b.weight": lib.zeros(3, 3)}, (x,),
                                           tie_weights=False))),
            _outcome(lambda: to_numpy(m(x)))]


def test_functional_call_unties_tied_weights_as_torch():
    for (kind, ours), (other, theirs) in zip(_tied_calls(core), _tied_calls(torch)):
        assert kind == other
        if kind == "ok":
            np.testing.assert_allclose(ours, theirs, rtol=1e-6)
        else:
            assert ours == theirs


def _sized_normals(lib):
    """``torch.normal`` with a ``size`` and a 0-d tensor mean or std (Opacus' adaptive clipping's noise): the tensor
    is read as its number; other tensors are refused."""
    g = lib.Generator().manual_seed(7)
    cases = [lambda: lib.normal(mean=0, std=lib.tensor(1.5), size=(4, 3), generator=g),
             lambda: lib.normal(lib.tensor(0.5), 1.0, (5,), generator=g),
             lambda: lib.normal(lib.tensor(1), lib.tensor(2.0), size=(), generator=g),
             lambda: lib.normal(0.0, lib.tensor([2.0]), size=(3,)),
             lambda: lib.normal(0.0, lib.tensor(1.0, requires_grad=True), (2,)),
             lambda: lib.normal(0.0, lib.tensor(-1.0), (2,))]
    results = []
    for case in cases:
        kind, value = _outcome(case)
        if kind == "ok":
            results.append((kind, tuple(value.shape), str(value.dtype), to_numpy(value).tolist()))
        else:
            results.append((kind, value.split(" - got")[0]))
    return results


def test_normal_with_size_reads_zero_dim_tensors_as_numbers():
    assert _sized_normals(core) == _sized_normals(torch)


def _empty_vmaps(lib):
    """vmap over a batch of 0 (Opacus' functorch per-sample gradients of an empty Poisson batch): empty results with
    the shapes and dtypes torch's batched run gives."""
    vmap, grad = lib.func.vmap, lib.func.grad
    cases = [(vmap(lambda x: x.sum()), (lib.randn(0, 3),)),
             (vmap(lambda x: (x * 2, x.sum().long())), (lib.randn(0, 3),)),
             (vmap(grad(lambda w, x: (w * x).sum()), in_dims=(None, 0)), (lib.randn(3), lib.randn(0, 3))),
             (vmap(lambda x: x[0], in_dims=1, out_dims=1), (lib.randn(2, 0, 4),)),
             (vmap(lambda x: (x.sum(), lib.ones(2)), out_dims=(0, None)), (lib.randn(0, 3),))]
    shapes = []
    for fn, args in cases:
        flat = lib.utils._pytree.tree_leaves(fn(*args))
        shapes.append([(tuple(t.shape), str(t.dtype)) for t in flat])
    return shapes


def test_vmap_over_an_empty_batch():
    assert _empty_vmaps(core) == _empty_vmaps(torch)
