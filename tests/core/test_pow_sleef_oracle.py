"""float32 ``pow`` of tensors (``number ** tensor`` too) against torch bit for bit: SLEEF's ``powf_u10`` in the
kernel's vector steps, the C library's ``powf`` in its tail and on strided operands (core._sleef_pow). A
sinusoidal positional encoding's ``10000 ** (2i / d)`` and ``2 ** x``'s gradient come out as torch's."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_float32_bits


@pytest.mark.parametrize("base", [2.0, 10.0, 10000.0, 0.5, 3.7])
@pytest.mark.parametrize("n", [1, 31, 32, 45, 1000])
def test_number_to_the_power_of_a_float32_tensor_matches_torch(torch, base, n):
    x = (np.random.default_rng(n).standard_normal(n) * 5).astype(np.float32)
    assert_float32_bits((base ** core.tensor(x)).numpy(), (base ** torch.tensor(x)).numpy())


@pytest.mark.parametrize("view", ["transposed", "row slice", "permuted", "every other row"])
def test_pow_of_views_takes_torchs_vector_and_scalar_forms(torch, view):
    take = {"transposed": lambda t: t.T, "row slice": lambda t: t[:, :70], "permuted": lambda t: t.permute(2, 0, 1),
            "every other row": lambda t: t[::2]}[view]
    shape = {"transposed": (70, 9), "row slice": (5, 100), "permuted": (4, 6, 50), "every other row": (40, 40)}[view]
    rng = np.random.default_rng(len(view))
    x = np.abs(rng.standard_normal(shape).astype(np.float32)) + np.float32(0.1)
    y = (rng.standard_normal(shape) * 3).astype(np.float32)
    ours, theirs = (lib.pow(take(lib.tensor(x)), take(lib.tensor(y))).numpy() for lib in (core, torch))
    assert_float32_bits(ours, theirs)
    ours, theirs = ((2.0 ** take(lib.tensor(y))).numpy() for lib in (core, torch))
    assert_float32_bits(ours, theirs)


@pytest.mark.parametrize("shapes", [((40, 1), (1, 50)), ((40, 50), (50,)), ((3, 1, 70), (5, 1))])
def test_broadcast_pow_matches_torch(torch, shapes):
    rng = np.random.default_rng(0)
    x = np.abs(rng.standard_normal(shapes[0]).astype(np.float32)) + np.float32(0.1)
    y = rng.standard_normal(shapes[1]).astype(np.float32)
    ours = core.pow(core.tensor(x), core.tensor(y)).numpy()
    assert_float32_bits(ours, torch.pow(torch.tensor(x), torch.tensor(y)).numpy())


def test_pow_special_values_match_torch(torch):
    sp = np.array([0, -0.0, 1, -1, np.inf, -np.inf, np.nan, 2, -2, 0.5, -0.5, 1e-30, 3e38], np.float32)
    b, e = (np.ascontiguousarray(np.tile(a.ravel(), 3)) for a in np.meshgrid(sp, sp))
    ours = core.pow(core.tensor(b), core.tensor(e)).numpy()
    assert_float32_bits(ours, torch.pow(torch.tensor(b), torch.tensor(e)).numpy())


def test_gradient_of_two_to_the_x_matches_torch(torch):
    x = (np.random.default_rng(1).standard_normal(1000) * 3).astype(np.float32)
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (2 ** t).backward(lib.tensor(np.linspace(-1, 1, 1000, dtype=np.float32)))
        grads.append(t.grad.numpy())
    assert_float32_bits(*grads)


def test_sinusoidal_positional_encoding_frequencies_match_torch(torch):
    d = 64
    ours = (10000 ** (core.arange(0, d, 2) / d)).numpy()
    assert_float32_bits(ours, (10000 ** (torch.arange(0, d, 2) / d)).numpy())


@pytest.mark.parametrize("exponent", [1.5, 0.7, 2.5, 4.0, 0.25, 0.5])
@pytest.mark.parametrize("n", [20, 45, 1000])
def test_float32_tensor_to_a_number_matches_torch(torch, exponent, n):
    """The vector steps are SLEEF's powf_u10 with the exponent as a float, the tail the C library's pow of a double;
    ``x ** 0.5`` is torch's sqrt (MKL's on this CPU)."""
    x = np.abs(np.random.default_rng(n).standard_normal(n).astype(np.float32)) * np.float32(3)
    assert_float32_bits((core.tensor(x) ** exponent).numpy(), (torch.tensor(x) ** exponent).numpy())


def test_square_root_as_a_power_matches_torch_in_float64(torch):
    x = np.random.default_rng(2).random(1000) * 10
    np.testing.assert_array_equal((core.tensor(x) ** 0.5).numpy(), (torch.tensor(x) ** 0.5).numpy())


def test_gradient_of_x_to_the_one_and_a_half_matches_torch(torch):
    x = np.abs(np.random.default_rng(3).standard_normal(1000).astype(np.float32))
    grads = []
    for lib in (core, torch):
        t = lib.tensor(x, requires_grad=True)
        (t ** 1.5).sum().backward()
        grads.append(t.grad.numpy())
    assert_float32_bits(*grads)
