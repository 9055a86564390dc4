"""Ops PyTorch's CPU kernels compute with a fused multiply-add give torch's values bit for bit.

``add``/``sub`` with ``alpha``, ``lerp``, ``addcmul`` (one rounding of ``a * b + c``) and ``addcdiv``
(``self + (value * t1) / t2``), and so SGD's whole trajectory (``param.add_(grad, alpha=-lr)``): before
``core/_fused.py`` about one element in fifty differed from torch in the last bit at every step.
"""

import numpy as np
import pytest

import core

SIZES = [7, 23, 1003]  # below, around and above a vector loop's width, so torch's tail path is covered too


def _pair(torch, n, dtype, seed=0):
    rng = np.random.default_rng(seed)
    arrays = [(rng.standard_normal(n) * 10).astype(dtype) for _ in range(3)]
    arrays[2] = np.abs(arrays[2]) + 0.5
    return [core.tensor(a) for a in arrays], [torch.tensor(a) for a in arrays]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("alpha", [-0.01, 0.1, 2.5, 3])
def test_add_and_sub_with_alpha_round_once_as_pytorch_does(torch, dtype, n, alpha):
    (a, b, _), (ta, tb, _) = _pair(torch, n, dtype)
    np.testing.assert_array_equal(core.add(a, b, alpha=alpha).numpy(), torch.add(ta, tb, alpha=alpha).numpy())
    np.testing.assert_array_equal(core.sub(a, b, alpha=alpha).numpy(), torch.sub(ta, tb, alpha=alpha).numpy())
    np.testing.assert_array_equal(a.clone().add_(b, alpha=alpha).numpy(), ta.clone().add_(tb, alpha=alpha).numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("weight", [0.1, 0.7, -0.3, 1.5])
def test_lerp_with_a_number_or_a_tensor_weight_equals_pytorchs(torch, dtype, n, weight):
    (a, b, w), (ta, tb, tw) = _pair(torch, n, dtype)
    np.testing.assert_array_equal(core.lerp(a, b, weight).numpy(), torch.lerp(ta, tb, weight).numpy())
    fraction, tfraction = w / 20, tw / 20
    np.testing.assert_array_equal(core.lerp(a, b, fraction).numpy(), torch.lerp(ta, tb, tfraction).numpy())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("value", [0.001, -2.5, 1])
def test_addcmul_and_addcdiv_equal_pytorchs(torch, dtype, n, value):
    (a, b, c), (ta, tb, tc) = _pair(torch, n, dtype)
    np.testing.assert_array_equal(core.addcmul(a, b, c, value=value).numpy(),
                                  torch.addcmul(ta, tb, tc, value=value).numpy())
    np.testing.assert_array_equal(core.addcdiv(a, b, c, value=value).numpy(),
                                  torch.addcdiv(ta, tb, tc, value=value).numpy())


@pytest.mark.parametrize("kwargs", [dict(lr=0.1), dict(lr=0.05, momentum=0.9),
                                    dict(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01),
                                    dict(lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.1),
                                    dict(lr=0.01, maximize=True, momentum=0.5)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sgd_follows_pytorchs_trajectory_bit_for_bit(torch, kwargs, dtype):
    start = np.random.default_rng(0).standard_normal(203).astype(dtype) * 0.5
    runs = []
    for lib in (core, torch):
        p = lib.tensor(start.copy(), requires_grad=True)
        opt = lib.optim.SGD([p], **kwargs)
        for _ in range(15):
            opt.zero_grad()
            (p * p * 0.5 + p * p * p * p * 0.05 - p * 0.7).sum().backward()
            opt.step()
        runs.append(p.detach().numpy().copy())
    assert np.isfinite(runs[0]).all()
    np.testing.assert_array_equal(runs[0], runs[1])


@pytest.mark.parametrize("shapes", [[(8, 2), (8,), (8, 8), (8,), (1, 8), (1,)], [(70, 70), (70,), (3, 70)]])
def test_plain_sgd_on_a_group_of_parameters_follows_pytorch_bit_for_bit(torch, shapes):
    """Small groups are updated laid end to end, larger ones one parameter at a time: both are torch's values."""
    rng = np.random.default_rng(1)
    starts = [(rng.standard_normal(s) * 0.5).astype(np.float32) for s in shapes]
    runs = []
    for lib in (core, torch):
        params = [lib.tensor(a.copy(), requires_grad=True) for a in starts]
        opt = lib.optim.SGD(params, lr=0.1)
        for _ in range(10):
            opt.zero_grad()
            sum(((p * p * 0.5 + p * p * p * 0.1 - p * 0.7).sum() for p in params)).backward()
            opt.step()
        runs.append([p.detach().numpy().copy() for p in params])
    for mine, theirs in zip(*runs):
        np.testing.assert_array_equal(mine, theirs)


def test_a_fused_add_keeps_pytorchs_broadcasting_error_and_gradients():
    with pytest.raises(RuntimeError, match="must match the size"):
        core.add(core.ones(2), core.ones(3), alpha=2)
    x = core.ones(3, requires_grad=True)
    core.add(x, x * 2, alpha=0.5).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
