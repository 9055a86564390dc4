"""``optim.Adafactor`` against PyTorch's: factored (matrix) and full (vector) second moments, weight decay,
maximize, its state and printing, and its argument checks."""

import numpy as np
import pytest

import core


def _run(lib, steps=6, **kw):
    rng = np.random.default_rng(0)
    w = lib.tensor(rng.standard_normal((5, 3)).astype(np.float32), requires_grad=True)
    b = lib.tensor(rng.standard_normal(3).astype(np.float32), requires_grad=True)
    opt = lib.optim.Adafactor([w, b], **kw)
    for _ in range(steps):
        opt.zero_grad()
        w.grad = lib.tensor(rng.standard_normal((5, 3)).astype(np.float32))  # gradients given, no GEMM rounding
        b.grad = lib.tensor(rng.standard_normal(3).astype(np.float32))
        opt.step()
    return w.detach().numpy(), b.detach().numpy(), opt


@pytest.mark.parametrize("kw", [{}, {"lr": 0.1, "weight_decay": 0.05}, {"maximize": True, "d": 2.0},
                                {"eps": (1e-30, 1e-2), "beta2_decay": -0.5}])
def test_adafactor_steps_match_torch(kw, torch):
    ours, theirs = _run(core, **kw), _run(torch, **kw)
    for a, b in zip(ours[:2], theirs[:2]):
        np.testing.assert_allclose(a, b, rtol=2e-6, atol=1e-7)
    assert repr(ours[2]) == repr(theirs[2])
    state, tstate = ours[2].state_dict()["state"], theirs[2].state_dict()["state"]
    assert [list(s) for s in state.values()] == [list(s) for s in tstate.values()]  # step, row_var, col_var
    assert state[0]["row_var"].shape == tuple(tstate[0]["row_var"].shape)
    assert float(state[0]["step"]) == float(tstate[0]["step"]) == 6.0


@pytest.mark.parametrize("kw, message", [({"lr": -1.0}, "Learning rate should be >= 0"),
                                         ({"beta2_decay": 0.5}, "beta2_decay should be <= 0"),
                                         ({"eps": (-1.0, 1e-3)}, "epsilon1 should be >= 0"),
                                         ({"d": 0.5}, "Clipping threshold d should be >= 1"),
                                         ({"weight_decay": -1.0}, "weight_decay should be >= 0")])
def test_adafactor_refuses_bad_settings_as_torch(kw, message, torch):
    for lib in (core, torch):
        with pytest.raises(ValueError, match=message):
            lib.optim.Adafactor([lib.zeros(2, requires_grad=True)], **kw)
