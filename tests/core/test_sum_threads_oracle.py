"""A sum (or mean) to one value of more than 32,767 float32 or float64 elements as PyTorch adds it on 2, 3 or 4
threads: ATen's two-pass reduction cuts the elements into min(threads, ceil(n / 32768)) chunks, sums each in one
thread's order into its own slot and sums the slots. core kept NumPy's sum there, so a VAE's reconstruction loss
over (128, 784) elements (``reduction='sum'``/``'mean'``) and any big ``x.sum()`` printed other last digits."""

import numpy as np
import pytest

import core

SIZES = [(32767,), (32768,), (32769,), (40001,), (65536,), (65537,), (98305,), (128, 784), (256, 784),
         (3, 100, 1001), (1000001,)]


@pytest.fixture(params=[2, 3, 4], ids=lambda n: f"{n} threads")
def threads(request, torch):
    before = core.get_num_threads(), torch.get_num_threads()
    core.set_num_threads(request.param)
    torch.set_num_threads(request.param)
    yield request.param
    core.set_num_threads(before[0])
    torch.set_num_threads(before[1])


def _same(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert c.tobytes() == t.tobytes(), (c, t)


@pytest.mark.parametrize("shape", SIZES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_long_sum_and_mean_to_one_value_match_torch_bitwise(torch, threads, shape, dtype):
    a = np.random.default_rng(len(shape) + shape[-1]).standard_normal(shape).astype(dtype)
    c, t = core.tensor(a), torch.tensor(a)
    _same(c.sum(), t.sum())
    _same(c.mean(), t.mean())
    _same(core.sum(c, dim=tuple(range(c.ndim)), keepdim=True), torch.sum(t, dim=tuple(range(t.ndim)), keepdim=True))


@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_a_vae_sized_loss_reduction_matches_torch_bitwise(torch, threads, reduction):
    rng = np.random.default_rng(3)
    x, y = (rng.random((128, 784)).astype(np.float32) for _ in range(2))
    results = []
    for lib in (core, torch):
        xi = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.mse_loss(xi, lib.tensor(y), reduction=reduction)
        loss.backward()
        results.append((loss, xi.grad))
    for c, t in zip(*results, strict=True):
        _same(c, t)


@pytest.mark.parametrize("shape, perm", [((64, 1000), (1, 0)), ((1000, 64), (1, 0)), ((8, 300, 20), (2, 0, 1)),
                                         ((100, 10), (1, 0)), ((3, 11000), (1, 0))], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_permuted_tensors_sum_and_mean_to_one_value_add_in_memory_order_as_torch(torch, threads, shape, perm, dtype):
    """``x.T.mean()``: PyTorch's iterator coalesces a dense permuted view into one contiguous row, so its sum to one
    value is the contiguous tensor's (core added a long one as NumPy's pairwise sum)."""
    a = np.random.default_rng(shape[0]).standard_normal(shape).astype(dtype) * 3 + 1.5
    c, t = core.tensor(a).permute(*perm), torch.tensor(a).permute(*perm)
    _same(c.sum(), t.sum())
    _same(c.mean(), t.mean())
    _same(c.sum(dim=tuple(range(c.ndim)), keepdim=True), t.sum(dim=tuple(range(t.ndim)), keepdim=True))
