"""Softmax over a dim other than the last, float32 and float64, as PyTorch's ``_vec_softmax`` computes it, bit for bit.

``_vec_softmax`` runs across the inner positions under ``at::parallel_for``: the ``outer * inner`` positions are cut
into one run per thread, and a position takes the vector branch (SLEEF's exp) only when a whole vector of them fits
in its run and in its row; the others take ``std::exp`` (glibc's). So the thread count changes torch's bits, and
core follows ``core.get_num_threads()`` (with one thread's split, 6% of a (32, 10, 5) softmax over dim 0 differed
on two threads). Float64's sums go along the dim left to right (NumPy's pairwise sum differed too). They run where
ATen's build is AVX-512 (``core._cpu.capability()``), where those steps were measured.
"""

import numpy as np
import pytest

import core
from core import _cpu

pytestmark = pytest.mark.skipif(_cpu.capability() != "AVX512", reason="core follows PyTorch's softmax kernels on "
                                "its AVX-512 build only (core._softmax_kernels)")

SHAPES = [((32, 10, 5), 0), ((3, 100, 17), 1), ((5, 7), 0), ((2, 3, 40, 9), 2), ((100, 3, 33), 0), ((17, 1), 0),
          ((4, 50, 64), 1)]


@pytest.fixture(params=[1, 2, 3], ids=["1-thread", "2-threads", "3-threads"])
def threads(request, torch):
    before = (torch.get_num_threads(), core.get_num_threads())
    torch.set_num_threads(request.param)
    core.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before[0])
    core.set_num_threads(before[1])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("shape", "dim"), SHAPES, ids=[f"{s}-dim{d}" for s, d in SHAPES])
def test_softmax_over_another_dim_gives_torchs_bits(torch, threads, dtype, shape, dim):
    x = (np.random.default_rng(sum(shape)).standard_normal(shape) * 4).astype(dtype)
    got = core.softmax(core.from_numpy(x), dim).numpy()
    want = torch.softmax(torch.from_numpy(x), dim).numpy()
    np.testing.assert_array_equal(got.view(f"u{x.itemsize}"), want.view(f"u{x.itemsize}"))


def test_a_module_and_a_transposed_input_give_torchs_bits(torch):
    x = np.random.default_rng(0).normal(0, 30, (40, 12, 6))
    for dt in ("float32", "float64"):
        a = x.astype(dt)
        got = core.nn.Softmax(dim=1)(core.from_numpy(a).transpose(0, 2)).numpy()
        want = torch.nn.Softmax(dim=1)(torch.from_numpy(a).transpose(0, 2)).numpy()
        np.testing.assert_array_equal(got, want)
