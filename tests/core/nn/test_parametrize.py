"""nn.utils.parametrize, parametrizations.weight_norm and the hook-based weight_norm behave as PyTorch's."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

W = np.random.default_rng(0).standard_normal((3, 3)).astype(np.float32)


def linear(lib, n_in=3, n_out=3):
    layer = lib.nn.Linear(n_in, n_out)
    with lib.no_grad():
        layer.weight.copy_(lib.tensor(W[:n_out, :n_in]))
        layer.bias.zero_()
    return layer


def symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(-1, -2)
    return Symmetric()


def skew(lib):
    class Skew(lib.nn.Module):
        def forward(self, x):
            a = x.triu(1)
            return a - a.transpose(-1, -2)

        def right_inverse(self, a):
            return a.triu(1)
    return Skew()


def test_registered_parametrization_gives_torchs_weight_repr_keys_and_gradient(torch):
    results = []
    for lib in (core, torch):
        m = lib.nn.utils.parametrize.register_parametrization(linear(lib), "weight", symmetric(lib))
        m(lib.ones(2, 3)).sum().backward()
        results.append((repr(m), list(m.state_dict()), type(m).__name__, m.weight,
                        m.parametrizations.weight.original.grad,
                        lib.nn.utils.parametrize.type_before_parametrizations(m).__name__))
    assert results[0][:3] == results[1][:3] and results[0][5] == results[1][5] == "Linear"
    assert_same(results[0][3:5], results[1][3:5])


def test_assignment_stores_the_right_inverse_and_chained_parametrizations_apply_in_order(torch):
    x = W - W.T
    results = []
    for lib in (core, torch):
        m = lib.nn.utils.parametrize.register_parametrization(linear(lib), "weight", skew(lib))
        m.weight = lib.tensor(x)
        original = m.parametrizations.weight.original
        lib.nn.utils.parametrize.register_parametrization(m, "weight", skew(lib))
        results.append((original.detach().clone(), m.weight, repr(m.parametrizations.weight)))
    assert results[0][2] == results[1][2]
    assert_same(results[0][:2], results[1][:2])


def test_cached_computes_a_parametrized_tensor_once_per_block():
    m = core.nn.utils.parametrize.register_parametrization(linear(core), "weight", symmetric(core))
    with core.nn.utils.parametrize.cached():
        assert m.weight is m.weight
    assert m.weight is not m.weight


@pytest.mark.parametrize("leave", [True, False])
def test_remove_parametrizations_puts_back_a_plain_parameter(torch, leave):
    results = []
    for lib in (core, torch):
        m = lib.nn.utils.parametrize.register_parametrization(linear(lib), "weight", symmetric(lib))
        lib.nn.utils.parametrize.remove_parametrizations(m, "weight", leave_parametrized=leave)
        results.append((type(m).__name__, list(m.state_dict()), hasattr(m, "parametrizations"), m.weight))
    assert results[0][:3] == results[1][:3] == ("Linear", ["bias", "weight"], False)  # weight registered again
    assert_same(results[0][3], results[1][3])


@pytest.mark.parametrize("dim", [0, 1, None])
def test_weight_norm_parametrization_matches_torchs_values_keys_and_gradients(torch, dim):
    results = []
    for lib in (core, torch):
        m = lib.nn.utils.parametrizations.weight_norm(linear(lib, 3, 2), dim=dim)
        m(lib.ones(2, 3)).sum().backward()
        p = m.parametrizations.weight
        results.append((list(m.state_dict()), m.weight, p.original0, p.original0.grad, p.original1.grad))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1:], results[1][1:])


def test_hook_weight_norm_splits_recombines_and_removes_like_torchs(torch):
    results = []
    for lib in (core, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m = lib.nn.utils.weight_norm(linear(lib, 3, 2))
        keys = list(m.state_dict())
        out = m(lib.ones(1, 3))
        out.sum().backward()
        grads = (m.weight_g.grad, m.weight_v.grad)
        lib.nn.utils.remove_weight_norm(m)
        results.append(([w.category.__name__ for w in caught], keys, out, grads, list(m.state_dict()), m.weight))
    assert results[0][0] == results[1][0] == ["FutureWarning"]
    assert results[0][1] == results[1][1] and results[0][4] == results[1][4]
    assert_same(results[0][2:4] + results[0][5:], results[1][2:4] + results[1][5:])


def test_parametrize_errors_are_torchs(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element"):
            lib.nn.utils.parametrize.register_parametrization(linear(lib), "nope", symmetric(lib))
        with pytest.raises(ValueError, match="does not have a parametrization on weight"):
            lib.nn.utils.parametrize.remove_parametrizations(linear(lib), "weight")
        with pytest.raises(ValueError, match="weight_norm of 'weight' not found"):
            lib.nn.utils.remove_weight_norm(linear(lib))


def spectral_run(lib, make, training=True):
    """A seeded spectral_norm module after one forward/backward: its keys, buffers, weight and gradient."""
    lib.manual_seed(0)
    m = make(lib)
    m.train(training)
    m(lib.ones(2, 5)).sum().backward()
    return m


@pytest.mark.parametrize("training", [True, False])
def test_spectral_norm_parametrization_draws_iterates_and_divides_as_torchs(torch, training):
    results = []
    for lib in (core, torch):
        m = spectral_run(lib, lambda lib: lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(5, 4)), training)
        p = m.parametrizations.weight
        results.append((repr(m), list(m.state_dict()), p[0]._u, p[0]._v, m.weight, p.original.grad))
    assert results[0][:2] == results[1][:2]
    assert_same(results[0][2:], results[1][2:], rtol=1e-5, atol=1e-6)


def test_hook_spectral_norm_matches_torchs_and_removes_to_a_plain_parameter(torch):
    results = []
    for lib in (core, torch):
        m = spectral_run(lib, lambda lib: lib.nn.utils.spectral_norm(lib.nn.Linear(5, 4), n_power_iterations=2))
        before = (list(m.state_dict()), m.weight_u.clone(), m.weight.detach().clone(), m.weight_orig.grad)
        lib.nn.utils.remove_spectral_norm(m)
        results.append(before + (list(m.state_dict()), m.weight))
        with pytest.raises(ValueError, match="spectral_norm of 'weight' not found"):
            lib.nn.utils.remove_spectral_norm(m)
    assert results[0][0] == results[1][0] and results[0][4] == results[1][4] == ["bias", "weight"]
    assert_same(results[0][1:4] + results[0][5:], results[1][1:4] + results[1][5:], rtol=1e-5, atol=1e-6)


def test_spectral_norm_of_a_transposed_convolution_normalises_dim_1_as_torch(torch):
    dims = [lib.nn.utils.parametrizations.spectral_norm(lib.nn.ConvTranspose2d(3, 2, 3)).parametrizations.weight[0].dim
            for lib in (core, torch)]
    assert dims == [1, 1]


ORTHOGONAL = [((4, 4), {}), ((5, 3), {}), ((3, 5), {}), ((4, 4), {"orthogonal_map": "cayley"}),
              ((5, 3), {"orthogonal_map": "matrix_exp"}), ((5, 3), {"use_trivialization": False}),
              ((4, 4), {"orthogonal_map": "householder", "use_trivialization": False})]


@pytest.mark.parametrize(("shape", "kw"), ORTHOGONAL, ids=["square", "tall", "wide", "cayley", "exp-tall",
                                                           "householder-plain", "householder-square-plain"])
def test_orthogonal_parametrization_gives_torchs_weight_buffers_and_gradient(torch, shape, kw):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        m = lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(shape[1], shape[0]), **kw)
        m(lib.ones(2, shape[1])).sum().backward()
        results.append((list(m.state_dict()), m.weight, m.parametrizations.weight.original.grad))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1:], results[1][1:], rtol=1e-5, atol=1e-6)


def test_orthogonal_rejects_a_vector_and_an_unknown_map_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match="Expected a matrix or batch of matrices"):
            lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(2, 2), name="bias")
        with pytest.raises(ValueError, match="orthogonal_map has to be one of"):
            lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(2, 2), orthogonal_map="qr")
