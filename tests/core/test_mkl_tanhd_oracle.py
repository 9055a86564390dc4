"""core._mkl_tanhd: torch's float64 ``tanh`` on an AMD CPU (MKL's SSE kernel ``vmdTanh``), bit for bit.

torch hands every float64 tanh (any size, any layout, in place, ``nn.Tanh``) to MKL, whose SSE kernel on an AMD CPU
evaluates one of 60 degree-10 polynomials in float64 steps; NumPy's tanh differs from it in ~16% of elements. The
steps use no CPU estimate, so the oracle tests run where ``core._cpu.mkl_vml_sse()`` holds (an AMD CPU); the table's
own properties are checked on every CPU.
"""

import numpy as np
import pytest

import core
from core import _cpu, _mkl_tanhd

amd = pytest.mark.skipif(not _cpu.mkl_vml_sse(), reason="torch's float64 tanh here is not MKL's SSE kernel "
                         "(core._cpu.mkl_vml_sse): core keeps NumPy's")

RNG = np.random.default_rng(29)
TINY = np.ldexp(RNG.uniform(1, 2, 300), RNG.integers(-1074, -400, 300)) * RNG.choice([-1, 1], 300)
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 5e-324, -5e-324, 2.2250738585072014e-308,
                     1e-300, -1e-300, 1.7e308, -1.7e308, 8.98846567431158e307, 1e300, 19.99, 20.0, 21.9, 22.0, -22.5,
                     0.1171875, -0.1171875, 0.11718749999999999, 0.125, 1.0, -1.0, 2.0 ** -26, 2.0 ** -991])
VALUES = np.concatenate([SPECIALS, TINY] + [RNG.normal(0, k, 3000) for k in (1, 5, 20)]
                        + [RNG.uniform(-25, 25, 1000)])
SIZES = [1, 7, 8, 9, 16, 17, 100, 10007]


def _bits_equal(ours, theirs, any_nan=False):
    """Every element's bits equal; with ``any_nan`` a NaN matches any NaN (a NaN input's gradient: core's fma of
    ``-y`` flips the NaN's sign where x86's fused negated multiply-add keeps it)."""
    ours, theirs = np.asarray(ours, np.float64), np.asarray(theirs, np.float64)
    same = ours.view(np.uint64) == theirs.view(np.uint64)
    return bool((same | (any_nan & np.isnan(ours) & np.isnan(theirs))).all())


def _interval_start(i):
    """The first |x| of interval i >= 1: high word 0x3FBE0000 + i 0x20000 (an eighth of a binade each)."""
    return float(np.array((0x3FBE0000 + i * 0x20000) << 32, np.uint64).view(np.float64))


def test_each_intervals_polynomial_is_tanh_within_a_few_ulps_on_its_interval():
    rows = _mkl_tanhd._rows()
    for i in range(59):  # 0: [0, 0.125), then [start_i, start_i+1), 59: from 20 on
        a = np.linspace(0.0 if i == 0 else _interval_start(i), _interval_start(i + 1), 1001)[1:-1]
        r = a + rows[12, i]
        p = rows[0, i] + rows[1, i] + sum(rows[j + 1, i] * r ** j for j in range(1, 11))
        assert (np.abs(p - np.tanh(a)) / np.tanh(a)).max() < 2.0 ** -50
    assert rows[1, 59] == 1 and not rows[np.arange(13) != 1, 59].any()  # from 20 on: 1


def test_core_tanh_keeps_numpys_off_an_amd_cpu_and_its_other_dtypes():
    x = RNG.uniform(-5, 5, 1000)
    expected = _mkl_tanhd.vtanh(x) if _cpu.mkl_vml_sse() else np.tanh(x)
    assert _bits_equal(core.tanh(core.from_numpy(x)).numpy(), expected)
    assert core.tanh(core.tensor(x, dtype=core.complex128)).dtype == core.complex128


def _tanh(lib, x, view=lambda t: t):
    t = lib.tensor(x, requires_grad=True)
    y = view(t).tanh()
    y.backward(view(lib.ones_like(t)))
    return y.detach().numpy(), t.grad.numpy()


@amd
@pytest.mark.parametrize("size", SIZES + [VALUES.size])
def test_tanh_and_its_gradient_equal_torchs_bit_for_bit(torch, one_thread, size):
    x = VALUES[:size] if size != 8 else VALUES[-8:]
    (y, g), (ty, tg) = _tanh(core, x), _tanh(torch, x)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg, any_nan=True)


@amd
@pytest.mark.parametrize("k", [1, 5, 20])
def test_normal_samples_of_each_scale_equal_torchs(torch, k):
    x = RNG.normal(0, k, 50000)
    assert _bits_equal(core.from_numpy(x).tanh().numpy(), torch.from_numpy(x).tanh().numpy())


@amd
def test_random_bit_patterns_and_tiny_values_at_every_tail_length_equal_torchs(torch):
    x = RNG.integers(0, 2 ** 64, 100000, dtype=np.uint64).view(np.float64)
    assert _bits_equal(core.from_numpy(x).tanh().numpy(), torch.from_numpy(x).tanh().numpy())
    for n in range(1, 9):
        t = TINY[:n * 20].reshape(20, n)
        assert _bits_equal(core.from_numpy(t).tanh().numpy(), torch.from_numpy(t).tanh().numpy())


@amd
@pytest.mark.parametrize("view", [lambda t: t[::3], lambda t: t.reshape(50, 80)[:, :37],
                                  lambda t: t.reshape(80, 50).T, lambda t: t[7:3907:2]],
                         ids=["stepped", "rows", "transposed", "offset"])
def test_tanh_of_a_view_equals_torchs(torch, one_thread, view):
    x = VALUES[:4000]
    (y, g), (ty, tg) = _tanh(core, x, view), _tanh(torch, x, view)
    assert _bits_equal(y, ty)
    assert _bits_equal(g, tg, any_nan=True)


@amd
def test_the_tanh_module_function_in_place_out_and_zero_dim_forms_equal_torchs(torch):
    x = VALUES[:333]
    for c_fn, t_fn in [(core.nn.Tanh(), torch.nn.Tanh()), (core.nn.functional.tanh, torch.nn.functional.tanh),
                       (core.Tensor.tanh_, torch.Tensor.tanh_)]:
        assert _bits_equal(c_fn(core.tensor(x)).numpy(), t_fn(torch.tensor(x)).numpy())
    out, tout = core.empty(333, dtype=core.float64), torch.empty(333, dtype=torch.float64)
    core.tanh(core.tensor(x), out=out)
    torch.tanh(torch.tensor(x), out=tout)
    assert _bits_equal(out.numpy(), tout.numpy())
    for v in VALUES[:60]:
        assert _bits_equal(core.tensor(v).tanh().numpy(), torch.tensor(v).tanh().numpy())
