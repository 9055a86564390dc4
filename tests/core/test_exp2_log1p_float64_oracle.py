"""float64 ``exp2`` and ``log1p`` against torch 2.13's CPU bits (#19): both are SLEEF's u10 functions
(``Vectorized<double>::exp2``/``log1p``), exp2 in ``cpu_kernel_vec``'s two-vector steps with glibc's ``exp2`` on the
tail and strided inputs, log1p on every element (VML's map pads the tail). core rounded both correctly before, which
differed from torch in ~7% of elements (measured on an AMD Zen 3 with AVX2; SLEEF's steps are the same source on
AVX-512)."""

import numpy as np
import pytest

import core

pytestmark = pytest.mark.cpu_only  # (the bits are PyTorch's CPU kernels')

SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -1.5, 1e308, 5e-324, -5e-324, 1023.9, 1024.0, -1074.5, -1075.0,
            -1100.0, 2000.0, -2000.5, 1e-300, -0.999999999]


def _same_bits(ours, theirs):
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    assert ours.dtype == theirs.dtype == np.float64 and ours.shape == theirs.shape
    assert ours.view(np.int64).tolist() == theirs.view(np.int64).tolist()


@pytest.mark.parametrize("op", ["exp2", "log1p"])
def test_float64_exp2_and_log1p_over_their_ranges_random_bits_and_special_values_give_torchs_bits(torch, op):
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2 ** 63, 50_000, dtype=np.int64).view(np.float64) * rng.choice([-1.0, 1.0], 50_000)
    x = np.concatenate([rng.uniform(-20, 20, 100_000), rng.uniform(-1, 1e4, 20_000), bits, SPECIALS])
    _same_bits(getattr(core, op)(core.from_numpy(x)).numpy(), getattr(torch, op)(torch.from_numpy(x)).numpy())


@pytest.mark.parametrize("op", ["exp2", "log1p"])
def test_float64_every_small_size_slices_transposes_a_0d_tensor_and_the_gradient_give_torchs_bits(torch, op):
    rng = np.random.default_rng(1)
    for n in [*range(1, 20), 33, 16385]:
        row = rng.uniform(-0.9, 20, n)
        _same_bits(getattr(core, op)(core.from_numpy(row)).numpy(), getattr(torch, op)(torch.from_numpy(row)).numpy())
    x = rng.uniform(-0.9, 20, (40, 30))
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(lib, op)(t[:, :25])
        (g,) = lib.autograd.grad(y.sum(), t)
        d = lib.from_numpy(x.copy())
        results.append([y.detach(), getattr(d.t(), op)(), getattr(d[:, ::3], op)(), getattr(d[3, 4], op)(), g])
    for ours, theirs in zip(*results):
        _same_bits(ours.numpy(), theirs.numpy())
