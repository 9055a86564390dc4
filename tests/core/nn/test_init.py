"""nn.init: PyTorch's gains, fans and bounds; draws reproducible under core.manual_seed."""

import math

import numpy as np
import pytest

import core
import core.nn as nn
from core.nn import init


def test_calculate_gain_matches_torch(torch):
    for name, param in [("linear", None), ("conv2d", None), ("sigmoid", None), ("tanh", None), ("relu", None),
                        ("leaky_relu", None), ("leaky_relu", 0.2), ("selu", None)]:
        assert init.calculate_gain(name, param) == pytest.approx(torch.nn.init.calculate_gain(name, param))
    with pytest.raises(ValueError, match="Unsupported nonlinearity"):
        init.calculate_gain("swish")
    with pytest.raises(ValueError, match="not a valid number"):
        init.calculate_gain("leaky_relu", True)


def test_fan_in_and_fan_out_match_torch(torch):
    for shape in [(3, 4), (8, 3, 5, 5), (2, 6, 3)]:
        assert init._calculate_fan_in_and_fan_out(core.empty(shape)) == \
            torch.nn.init._calculate_fan_in_and_fan_out(torch.empty(shape))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init._calculate_fan_in_and_fan_out(core.empty(3))


def _stats(t):
    a = t.detach().numpy().astype(np.float64)
    return a.mean(), a.std(), np.abs(a).max()


def test_uniform_and_kaiming_uniform_bounds_match_torch_formulas():
    w = core.empty(400, 300)
    init.kaiming_uniform_(w, a=math.sqrt(5))
    bound = 1 / math.sqrt(300)
    mean, std, top = _stats(w)
    assert top <= bound and top > 0.99 * bound and abs(std - bound / math.sqrt(3)) < 0.01 * bound
    init.kaiming_uniform_(w, mode="fan_out", nonlinearity="relu")
    assert _stats(w)[2] <= math.sqrt(6 / 400)
    init.uniform_(w, -2, 3)
    assert -2 <= float(w.min()) and float(w.max()) <= 3


def test_normal_family_has_the_torch_standard_deviations():
    w = core.empty(500, 400)
    init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(_stats(w)[1] - math.sqrt(2 / 500)) < 0.01 * math.sqrt(2 / 500)
    init.xavier_normal_(w, gain=2.0)
    assert abs(_stats(w)[1] - 2 * math.sqrt(2 / 900)) < 0.01 * 2 * math.sqrt(2 / 900)
    init.xavier_uniform_(w)
    assert _stats(w)[2] <= math.sqrt(6 / 900)
    init.normal_(w, 1.0, 0.5)
    mean, std, _ = _stats(w)
    assert abs(mean - 1.0) < 0.01 and abs(std - 0.5) < 0.01


def test_trunc_normal_stays_in_bounds():
    w = init.trunc_normal_(core.empty(10000), std=1.0, a=-0.5, b=1.0)
    a = w.numpy()
    assert a.min() >= -0.5 and a.max() <= 1.0 and a.std() > 0.3


def test_constant_ones_zeros_eye_and_dirac(torch):
    assert init.constant_(core.empty(2, 2), 0.5).tolist() == [[0.5, 0.5], [0.5, 0.5]]
    assert init.ones_(core.empty(2)).tolist() == [1.0, 1.0]
    assert init.zeros_(core.empty(2)).tolist() == [0.0, 0.0]
    assert init.eye_(core.empty(2, 3)).tolist() == torch.nn.init.eye_(torch.empty(2, 3)).tolist()
    assert np.array_equal(init.dirac_(core.empty(4, 2, 3, 3), groups=2).numpy(),
                          torch.nn.init.dirac_(torch.empty(4, 2, 3, 3), groups=2).numpy())
    with pytest.raises(ValueError, match="Only tensors with 2 dimensions"):
        init.eye_(core.empty(3))


def test_orthogonal_gives_orthonormal_rows_or_columns():
    for shape in [(4, 6), (6, 4), (3, 2, 2)]:
        w = init.orthogonal_(core.empty(shape), gain=2.0).numpy().reshape(shape[0], -1).astype(np.float64)
        small = w @ w.T if shape[0] <= w.shape[1] else w.T @ w
        np.testing.assert_allclose(small, 4 * np.eye(small.shape[0]), atol=1e-5)


def test_initialisers_run_under_no_grad_on_parameters_and_bump_the_version():
    p = nn.Parameter(core.empty(3, 3))
    v = p._version
    init.xavier_uniform_(p)
    assert p.requires_grad and p.is_leaf and p._version > v


def test_manual_seed_makes_module_initialisation_reproducible():
    core.manual_seed(7)
    a = nn.Linear(5, 3).weight.detach().numpy().copy()
    core.manual_seed(7)
    b = nn.Linear(5, 3).weight.detach().numpy()
    assert np.array_equal(a, b)


def test_kaiming_on_an_empty_tensor_warns_and_does_nothing():
    with pytest.warns(UserWarning, match="Initializing zero-element tensors is a no-op"):
        init.kaiming_uniform_(core.empty(0, 3))
