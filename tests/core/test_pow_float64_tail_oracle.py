"""float64 ``tensor ** number`` as PyTorch's CPU kernel computes it (oracle: torch 2.13).

Its ``pow_tensor_scalar_optimized_kernel`` is a ``cpu_kernel_vec`` loop: SLEEF's ``pow_u10`` on two vectors (16
doubles) at a time, ``std::pow(double, double)``, the C library's ``pow``, on the rest: all of a tensor under 16
elements, the last ``n % 16`` of a longer one, every element of a strided one. core takes the C library's ``pow``
there and SLEEF's ``pow_u10`` (core._sleef_powd) in the vector steps, so every element is PyTorch's bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core

PAIR = 16  # doubles in two AVX-512 vectors: one step of the vector loop
EXPONENTS = (-0.2, 0.3, 1.7, 2.5, -1.3, 7.0, 5, 1e-3)
SPECIAL = (0.0, -0.0, -1.5, 1.0, float("inf"), float("-inf"), float("nan"), 5e-324, 1e300)


def _bases(n: int) -> list:
    return np.random.default_rng(n).uniform(0.01, 20.0, n).tolist()


def _powers(values, exponent, transform=lambda t: t):
    """``transform(tensor) ** exponent`` of the float64 ``values`` under core and torch, as NumPy arrays."""
    ours = (transform(core.tensor(values, dtype=core.float64)) ** exponent).numpy()
    theirs = (transform(torch.tensor(values, dtype=torch.float64)) ** exponent).numpy()
    return ours, theirs


@pytest.mark.parametrize("exponent", EXPONENTS)
@pytest.mark.parametrize("n", [1, 2, 5, 15, 16, 17, 31, 40, 100])
def test_float64_power_of_a_number_is_pytorchs_in_short_tensors_and_tails(n, exponent):
    ours, theirs = _powers(_bases(n), exponent)
    cut = n - n % PAIR
    assert ours[cut:].tobytes() == theirs[cut:].tobytes()  # the C library's pow
    assert ours[:cut].tobytes() == theirs[:cut].tobytes()  # the vector steps: SLEEF's pow_u10


def test_the_reported_one_element_power_is_pytorchs():
    ours, theirs = _powers([0.6413260972136376], -0.2)
    assert ours.tobytes() == theirs.tobytes()


@pytest.mark.parametrize("exponent", [*EXPONENTS, float("inf"), float("-inf"), float("nan"), -3.0])
def test_float64_power_of_special_bases_is_pytorchs(exponent):
    ours, theirs = _powers(list(SPECIAL), exponent)
    assert ours.tobytes() == theirs.tobytes()


def test_a_strided_float64_tensor_takes_the_c_librarys_pow_throughout():
    ours, theirs = _powers(_bases(80), 1.7, lambda t: t[::2])
    assert ours.tobytes() == theirs.tobytes()


def test_a_zero_dim_float64_tensor_takes_the_c_librarys_pow():
    ours = (core.tensor(0.6413260972136376, dtype=core.float64) ** -0.2).item()
    theirs = (torch.tensor(0.6413260972136376, dtype=torch.float64) ** -0.2).item()
    assert ours.hex() == theirs.hex()


@pytest.mark.parametrize("n", [3, 21])
def test_float64_power_gradient_of_a_short_tensor_and_a_tail_is_pytorchs(n):
    """The backward's ``exponent * self.pow(exponent - 1)`` runs the same kernel."""
    grads = []
    for lib in (core, torch):
        x = lib.tensor(_bases(n), dtype=lib.float64, requires_grad=True)
        (x ** -0.7).sum().backward()
        grads.append(x.grad.numpy())
    assert grads[0].tobytes() == grads[1].tobytes()
