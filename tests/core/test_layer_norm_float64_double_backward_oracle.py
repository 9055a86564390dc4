"""A float64 layer norm under ``create_graph=True`` records torch's one ``NativeLayerNormBackwardBackward0`` (as
float32 does), not the composite formula's twenty-odd nodes: a gradient penalty or MAML step through a LayerNorm in
double precision shows torch's graph, and its second-order gradients take torch's layer_norm_double_backward."""

import numpy as np
import pytest

import core


def _graph(fn):
    if fn is None:
        return None
    return fn.name(), tuple(_graph(child) for child, _ in fn.next_functions)


def _run(lib, x0, affine):
    x = lib.tensor(x0, requires_grad=True)
    w = lib.tensor(np.linspace(0.5, 1.5, x0.shape[-1]), requires_grad=True) if affine else None
    b = lib.tensor(np.linspace(-0.2, 0.3, x0.shape[-1]), requires_grad=True) if affine else None
    y = lib.nn.functional.layer_norm(x, x0.shape[-1:], w, b)
    wrt = (x, w, b) if affine else (x,)
    grads = lib.autograd.grad((y ** 3).sum(), wrt, create_graph=True)
    second = lib.autograd.grad(sum((g * g).sum() for g in grads), wrt, allow_unused=True)
    return ([_graph(g.grad_fn) for g in grads], [g.detach().numpy() for g in grads],
            [None if s is None else s.numpy() for s in second])


@pytest.mark.parametrize("shape", [(4, 6), (2, 3, 8), (5, 33)], ids=str)
@pytest.mark.parametrize("affine", [True, False])
def test_float64_layer_norm_double_backward_is_torchs_node(torch, shape, affine):
    x0 = np.random.default_rng(shape[-1]).standard_normal(shape)
    (ours, our_first, our_second), (theirs, their_first, their_second) = _run(core, x0, affine), _run(torch, x0, affine)
    assert ours == theirs
    for a, b in zip(our_first, their_first, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    for a, b in zip(our_second, their_second, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-10)
