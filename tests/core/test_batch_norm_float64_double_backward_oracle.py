"""A float64 batch norm in training under ``create_graph=True`` records torch's one
``NativeBatchNormBackwardBackward0`` (as float32 does), not the composite formula's nodes; its second-order
gradients take torch's batchnorm_double_backward (values within rounding: float64 has no kernel here)."""

import numpy as np
import pytest

import core


def _graph(fn):
    if fn is None:
        return None
    return fn.name(), tuple(_graph(child) for child, _ in fn.next_functions)


def _run(lib, x0, affine):
    layer = {2: lib.nn.BatchNorm1d, 3: lib.nn.BatchNorm1d, 4: lib.nn.BatchNorm2d}[x0.ndim]
    bn = layer(x0.shape[1], affine=affine).double()
    x = lib.tensor(x0, requires_grad=True)
    wrt = (x, bn.weight, bn.bias) if affine else (x,)
    grads = lib.autograd.grad((bn(x) ** 3).sum(), wrt, create_graph=True)
    second = lib.autograd.grad(sum((g * g).sum() for g in grads), x)[0]
    return [_graph(g.grad_fn) for g in grads], [g.detach().numpy() for g in grads], second.numpy()


@pytest.mark.parametrize("shape", [(8, 4), (4, 3, 5), (2, 3, 4, 4)], ids=str)
@pytest.mark.parametrize("affine", [True, False])
def test_float64_batch_norm_double_backward_is_torchs_node(torch, shape, affine):
    x0 = np.random.default_rng(shape[1]).standard_normal(shape) * 2 + 0.5
    (ours, our_first, our_second), (theirs, their_first, their_second) = _run(core, x0, affine), _run(torch, x0, affine)
    assert ours == theirs
    for a, b in zip(our_first, their_first, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(our_second, their_second, rtol=1e-10, atol=1e-10)
