"""A sum over the leading dims of a C-contiguous float32 or float64 tensor of more than 2**24 elements, in PyTorch's
order: its cascade over the batch (``core._cascade_sum.batch_sums``), as for smaller tensors. core kept NumPy's
row-after-row sum above 2**24 elements, so Neuromatch Academy's VAE tutorial, which sums a (250, 784, 784) batch of
pixel outer products over the batch for a covariance, printed other last digits (86% of the 784x784 sums)."""

import numpy as np
import pytest

import core


@pytest.fixture(params=[1, 2], ids=lambda n: f"{n} threads")
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


@pytest.mark.parametrize("shape", [(64, 262147), (3, 5592406), (2, 40, 209716)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_huge_sum_over_leading_dims_matches_torch_bitwise(torch, threads, shape, dtype):
    a = np.random.default_rng(shape[-1]).random(shape).astype(dtype)
    c, t = core.tensor(a), torch.tensor(a)
    _same(c.sum(dim=0), t.sum(dim=0))
    _same(c.mean(dim=0, keepdim=True), t.mean(dim=0, keepdim=True))
    if len(shape) == 3:
        _same(c.sum(dim=(0, 1)), t.sum(dim=(0, 1)))


def test_the_vae_tutorials_covariance_of_a_batch_matches_torch_bitwise(torch, threads):
    im = np.random.default_rng(5).random((40, 650)).astype(np.float32)  # 40 * 650 * 650 > 2**24 products
    results = []
    for lib in (core, torch):
        x = lib.tensor(im)
        m1, m2 = x.sum(dim=0) / 40, (x.view(40, -1, 1) * x.view(40, 1, -1)).sum(dim=0) / 40
        results.append(m2 - m1.view(-1, 1) * m1.view(1, -1))
    _same(*results)
