"""``bn(x).sum().backward()`` bit for bit as PyTorch's at every size: ``SumBackward0`` hands on an expanded
(stride-0) gradient, for which batch norm's backward kernel takes ATen's generic loop (another summation order
than for a contiguous gradient); ``.mean()``'s gradient is a contiguous division result. A leaf's ``.grad``
from a sum stays contiguous, as PyTorch's AccumulateGrad clones an expanded gradient."""

import numpy as np
import pytest

import core

# 4,096 elements or fewer (core filled a contiguous gradient there) and above
SHAPES = [(8, 4), (3, 5, 7), (64, 64), (4, 3, 5, 5), (16, 8, 3, 3), (32, 16, 3, 3), (128, 40)]


def _run(lib, shape, reduction):
    x_np = (np.random.default_rng(shape[0] * 31 + shape[1]).standard_normal(shape) * 1.5 + 0.25).astype(np.float32)
    lib.manual_seed(0)
    bn = (lib.nn.BatchNorm2d if len(shape) == 4 else lib.nn.BatchNorm1d)(shape[1])
    with lib.no_grad():
        bn.weight.copy_(lib.linspace(0.5, 1.5, shape[1]))
        bn.bias.copy_(lib.linspace(-0.2, 0.3, shape[1]))
    x = lib.tensor(x_np, requires_grad=True)
    out = bn(x)
    seen = []
    out.register_hook(lambda g: seen.append(g.stride()))
    getattr(out, reduction)().backward()
    return [t.numpy().tobytes() for t in (x.grad, bn.weight.grad, bn.bias.grad)], seen, x.grad.stride()


@pytest.mark.parametrize("reduction", ["sum", "mean"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_batch_norm_gradients_from_a_reduced_output_match_torch_bitwise(torch, shape, reduction):
    ours, theirs = _run(core, shape, reduction), _run(torch, shape, reduction)
    assert ours[0] == theirs[0]  # input, weight and bias gradients
    assert ours[1:] == theirs[1:]  # the strides a hook sees (0 for the sum's) and the leaf gradient's


@pytest.mark.parametrize("shape", [(), (1,), (5,), (2, 3), (4, 1, 3)], ids=str)
def test_sum_gradient_strides_and_leaf_gradient_match_torch(torch, shape):
    seen, grads = [], []
    for lib in (core, torch):
        x = lib.arange(float(np.prod(shape, dtype=int))).reshape(shape).requires_grad_()
        y = x * 2
        y.register_hook(lambda g: seen.append(g.stride()))
        y.sum().backward()
        grads.append((x.grad.numpy().tobytes(), x.grad.stride(), x.grad.is_contiguous()))
    assert seen[0] == seen[1]
    assert grads[0] == grads[1]
