"""``core.nn.grad`` against ``torch.nn.grad``: a convolution's input and weight gradients from a given output
gradient, in 1-D, 2-D and 3-D with strides, padding, dilation and groups, in float32 and float64; the results are
differentiable as torch's and a ``grad_output`` of the wrong shape raises torch's error.
"""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

# (n, input shape, weight shape, stride, padding, dilation, groups)
CASES = [
    (1, (2, 3, 9), (4, 3, 3), 1, 0, 1, 1),
    (1, (1, 4, 11), (6, 2, 3), 2, 1, 2, 2),
    (2, (2, 2, 7, 6), (3, 2, 3, 2), 1, 0, 1, 1),
    (2, (1, 4, 9, 8), (4, 2, 3, 3), (2, 1), (1, 2), (1, 2), 2),
    (2, (1, 3, 8, 8), (6, 1, 3, 3), 3, 1, 1, 3),
    (3, (1, 2, 5, 6, 4), (3, 2, 2, 3, 2), 1, 0, 1, 1),
    (3, (1, 2, 7, 6, 5), (2, 1, 3, 2, 2), (2, 1, 2), 1, (1, 2, 1), 2),
]


def _arrays(case, dtype, seed=0):
    n, x_shape, w_shape, stride, padding, dilation, groups = case
    rng = np.random.default_rng(seed)
    x, w = rng.standard_normal(x_shape).astype(dtype), rng.standard_normal(w_shape).astype(dtype)
    import torch  # the output's shape, to draw a grad_output of it

    conv = getattr(torch.nn.functional, f"conv{n}d")
    out_shape = conv(torch.tensor(x), torch.tensor(w), None, stride, padding, dilation, groups).shape
    return x, w, rng.standard_normal(tuple(out_shape)).astype(dtype)


def _run(lib, case, x, w, g):
    n, _, _, stride, padding, dilation, groups = case
    grad = lib.nn.grad
    gi = getattr(grad, f"conv{n}d_input")(x.shape, lib.tensor(w), lib.tensor(g), stride, padding, dilation, groups)
    gw = getattr(grad, f"conv{n}d_weight")(lib.tensor(x), w.shape, lib.tensor(g), stride, padding, dilation, groups)
    return gi, gw


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES)
def test_conv_input_and_weight_gradients_equal_torchs(torch, case, dtype):
    x, w, g = _arrays(case, dtype)
    tol = dict(rtol=1e-12, atol=1e-12) if dtype == np.float64 else dict(rtol=1e-5, atol=1e-5)
    assert_same(_run(core, case, x, w, g), _run(torch, case, x, w, g), **tol)


@pytest.mark.parametrize("case", CASES[1::2])
def test_gradients_equal_what_autograd_gives_for_the_convolution(case):
    n, _, _, stride, padding, dilation, groups = case
    x, w, g = (core.tensor(a) for a in _arrays(case, np.float64))
    x.requires_grad_(), w.requires_grad_()
    out = getattr(core.nn.functional, f"conv{n}d")(x, w, None, stride, padding, dilation, groups)
    expected = core.autograd.grad(out, (x, w), g)
    assert_same(list(_run(core, case, x.detach().numpy(), w.detach().numpy(), g.numpy())), list(expected),
                rtol=1e-12, atol=1e-12)


def _differentiable(lib, case, x, w, g):
    n, _, _, stride, padding, dilation, groups = case
    weight, grad_out = lib.tensor(w, requires_grad=True), lib.tensor(g, requires_grad=True)
    gi = getattr(lib.nn.grad, f"conv{n}d_input")(x.shape, weight, grad_out, stride, padding, dilation, groups)
    (gi * gi).sum().backward()
    plain = getattr(lib.nn.functional.grad, f"conv{n}d_input")(x.shape, weight.detach(), grad_out.detach(),
                                                              stride, padding, dilation, groups)
    return [weight.grad, grad_out.grad], (gi.requires_grad, plain.requires_grad)


@pytest.mark.parametrize("case", CASES[:4])
def test_results_are_differentiable_in_grad_output_and_weight(torch, case):
    x, w, g = _arrays(case, np.float64)
    ours, theirs = _differentiable(core, case, x, w, g), _differentiable(torch, case, x, w, g)
    assert_same(ours[0], theirs[0], rtol=1e-10, atol=1e-10)
    assert ours[1] == theirs[1] == (True, False)


def test_a_grad_output_of_the_wrong_shape_raises_torchs_error(torch):
    def run(lib):
        w, g = lib.ones(4, 2, 3, 3), lib.ones(1, 4, 3, 3)
        try:
            lib.nn.grad.conv2d_input((1, 2, 6, 6), w, g)
        except RuntimeError as e:
            return str(e)

    assert run(core) == run(torch)
