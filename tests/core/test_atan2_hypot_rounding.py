"""atan2 and hypot of float32 round as PyTorch's: computed in double and rounded once (the C library's atan2f and
hypotf are nearly correctly rounded; NumPy's float32 loops were 1-2 ulp off on a third of the elements, so
``atan2(1, 1)`` printed 0.78539812 where torch prints 0.78539819). PyTorch's vectorised atan2 on long arrays is
SLEEF's, which rounds a few percent of the elements the other way."""

from __future__ import annotations

import numpy as np
import pytest

import core


def _pair(n):
    rng = np.random.default_rng(0)
    return rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)


@pytest.mark.parametrize("name", ["atan2", "hypot"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "float64"])
def test_short_arrays_equal_torch_bit_for_bit(torch, name, dtype):
    x, y = _pair(7)
    ours = getattr(core, name)(core.tensor(x).to(getattr(core, dtype)), core.tensor(y).to(getattr(core, dtype)))
    theirs = getattr(torch, name)(torch.tensor(x).to(getattr(torch, dtype)), torch.tensor(y).to(getattr(torch, dtype)))
    assert np.array_equal(ours.float().numpy(), theirs.float().numpy())


def test_atan2_of_one_and_one_is_the_float_nearest_pi_over_four(torch):
    ours = core.atan2(core.tensor(1.0), core.tensor(1.0)).item()
    assert ours == torch.atan2(torch.tensor(1.0), torch.tensor(1.0)).item() == np.float32(np.pi / 4)


@pytest.mark.parametrize("name, share", [("atan2", 0.97), ("hypot", 1.0)])
def test_long_float32_arrays_agree_with_torch_on_nearly_every_element(torch, name, share):
    x, y = _pair(100_000)
    ours = getattr(core, name)(core.tensor(x), core.tensor(y)).numpy()
    theirs = getattr(torch, name)(torch.tensor(x), torch.tensor(y)).numpy()
    assert np.mean(ours == theirs) >= share
    np.testing.assert_allclose(ours, theirs, rtol=2.5e-7)
