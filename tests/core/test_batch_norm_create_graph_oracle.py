"""Batch norm's first-order gradients under ``create_graph=True`` bit for bit as PyTorch's: ``NativeBatchNormBackward0``
takes ``native_batch_norm_backward``'s kernel for the values even while recording (higher's and learn2learn's MAML
differentiate through them), and the graph still gives second-order gradients (compared to torch's closely: its
double backward is its own formula)."""

import numpy as np
import pytest

import core

SHAPES = [(16, 8), (4, 3, 7), (8, 4, 5, 5), (32, 16), (2, 3, 4, 4, 4)]


def _layer(lib, channels, ndim, affine=True):
    cls = {2: lib.nn.BatchNorm1d, 3: lib.nn.BatchNorm1d, 4: lib.nn.BatchNorm2d, 5: lib.nn.BatchNorm3d}[ndim]
    bn = cls(channels, affine=affine)
    if affine:
        with lib.no_grad():
            bn.weight.copy_(lib.linspace(0.5, 1.5, channels))
            bn.bias.copy_(lib.linspace(-0.2, 0.3, channels))
    return bn


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("affine", [True, False])
def test_batch_norm_gradients_under_create_graph_match_torch_bitwise(torch, shape, affine):
    rng = np.random.default_rng(len(shape) * 10 + shape[1])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    gy = rng.standard_normal(shape).astype(np.float32)
    results = []
    for lib in (core, torch):
        bn = _layer(lib, shape[1], len(shape), affine)
        xi = lib.tensor(x, requires_grad=True)
        wrt = (xi, bn.weight, bn.bias) if affine else (xi,)
        grads = lib.autograd.grad(bn(xi), wrt, lib.tensor(gy), create_graph=True)
        second = lib.autograd.grad(sum((g * g).sum() for g in grads if g.requires_grad), xi)[0]
        results.append(([g.detach().numpy() for g in grads], second.numpy(), [g.requires_grad for g in grads]))
    (ours, our_second, our_flags), (theirs, their_second, their_flags) = results
    assert our_flags == their_flags  # (the bias gradient too: an output of torch's one node)
    for c, t in zip(ours, theirs, strict=True):
        assert c.tobytes() == t.tobytes()
    np.testing.assert_allclose(our_second, their_second, rtol=1e-4, atol=1e-5)


def test_a_maml_inner_step_through_batch_norm_matches_torch_bitwise(torch):
    """One inner SGD step with create_graph=True on a Linear + BatchNorm1d net: the adapted weights."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((10, 5)).astype(np.float32)
    y = rng.standard_normal((10, 3)).astype(np.float32)
    adapted = []
    for lib in (core, torch):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(5, 3), lib.nn.BatchNorm1d(3))
        with lib.no_grad():
            net[0].weight.copy_(lib.tensor(rng.standard_normal((3, 5)).astype(np.float32)) * 0 + lib.tensor(
                np.linspace(-1, 1, 15, dtype=np.float32).reshape(3, 5)))
            net[0].bias.zero_()
        loss = ((net(lib.tensor(x)) - lib.tensor(y)) ** 2).mean()
        grads = lib.autograd.grad(loss, list(net.parameters()), create_graph=True)
        adapted.append([(p - 0.1 * g).detach().numpy() for p, g in zip(net.parameters(), grads, strict=True)])
    for c, t in zip(*adapted, strict=True):
        np.testing.assert_array_equal(c, t)


def _graph(fn, depth=0):
    if fn is None or "AccumulateGrad" in fn.name() or depth > 3:
        return None if fn is None else fn.name()
    return fn.name(), tuple(_graph(f, depth + 1) for f, _ in fn.next_functions)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_batch_norm_second_order_gradients_match_torch_bitwise(torch, shape):
    """The three gradients are one NativeBatchNormBackwardBackward0 node whose backward is PyTorch's
    batchnorm_double_backward: second-order gradients w.r.t. the input, the weight and the incoming gradient
    bit for bit (MAML's meta-gradients through a BatchNorm layer)."""
    rng = np.random.default_rng(len(shape) * 10 + shape[1])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    gy = rng.standard_normal(shape).astype(np.float32)
    results = []
    for lib in (core, torch):
        bn = _layer(lib, shape[1], len(shape))
        xi, gyi = lib.tensor(x, requires_grad=True), lib.tensor(gy, requires_grad=True)
        grads = lib.autograd.grad(bn(xi), (xi, bn.weight, bn.bias), gyi, create_graph=True)
        weights = [lib.linspace(-1, 1, g.numel()).reshape(g.shape) for g in grads]
        second = lib.autograd.grad(grads, (xi, bn.weight, gyi), weights)
        results.append(([_graph(g.grad_fn) for g in grads], [s.numpy().tobytes() for s in second]))
    assert results[0] == results[1]


NO_AFFINE = {
    "BatchNorm_affine_False": lambda lib, x: _layer(lib, x.shape[1], x.ndim, affine=False)(x),
    "F.batch_norm_weight_None": lambda lib, x: lib.nn.functional.batch_norm(x, None, None, training=True),
    "F.batch_norm_running_stats": lambda lib, x: lib.nn.functional.batch_norm(
        x, lib.zeros(x.shape[1]), lib.ones(x.shape[1]), training=True),
    "InstanceNorm1d": lambda lib, x: lib.nn.InstanceNorm1d(x.shape[1])(x),
}


@pytest.mark.parametrize("shape", [(16, 8), (4, 3, 7), (8, 4, 5, 5)], ids=str)
@pytest.mark.parametrize("name", list(NO_AFFINE))
def test_batch_norm_without_affine_records_one_node_and_torchs_second_order_bits(torch, name, shape):
    """Without affine parameters (BatchNorm's affine=False, F.batch_norm's weight=None, InstanceNorm's default) the
    gradient under create_graph is torch's one NativeBatchNormBackwardBackward0 (weight edge empty), and the
    gradients of that gradient w.r.t. the input and the incoming gradient are torch's bits."""
    if name == "InstanceNorm1d" and len(shape) != 3:
        shape = (4, 3, 7)
    rng = np.random.default_rng(len(shape) * 10 + shape[1])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    gy = rng.standard_normal(shape).astype(np.float32)
    results = []
    for lib in (core, torch):
        xi, gyi = lib.tensor(x, requires_grad=True), lib.tensor(gy, requires_grad=True)
        (g,) = lib.autograd.grad(NO_AFFINE[name](lib, xi), xi, gyi, create_graph=True)
        second = lib.autograd.grad(g, (xi, gyi), lib.linspace(-1, 1, g.numel()).reshape(g.shape))
        results.append((_graph(g.grad_fn), g.detach().numpy().tobytes(), [s.numpy().tobytes() for s in second]))
    assert results[0] == results[1]
