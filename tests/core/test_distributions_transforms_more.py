"""CorrCholesky, LowerCholesky, PositiveDefinite, CumulativeDistribution, Cat and Stack transforms against
PyTorch: forward and inverse values, log-det-Jacobians (and their gradients), shapes, codomain checks and
printing; and the corr_cholesky constraint."""

import numpy as np
import pytest

import core


def _x(lib, shape, seed=0):
    return lib.tensor(np.random.default_rng(seed).standard_normal(shape), requires_grad=True)


CASES = {
    "CorrCholesky": (lambda lib, d: d.CorrCholeskyTransform(), (2, 6)),
    "LowerCholesky": (lambda lib, d: d.LowerCholeskyTransform(), (2, 3, 3)),
    "PositiveDefinite": (lambda lib, d: d.PositiveDefiniteTransform(), (3, 3)),
    "CumulativeDistribution": (lambda lib, d: d.CumulativeDistributionTransform(
        d.Normal(lib.tensor(0.5, dtype=lib.float64), lib.tensor(2.0, dtype=lib.float64))), (4,)),
    "Cat": (lambda lib, d: d.CatTransform([d.ExpTransform(), d.AffineTransform(1.0, 3.0)], dim=1, lengths=[2, 1]),
            (2, 3)),
    "Stack": (lambda lib, d: d.StackTransform([d.ExpTransform(), d.SigmoidTransform()], dim=0), (2, 4)),
}


def _run(lib, name):
    make, shape = CASES[name]
    transform = make(lib, lib.distributions)
    x = _x(lib, shape)
    y = transform(x)
    back = transform.inv(y.detach())
    ladj = None if name in ("LowerCholesky", "PositiveDefinite") else transform.log_abs_det_jacobian(x, y)  # no ladj
    out = {"y": y, "back": back, "repr": repr(transform), "codomain": bool(transform.codomain.check(y).all())}
    if ladj is not None:
        (grad,) = lib.autograd.grad(ladj.sum(), x)
        out.update(ladj=ladj, grad=grad)
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_transform_matches_torch(name, torch):
    ours, theirs = _run(core, name), _run(torch, name)
    assert ours.keys() == theirs.keys()
    for key in ours:
        if key in ("repr", "codomain"):
            assert ours[key] == theirs[key], key
        else:
            np.testing.assert_allclose(ours[key].detach().numpy(), theirs[key].detach().numpy(), rtol=1e-10,
                                       atol=1e-12, err_msg=key)


def test_corr_cholesky_shapes_and_constraint_match_torch(torch):
    for lib in (core, torch):
        t = lib.distributions.CorrCholeskyTransform()
        assert tuple(t.forward_shape((5, 10))) == (5, 5, 5) and tuple(t.inverse_shape((5, 4, 4))) == (5, 6)
        with pytest.raises(ValueError, match="Input is not a flattened lower-diagonal number"):
            t.forward_shape((7,))
        check = lib.distributions.constraints.corr_cholesky.check
        assert check(lib.eye(3)).item() and not check(2 * lib.eye(3)).item()
