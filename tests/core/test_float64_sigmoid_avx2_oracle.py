"""float64 ``sigmoid`` on an AVX2 CPU (ATen's AVX2 build): torch's vector loop takes SLEEF's ``expd_u10`` on
4-double vectors, core NumPy's ``exp``: within two ulps of torch there (an ulp of ``1 + exp(-x)`` is up to two of
its reciprocal), torch's bits where its scalar loop runs.

The port of SLEEF's steps (``core.ops.math_unary._sigmoid_double``, taken on AVX-512) gives torch's bits here too
(measured on the AMD Zen 3: 0 of 510,000 inputs differed, against 2.7% with NumPy's exp), but costs 27-130x a call
(8 elements 3.4 -> 430 us, 10^5 0.84 -> 23 ms), so core keeps NumPy's exp on AVX2: a last-bit difference no printout
shows is not worth that (as float64 ``log1p``/``exp2``). The scalar loop (a strided view, the last ``n % 8``
elements, a short tensor) is glibc's ``exp`` in both, bit for bit.
"""

import numpy as np
import pytest

import core

RNG = np.random.default_rng(37)
SPECIALS = [0.0, -0.0, np.inf, -np.inf, 1e300, -1e300, 1e-300, -1e-300, 5e-324, 709.0, -709.0, 745.2, -745.2, 36.7,
            -36.7, 20.0, -20.0]
VALUES = np.concatenate([SPECIALS, RNG.normal(0, 8, 20000), RNG.uniform(-1e-3, 1e-3, 500)])

pytestmark = pytest.mark.skipif(core._cpu.capability() != "AVX2", reason="float64 steps of ATen's AVX2 build")


def _ulps(ours, theirs):
    """Distance in units in the last place between two float64 arrays of finite or infinite values."""
    def key(a):
        bits = a.view(np.int64)
        return np.where(bits < 0, np.int64(-(2 ** 63)) - bits, bits)  # ordered like the floats, -0 next to +0
    return np.abs(key(ours) - key(theirs))


def test_contiguous_sigmoid_is_within_two_ulps_of_torchs(torch):
    ours = core.tensor(VALUES).sigmoid().numpy()
    theirs = torch.tensor(VALUES).sigmoid().numpy()
    assert _ulps(ours, theirs).max() <= 2
    assert (ours.view(np.int64) == theirs.view(np.int64)).mean() > 0.95


@pytest.mark.parametrize("view", [lambda t: t[::3], lambda t: t[:7]], ids=["stepped", "short"])
def test_sigmoid_of_a_strided_or_short_tensor_equals_torchs_bit_for_bit(torch, view):
    ours = view(core.tensor(VALUES)).sigmoid().numpy()
    theirs = view(torch.tensor(VALUES)).sigmoid().numpy()
    assert (ours.view(np.int64) == theirs.view(np.int64)).all()
