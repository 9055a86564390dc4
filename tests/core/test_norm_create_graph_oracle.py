"""Layer norm's and group norm's gradients under ``create_graph=True`` as PyTorch records them (#19).

Layer norm: one ``NativeLayerNormBackwardBackward0`` node (edges grad_out, input, mean, rstd, weight, bias) whose
values are ``native_layer_norm_backward``'s kernel and whose backward is ``layer_norm_double_backward``. Group norm:
no double-backward node; PyTorch computes the gradients with ``infinitely_differentiable_native_group_norm_backward``
(a composite of ops) whose mean and rstd are the forward node's own outputs, so a second-order gradient flows back
through ``NativeGroupNormBackward0``. Compared with torch: the recorded graph (node names, walked through
``next_functions``), the first-order values and the second-order gradients w.r.t. the input, the weight and the
incoming gradient, bit for bit in float32. In float64 core's group-norm statistics are double sums in another order
than PyTorch's float64 kernel's, so values agree to a few ulps there (the graph still matches).
"""

import numpy as np
import pytest

import core


def _graph(fn, depth=0):
    if fn is None or "AccumulateGrad" in fn.name() or depth > 5:
        return None if fn is None else fn.name()
    return fn.name(), tuple(_graph(f, depth + 1) for f, _ in fn.next_functions)


def _params(lib, shape, affine, dtype):
    n = int(np.prod(shape))
    w = lib.linspace(0.5, 1.5, n, dtype=dtype).reshape(shape).requires_grad_() if affine != "none" else None
    b = lib.linspace(-0.2, 0.3, n, dtype=dtype).reshape(shape).requires_grad_() if affine == "weight+bias" else None
    return w, b


def _run(lib, norm, x, gy, affine, param_shape, second_graph=False):
    dtype = lib.float64 if x.dtype == np.float64 else lib.float32
    xi, gyi = lib.tensor(x, requires_grad=True), lib.tensor(gy, requires_grad=True)
    w, b = _params(lib, param_shape, affine, dtype)
    grads = lib.autograd.grad(norm(lib, xi, w, b), [t for t in (xi, w, b) if t is not None], gyi, create_graph=True)
    weights = [lib.linspace(-1, 1, g.numel(), dtype=dtype).reshape(g.shape) for g in grads]
    second = lib.autograd.grad(grads, [t for t in (xi, w, gyi) if t is not None], weights, create_graph=second_graph)
    return ([_graph(g.grad_fn) for g in grads], [g.detach().numpy() for g in grads],
            [s.detach().numpy() for s in second], [_graph(s.grad_fn) for s in second] if second_graph else None)


AFFINE = ["weight+bias", "weight", "none"]
LAYER = [((4, 6), (6,)), ((3, 4, 5), (4, 5)), ((16, 3, 32), (32,)), ((5, 100), (100,))]


@pytest.mark.parametrize("shape,normalized", LAYER, ids=str)
@pytest.mark.parametrize("affine", AFFINE)
def test_layer_norm_gradient_is_torchs_double_backward_node_with_its_bits(torch, shape, normalized, affine):
    rng = np.random.default_rng(len(shape) * 7 + shape[-1])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(np.float32)
    gy = rng.standard_normal(shape).astype(np.float32)

    def norm(lib, xi, w, b):
        return lib.nn.functional.layer_norm(xi, normalized, w, b)

    ours, theirs = (_run(lib, norm, x, gy, affine, normalized, second_graph=True) for lib in (core, torch))
    assert ours[0][0][0] == "NativeLayerNormBackwardBackward0"
    assert ours[0] == theirs[0] and ours[3] == theirs[3]  # the gradients' graph and the second-order gradients'
    for c, t in zip(ours[1] + ours[2], theirs[1] + theirs[2], strict=True):
        assert c.tobytes() == t.tobytes()


GROUP = [((2, 6, 5), 3), ((4, 8, 3, 3), 4), ((3, 4), 2), ((2, 6, 4, 4, 2), 6), ((8, 32, 7), 8)]


@pytest.mark.parametrize("shape,groups", GROUP, ids=str)
@pytest.mark.parametrize("affine", AFFINE)
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_group_norm_gradient_is_torchs_composite_formula_with_its_bits(torch, shape, groups, affine, dtype):
    """The second-order gradient w.r.t. the input flows back through the forward node's mean and rstd outputs
    (``var_mean_backward``): a formula that holds them constant is off by up to 0.8 here."""
    rng = np.random.default_rng(len(shape) * 11 + shape[1])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(dtype)
    gy = rng.standard_normal(shape).astype(dtype)

    def norm(lib, xi, w, b):
        return lib.nn.functional.group_norm(xi, groups, w, b)

    ours, theirs = (_run(lib, norm, x, gy, affine, (shape[1],)) for lib in (core, torch))
    assert ours[0] == theirs[0]
    assert ours[0][0][0] == "ViewBackward0" and "NativeGroupNormBackward0" in repr(ours[0][0])
    for c, t in zip(ours[1] + ours[2], theirs[1] + theirs[2], strict=True):
        if dtype == np.float32:
            assert c.tobytes() == t.tobytes()
        else:
            np.testing.assert_allclose(c, t, rtol=1e-12, atol=1e-14)


def test_group_norm_plain_backward_still_takes_torchs_kernel(torch):
    """Without create_graph the gradients are the CPU kernel's (another rounding than the formula's)."""
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((4, 8, 6)) * 2 + 0.5).astype(np.float32)
    grads = []
    for lib in (core, torch):
        xi = lib.tensor(x, requires_grad=True)
        w, b = _params(lib, (8,), "weight+bias", lib.float32)
        lib.nn.functional.group_norm(xi, 4, w, b).sin().sum().backward()
        grads.append([t.grad.numpy().tobytes() for t in (xi, w, b)])
    assert grads[0] == grads[1]
