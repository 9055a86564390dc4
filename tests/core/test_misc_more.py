"""Small ``torch.*`` functions against PyTorch: detach, is_signed, get_device, i0/i0_, igamma/igammac (values and
which argument differentiates), the in-place ldexp_/gcd_/lcm_, histogramdd and empty_permuted's strides."""

import numpy as np
import pytest

import core


def test_detach_is_signed_and_get_device_answer_as_torch(torch):
    for lib in (core, torch):
        x = lib.ones(2, requires_grad=True)
        assert not lib.detach(x).requires_grad
        assert (lib.is_signed(x), lib.is_signed(lib.ones(1, dtype=lib.uint8))) == (True, False)
        assert lib.get_device(x) == -1


def test_i0_and_its_in_place_form_match_torch(torch):
    ours, theirs = (lib.i0_(lib.tensor([0.0, 1.0, 2.5, -3.0], dtype=lib.float64)) for lib in (core, torch))
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-14)
    np.testing.assert_allclose(core.i0(core.tensor([1, 2])).numpy(), torch.i0(torch.tensor([1, 2])).numpy(),
                               rtol=1e-6)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_igamma_values_and_gradient_in_x_match_torch(name, torch):
    results = []
    for lib in (core, torch):
        a = lib.tensor([0.5, 1.0, 2.0, 3.5], dtype=lib.float64)
        x = lib.tensor([0.3, 1.0, 3.0, 1.0], dtype=lib.float64, requires_grad=True)
        y = getattr(lib, name)(a, x)
        y.sum().backward()
        results.append((y.detach().numpy(), x.grad.numpy()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-12)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-12)


def test_igamma_refuses_a_gradient_in_its_first_argument_as_torch(torch):
    for lib in (core, torch):
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        with pytest.raises(RuntimeError, match="the derivative for 'igamma: input' is not implemented."):
            lib.igamma(a, lib.tensor([1.0, 2.0])).sum().backward()


def test_in_place_ldexp_gcd_and_lcm_at_the_top_level_match_torch(torch):
    results = []
    for lib in (core, torch):
        x, n = lib.tensor([1.0, 3.0]), lib.tensor([2, 3])
        a, b = lib.tensor([12, 18]), lib.tensor([8, 27])
        results.append((lib.ldexp_(x, n).numpy(), lib.gcd_(a.clone(), b).numpy(), lib.lcm_(a.clone(), b).numpy(),
                        x.numpy()))
    for ours, theirs in zip(*results):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("kw", [{"bins": [3, 4, 2]}, {"bins": 3, "range": [-1.0, 1, -2, 2, 0, 1], "density": True},
                                {"bins": 2, "weight": "arange"}])
def test_histogramdd_counts_and_edges_match_torch(kw, torch):
    printed = []
    for lib in (core, torch):
        points = lib.tensor(np.random.default_rng(0).standard_normal((50, 3)).astype(np.float32))
        args = dict(kw, weight=lib.arange(50.0)) if kw.get("weight") else kw
        printed.append(str(lib.histogramdd(points, **args)))
    assert printed[0] == printed[1]


def test_histogramdd_takes_explicit_edges_per_dim_as_torch(torch):
    printed = []
    for lib in (core, torch):
        points = lib.tensor([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [-0.5, 0.2]])
        printed.append(str(lib.histogramdd(points, bins=[lib.tensor([-1.0, 0.0, 2.0]), lib.tensor([0.0, 0.5, 2.0])])))
    assert printed[0] == printed[1]


def test_empty_permuted_lays_out_memory_in_the_given_order_as_torch(torch):
    for shape, order in [((2, 3, 4), (0, 2, 1)), ((2, 3, 4, 5), (0, 2, 3, 1))]:
        ours, theirs = core.empty_permuted(shape, order), torch.empty_permuted(shape, order)
        assert ours.stride() == theirs.stride() and tuple(ours.shape) == tuple(theirs.shape)
