"""``F.pad(mode='circular')``'s input gradient bit for bit as PyTorch's: ATen's ``_pad_circular`` is a composite of
copies into the output (the middle, then per dim from the last its left and right wrap, read from the output
itself), so autograd adds each wrapped part's gradient to the part it was read from, in the reverse order of the
copies; corners of a 2-d or 3-d padding pass through two or three such sums."""

import numpy as np
import pytest

import core

CASES = [((2, 3, 5), (2, 1)), ((2, 3, 5), (5, 5)), ((3, 5), (1, 4)), ((2, 3, 8), (0, 3)),
         ((2, 3, 5, 6), (2, 1, 1, 3)), ((1, 2, 4, 4), (4, 4, 4, 4)), ((3, 4, 4), (3, 2, 4, 1)),
         ((2, 3, 6, 7), (-1, 2, 3, -2)), ((2, 2, 3, 4, 5), (1, 2, 3, 1, 2, 2)), ((1, 3, 4, 4, 4), (2, 2, 2, 2, 2, 2))]


@pytest.mark.parametrize(("shape", "pad"), CASES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_circular_padding_gradient_matches_torch_bitwise(torch, shape, pad, dtype):
    rng = np.random.default_rng(len(shape) + sum(pad))
    x = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(torch.nn.functional.pad(torch.tensor(x), pad, mode="circular").shape).astype(dtype)
    results = []
    for lib in (core, torch):
        xi = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.pad(xi, pad, mode="circular")
        y.backward(lib.tensor(g))
        results.append((y.detach().numpy(), xi.grad.numpy()))
    for c, t in zip(*results, strict=True):
        assert c.shape == t.shape and c.tobytes() == t.tobytes()


def test_circular_padding_gradient_under_create_graph_matches_torch(torch):
    """The gradient as a graph (a gradient penalty's route): its values, and the gradient of a function of it."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 3, 5, 6)).astype(np.float32)
    results = []
    for lib in (core, torch):
        xi = lib.tensor(x, requires_grad=True)
        y = lib.nn.functional.pad(xi, (2, 1, 1, 3), mode="circular")
        (gx,) = lib.autograd.grad((y * y).sum(), xi, create_graph=True)
        (gx * gx).sum().backward()
        results.append((gx.detach().numpy(), xi.grad.numpy()))
    for c, t in zip(*results, strict=True):
        np.testing.assert_array_equal(c, t)
