"""``linalg.vector_norm`` of a general order in float32 against torch bit for bit: NormOps' |x|^p by powf added in
memory order, powf(sum, 1/p), and norm_backward's grad / norm^(p-1) (p = 3: a cube-norm regulariser's gradient)."""

import numpy as np
import pytest

import core


@pytest.mark.parametrize("shape, dim, order", [
    ((4, 50), 1, 3), ((200, 50), 1, 3), ((50, 40), 0, 3), ((6, 7, 8), (0, 2), 3), ((300,), None, 3),
    ((20, 30), None, 4), ((20, 30), 1, 1.5), ((5, 6), -1, 2.5)])
def test_vector_norm_of_order_p_and_its_gradient_match_torch(torch, shape, dim, order):
    x = np.random.default_rng(len(shape) + int(order * 2)).standard_normal(shape).astype(np.float32)
    out = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = lib.linalg.vector_norm(t, ord=order, dim=dim)
        y.backward(lib.ones_like(y) * 0.7)
        out.append((y.detach().numpy(), t.grad.numpy()))
    np.testing.assert_array_equal(out[0][0], out[1][0])
    if float(order).is_integer():  # (a fractional order's |x|^(p-1) is SLEEF's powf in torch: see tensor ** number)
        np.testing.assert_array_equal(out[0][1], out[1][1])
