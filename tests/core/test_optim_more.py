"""Adamax, NAdam, RAdam, Rprop and ASGD follow PyTorch's trajectories step for step."""

import numpy as np
import pytest

import core
from tests.core.test_optim import _trajectory

OPTIMIZERS = [
    ("Adamax", dict()),
    ("Adamax", dict(lr=0.05, betas=(0.8, 0.99), weight_decay=0.1, maximize=True)),
    ("NAdam", dict()),
    ("NAdam", dict(lr=0.05, weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.05, weight_decay=0.1)),
    ("RAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True, betas=(0.5, 0.9))),
    ("Rprop", dict()),
    ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.2), maximize=True)),
    ("ASGD", dict()),
    ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=10, weight_decay=0.1)),
]


@pytest.mark.parametrize(("name", "kwargs"), OPTIMIZERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OPTIMIZERS)])
def test_optimizer_matches_pytorch_trajectory_in_float64(torch, name, kwargs):
    results = []
    for lib in (torch, core):  # NAdam's mu_product and ASGD's eta follow the default dtype, as in torch
        lib.set_default_dtype(lib.float64)
        try:
            results.append(_trajectory(lib, name, kwargs))
        finally:
            lib.set_default_dtype(lib.float32)
    theirs, ours = results
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10)


@pytest.mark.parametrize("name", ["Adamax", "NAdam", "RAdam", "Rprop", "ASGD"])
def test_optimizer_matches_pytorch_in_float32(torch, name):
    def run(lib):
        p = lib.tensor(np.linspace(-1, 1, 6, dtype=np.float32), requires_grad=True)
        opt = getattr(lib.optim, name)([p], lr=0.05)
        for _ in range(10):
            opt.zero_grad()
            ((p - 0.3) ** 2 * p.abs()).sum().backward()
            opt.step()
        return p.detach().numpy(), {k: v for k, v in opt.state_dict()["state"][0].items()}
    (ours, our_state), (theirs, their_state) = run(core), run(torch)
    np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
    assert sorted(our_state) == sorted(their_state)
    for key, value in their_state.items():
        assert str(our_state[key].dtype).split(".")[-1] == str(value.dtype).split(".")[-1], key
        assert tuple(our_state[key].shape) == tuple(value.shape), key


def test_bad_hyperparameters_raise_value_error(torch):
    p = core.tensor([1.0], requires_grad=True)
    for make, message in ((lambda: core.optim.NAdam([p], momentum_decay=-1), "momentum_decay"),
                          (lambda: core.optim.Rprop([p], etas=(1.5, 2.0)), "eta values"),
                          (lambda: core.optim.Adamax([p], betas=(1.0, 0.9)), "beta parameter at index 0")):
        with pytest.raises(ValueError, match=message):
            make()
