"""torch.svd_lowrank and torch.pca_lowrank against PyTorch: after the same seed, the same singular values and
the same singular vectors (up to each pair's sign, which NumPy's SVD picks differently from PyTorch's), with and
without the M term, and pca_lowrank's argument checks."""

import numpy as np
import pytest

import core


def _data(lib):
    rng = np.random.default_rng(0)
    return lib.tensor(rng.standard_normal((20, 8)) @ rng.standard_normal((8, 12)))


def _same_factors(ours, theirs, rtol=1e-10):
    (u, s, v), (tu, ts, tv) = ([t.detach().numpy() for t in f] for f in (ours, theirs))
    np.testing.assert_allclose(s, ts, rtol=rtol)
    signs = np.sign(np.sum(u * tu, axis=0))  # each column pair may flip together
    np.testing.assert_allclose(u * signs, tu, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(v * signs, tv, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("transpose", [False, True])
def test_svd_lowrank_draws_torchs_basis_and_gives_its_factors(transpose, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(0)
        a = _data(lib)
        results.append(lib.svd_lowrank(a.T if transpose else a, q=5))
    _same_factors(*results)


def test_svd_lowrank_subtracts_m_as_torch(torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(2)
        results.append(lib.svd_lowrank(_data(lib), q=3, M=lib.ones(20, 12, dtype=lib.float64) * 0.1))
    _same_factors(*results)


@pytest.mark.parametrize("kw", [{}, {"q": 4, "center": False}, {"niter": 0}])
def test_pca_lowrank_matches_torch(kw, torch):
    results = []
    for lib in (core, torch):
        lib.manual_seed(1)
        results.append(lib.pca_lowrank(_data(lib).T.float(), **kw))
    _same_factors(*results, rtol=2e-4)


@pytest.mark.parametrize("kw, message", [({"q": 13}, r"q\(=13\) must be non-negative integer and not greater than"),
                                         ({"niter": -1}, r"niter\(=-1\) must be non-negative integer")])
def test_pca_lowrank_refuses_bad_arguments_as_torch(kw, message, torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=message):
            lib.pca_lowrank(_data(lib), **kw)


def test_svd_lowrank_is_differentiable():
    core.manual_seed(0)
    a = _data(core).requires_grad_()
    core.svd_lowrank(a, q=3)[1].sum().backward()
    assert a.grad.shape == a.shape and bool(core.isfinite(a.grad).all())
