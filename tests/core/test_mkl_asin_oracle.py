"""core._mkl_asin: torch's float32 ``asin`` and ``acos`` on AMD Zen 4 (MKL's SSE kernels from the CPU's rsqrtps).

About 5.6% of torch's float32 asins and 8.7% of its acoss of x in [-1, 1] differ from the correctly rounded values
there. The kernels start from ``rsqrtps``, whose bits only Zen 4's table in core reproduces, so the oracle tests run
where ``core._cpu.mkl_vml_sse_sqrt()`` holds; elsewhere core keeps the correctly rounded functions.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_asin
from tests.core.oracle import assert_float32_bits

zen4 = pytest.mark.skipif(not _cpu.mkl_vml_sse_sqrt(), reason="torch's float32 asin/acos here are not MKL's SSE "
                          "kernels on AMD Zen 4's rsqrtps (core._cpu.mkl_vml_sse_sqrt): core keeps its own")


def _bits(a):
    return np.asarray(a).view(np.uint32)


def _floats(first, last, step=1):
    """The float32s whose bits lie in [first, last), every ``step``-th."""
    return np.arange(first, last, step, dtype=np.uint32).view(np.float32)


@zen4
@pytest.mark.parametrize("op", ["asin", "acos"])
@pytest.mark.parametrize("first, last", [(0x00000000, 0x00800000), (0x3A800000, 0x3B000000), (0x3E800000, 0x3F000000),
                                         (0x3F000000, 0x3F800001)],
                         ids=["subnormal", "[2^-10,2^-9)", "[1/4,1/2)", "[1/2,1]"])
def test_every_third_float_of_a_binade_gives_torchs_bits(torch, op, first, last):
    x = _floats(first, last, 3)
    x = np.concatenate([x, -x])
    assert_float32_bits(getattr(_mkl_asin, "v" + op)(x), getattr(torch.from_numpy(x), op)().numpy())


@zen4
@pytest.mark.parametrize("op", ["asin", "acos"])
def test_every_float_next_to_one_and_a_half_and_special_values_give_torchs_bits(torch, op):
    """Where 1 - |x| loses its bits (rsqrtps of a tiny z, and z < 2^-32 where the estimate is dropped) and where
    the two formulas meet, plus random bit patterns (NaN outside [-1, 1])."""
    x = np.concatenate([_floats(0x3F7E0000, 0x3F800002), _floats(0x3EFFF000, 0x3F001000),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45], np.float32),
                        np.random.default_rng(5).integers(0, 2 ** 32, 200_000, dtype=np.uint32).view(np.float32)])
    x = np.concatenate([x, -x])
    assert_float32_bits(getattr(core, op)(core.from_numpy(x)).numpy(), getattr(torch, op)(torch.from_numpy(x)).numpy())


@zen4
@pytest.mark.parametrize("n", [1, 7, 17, 16385])
@pytest.mark.parametrize("op", ["asin", "acos"])
def test_every_size_layout_and_form_and_the_gradient_give_torchs_bits(torch, op, n):
    x = np.random.default_rng(n).uniform(-1, 1, n).astype(np.float32)
    results = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        y = getattr(t, op)()
        (g,) = lib.autograd.grad((y * y).sum(), t)
        d = lib.from_numpy(x.copy())
        into = lib.empty(n)
        getattr(lib, op)(d, out=into)
        results.append([y.detach(), getattr(d[::2], op)(), getattr(d.clone(), op + "_")(), into, g])
    for got, want in zip(*results):
        assert_float32_bits(got.numpy(), want.numpy())
