"""``optim.Muon`` against PyTorch's: trajectories with and without Nesterov, weight decay and both learning-rate
adjustments, its state and printing, and its checks on settings and parameter shapes."""

import numpy as np
import pytest

import core


def _run(lib, shape=(6, 4), steps=4, dtype=np.float32, **kw):
    rng = np.random.default_rng(0)
    w = lib.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)
    opt = lib.optim.Muon([w], **kw)
    for _ in range(steps):
        opt.zero_grad()
        w.grad = lib.tensor(rng.standard_normal(shape).astype(dtype))
        opt.step()
    return w.detach().numpy(), opt


@pytest.mark.parametrize("kw", [{}, {"lr": 0.02, "nesterov": False}, {"weight_decay": 0.0, "momentum": 0.9},
                                {"adjust_lr_fn": "match_rms_adamw", "lr": 0.05},
                                {"ns_steps": 3, "ns_coefficients": (2.0, -1.5, 0.5)}])
@pytest.mark.parametrize("shape", [(6, 4), (3, 7)])
def test_muon_steps_match_torch_bit_for_bit_on_small_matrices(kw, shape, torch):
    ours, theirs = _run(core, shape, **kw), _run(torch, shape, **kw)
    np.testing.assert_array_equal(ours[0], theirs[0])
    assert repr(ours[1]) == repr(theirs[1])
    buf, tbuf = (opt.state[opt.param_groups[0]["params"][0]] for opt in (ours[1], theirs[1]))
    assert list(buf) == list(tbuf) == ["momentum_buffer"]
    np.testing.assert_array_equal(buf["momentum_buffer"].numpy(), tbuf["momentum_buffer"].numpy())


def test_muon_steps_float64_parameters_as_torch(torch):
    ours, theirs = _run(core, (5, 5), dtype=np.float64), _run(torch, (5, 5), dtype=np.float64)
    assert ours[0].dtype == np.float64
    np.testing.assert_array_equal(ours[0], theirs[0])


def test_muon_orthogonalises_a_large_update_to_bfloat16_rounding_of_torch(torch):
    ours, theirs = _run(core, (48, 40), steps=2), _run(torch, (48, 40), steps=2)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=0, atol=2e-5)  # lr 1e-3 times a bfloat16 unit


@pytest.mark.parametrize("kw, message", [({"lr": -1.0}, "Learning rate should be >= 0"),
                                         ({"momentum": -0.1}, "momentum should be >= 0"),
                                         ({"weight_decay": -1.0}, "weight decay should be >= 0"),
                                         ({"adjust_lr_fn": "rms"}, "Adjust learning rate function rms is not")])
def test_muon_refuses_bad_settings_as_torch(kw, message, torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=message):
            lib.optim.Muon([lib.zeros(2, 2, requires_grad=True)], **kw)


def test_muon_refuses_parameters_that_are_not_matrices_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=r"Muon only supports 2D parameters whereas we found a parameter with "
                                             r"size: torch.Size\(\[3\]\)"):
            lib.optim.Muon([lib.zeros(3, requires_grad=True)])


def test_muon_refuses_too_many_newton_schulz_steps_as_torch(torch):
    for lib in (core, torch):
        w = lib.zeros(2, 2, requires_grad=True)
        w.grad = lib.ones(2, 2)
        with pytest.raises(ValueError, match="Number of steps must be less than 100"):
            lib.optim.Muon([w], ns_steps=100).step()
