"""torch.special's Bessel, Airy, zeta and orthogonal-polynomial functions against PyTorch: values (polynomials to
1e-12 in float64; J0/J1/Y0/Y1 to 1e-13 of PyTorch's own approximations, which are ~1e-6 off near their zeros;
the rest of the Bessel family to PyTorch's own accuracy, ~1e-6 in its mid range, and to ~1e-13 of mpmath's exact
values), special points (0, infinities, NaN, negative arguments), dtypes, and gradients (none
recorded, as in PyTorch; zeta's backward refuses with PyTorch's message)."""

import numpy as np
import pytest

import core

POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v", "chebyshev_polynomial_w",
               "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
               "shifted_chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
               "laguerre_polynomial_l", "legendre_polynomial_p"]
UNARY = {"bessel_j0": "besselj(0, x)", "bessel_j1": "besselj(1, x)", "bessel_y0": "bessely(0, x)",
         "bessel_y1": "bessely(1, x)", "modified_bessel_i0": "besseli(0, x)", "modified_bessel_i1": "besseli(1, x)",
         "modified_bessel_k0": "besselk(0, x)", "modified_bessel_k1": "besselk(1, x)",
         "scaled_modified_bessel_k0": "besselk(0, x) * exp(x)", "scaled_modified_bessel_k1": "besselk(1, x) * exp(x)",
         "airy_ai": "airyai(x)", "spherical_bessel_j0": "sinc(x)"}
POINTS = np.concatenate([np.linspace(-1.5, 1.5, 31), [-1.0, 1.0, 0.0, 0.5]])


@pytest.mark.parametrize("name", POLYNOMIALS)
@pytest.mark.parametrize("dtype, rtol", [("float64", 1e-12), ("float32", 2e-5)])
def test_polynomial_matches_torch_for_every_degree(name, dtype, rtol, torch):
    x = POINTS.astype(dtype)
    for n in (-1, 0, 1, 2, 3, 7, 8, 9, 12, 30):
        ours = getattr(core.special, name)(core.tensor(x), n)
        theirs = getattr(torch.special, name)(torch.tensor(x), n)
        assert str(ours.dtype) == str(theirs.dtype)
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=rtol, atol=rtol)


def test_polynomial_takes_a_tensor_of_degrees_and_records_no_gradient(torch):
    results = []
    for lib in (core, torch):
        x = lib.tensor([0.3, 0.7, -0.2], dtype=lib.float64, requires_grad=True)
        y = lib.special.chebyshev_polynomial_t(x, lib.tensor([3, 12, 0]))
        assert not y.requires_grad and y.grad_fn is None
        results.append(y.numpy())
    np.testing.assert_allclose(results[0], results[1], rtol=1e-12)


def _grid():
    return np.concatenate([np.linspace(-30, 30, 121), [1e-8, 7.9999, 8.0001, 24.999, 25.001, 60.5, 400.25]])


@pytest.mark.parametrize("name", list(UNARY))
def test_bessel_family_matches_torch_to_its_kernels_accuracy(name, torch):
    x = _grid()
    ours = getattr(core.special, name)(core.tensor(x)).numpy()
    theirs = getattr(torch.special, name)(torch.tensor(x)).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-6, equal_nan=True)


TORCHS_APPROXIMATIONS = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1"]  # (core evaluates torch's formulas)


@pytest.mark.parametrize("name", TORCHS_APPROXIMATIONS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_bessel_j_and_y_match_torchs_approximations_closely(name, dtype, torch):
    x = np.concatenate([_grid(), np.linspace(4.9, 5.6, 57), -np.linspace(4.9, 5.6, 57)]).astype(dtype)
    ours = getattr(core.special, name)(core.tensor(x)).numpy()
    theirs = getattr(torch.special, name)(torch.tensor(x)).numpy()
    tol = 1e-13 if dtype == "float64" else 2e-6
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("name", [name for name in UNARY if name not in TORCHS_APPROXIMATIONS])
def test_bessel_family_is_accurate_to_mpmaths_exact_values(name, torch):
    mpmath = pytest.importorskip("mpmath")
    x = _grid()[::4]
    if name.endswith(("y0", "y1", "k0", "k1")):
        x = x[x > 0]
    exact = np.array([float(eval(UNARY[name], {**vars(mpmath), "x": mpmath.mpf(v)})) for v in x])
    ours = getattr(core.special, name)(core.tensor(x)).numpy()
    np.testing.assert_allclose(ours, exact, rtol=1e-13, atol=1e-14)


@pytest.mark.parametrize("name", list(UNARY))
def test_bessel_family_special_points_and_dtypes_match_torch(name, torch):
    x = [0.0, -0.0, -2.0, float("inf"), float("-inf"), float("nan"), 800.0, -800.0]
    ours = getattr(core.special, name)(core.tensor(x, dtype=core.float64))
    theirs = getattr(torch.special, name)(torch.tensor(x, dtype=torch.float64))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6, atol=0, equal_nan=True)
    assert str(getattr(core.special, name)(core.tensor(x)).dtype) == "torch.float32"
    assert str(getattr(core.special, name)(core.tensor([1, 2])).dtype) == "torch.float32"


def test_bessel_family_records_no_gradient(torch):
    for lib in (core, torch):
        y = lib.special.bessel_j0(lib.tensor([0.5, 1.5], requires_grad=True))
        assert not y.requires_grad and y.grad_fn is None


def test_zeta_matches_torch_and_refuses_backward_as_torch(torch):
    x, q = [1.5, 2.0, 3.0, 4.5, 10.0, 1.0001, 2.0, 3.0, 0.5, 1.0], [1, 2, 0.5, 10, 3, 1, -1.5, -2.5, 1, 1]
    ours = core.special.zeta(core.tensor(x, dtype=core.float64), core.tensor(q, dtype=core.float64))
    theirs = torch.special.zeta(torch.tensor(x, dtype=torch.float64), torch.tensor(q, dtype=torch.float64))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-15, equal_nan=True)
    assert core.special.zeta(2.0, core.tensor([1.0, 2.0])).tolist() == pytest.approx(
        torch.special.zeta(2.0, torch.tensor([1.0, 2.0])).tolist(), rel=1e-7)
    for lib in (core, torch):
        y = lib.special.zeta(lib.tensor([2.0], requires_grad=True), lib.tensor([1.0]))
        assert type(y.grad_fn).__name__ == "SpecialZetaBackward0"
        with pytest.raises(RuntimeError, match="the derivative for 'zeta' is not implemented."):
            y.sum().backward()
