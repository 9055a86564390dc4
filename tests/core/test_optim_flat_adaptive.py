"""RMSprop and Adagrad update a group on flat buffers; every value equals the per-parameter update exactly.

The flat routes (core/optim/_flat_adaptive.py) must be invisible: the same parameters bit for bit as the
per-parameter route (each op is elementwise), PyTorch's trajectory, ``optimizer.state[p]`` holding each
parameter's own state tensors in torch's order, and state dicts that save and load.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core

_SHAPES = [(4, 3), (4,), (2, 4), (2,), (1, 2), ()]


def _params(lib, shapes=_SHAPES, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [lib.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in shapes]


def _loss(ps, k):
    """A loss whose gradients change every step; ``k`` selects which parameters take part (the rest get none)."""
    total = 0.0
    for i, p in enumerate(ps):
        if k is None or i not in k:
            total = total + (p * p * (i + 1)).sum() * 0.5 + (p * p * p * 0.3).sum()
    return total


def _run(lib, kwargs, steps=10, skip=None, reload_at=None, dtype=np.float64, shapes=_SHAPES, seed=0):
    kwargs = dict(kwargs)
    name = kwargs.pop("name", "RMSprop")
    ps = _params(lib, shapes, seed, dtype)
    opt = getattr(lib.optim, name)(ps, **kwargs)
    for step in range(steps):
        opt.zero_grad()
        _loss(ps, (skip or {}).get(step)).backward()
        opt.step()
        if step == reload_at:
            saved = opt.state_dict()
            opt = getattr(lib.optim, name)(ps, **kwargs)
            opt.load_state_dict(saved)
    return [p.detach().numpy().copy() for p in ps], opt


def _per_parameter(monkeypatch):
    for name in ("RMSprop", "Adagrad"):
        monkeypatch.setattr(getattr(core.optim, name), "_update_group", core.optim.Optimizer._update_group)


CASES = [dict(lr=0.01), dict(lr=0.01, momentum=0.9), dict(lr=0.01, centered=True),
         dict(lr=1e-3, momentum=0.9, centered=True, weight_decay=0.05), dict(lr=0.02, alpha=0.9, maximize=True),
         dict(name="Adagrad", lr=0.05), dict(name="Adagrad", lr=0.05, lr_decay=0.01, weight_decay=0.1, eps=1e-6),
         dict(name="Adagrad", lr=0.05, initial_accumulator_value=0.5, maximize=True)]


@pytest.mark.parametrize("kwargs", CASES)
def test_flat_route_follows_pytorchs_trajectory(torch, kwargs):
    skip = {3: {1, 4}, 8: {0, 5}}
    ours, _ = _run(core, kwargs, skip=skip, reload_at=6)
    theirs, _ = _run(torch, kwargs, skip=skip, reload_at=6)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("kwargs", CASES)
def test_flat_float32_parameters_equal_the_per_parameter_route_bit_for_bit(kwargs, monkeypatch):
    skip = {3: {1, 4}, 8: {0, 5}}
    shapes = _SHAPES + [(40, 30)]  # (one above the fused kernels' 512-element saxpy threshold, the group too)
    flat, _ = _run(core, kwargs, skip=skip, reload_at=6, dtype=np.float32, shapes=shapes)
    _per_parameter(monkeypatch)
    per_parameter, _ = _run(core, kwargs, skip=skip, reload_at=6, dtype=np.float32, shapes=shapes)
    for a, b in zip(flat, per_parameter):
        assert a.dtype == np.float32
        np.testing.assert_array_equal(a, b)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(shapes=st.lists(st.lists(st.integers(1, 40), max_size=2).map(tuple), min_size=1, max_size=5),
       seed=st.integers(0, 2 ** 16), momentum=st.sampled_from([0, 0.5]), centered=st.booleans(),
       weight_decay=st.sampled_from([0, 0.1]), maximize=st.booleans(), dtype=st.sampled_from([np.float32, np.float64]),
       adagrad=st.booleans())
def test_random_groups_flat_equal_the_per_parameter_route(shapes, seed, momentum, centered, weight_decay, maximize,
                                                          dtype, adagrad):
    kwargs = dict(lr=0.01, weight_decay=weight_decay, maximize=maximize)
    if adagrad:
        kwargs.update(name="Adagrad", lr_decay=momentum / 10)
    else:
        kwargs.update(momentum=momentum, centered=centered)
    flat, _ = _run(core, kwargs, steps=4, dtype=dtype, shapes=shapes, seed=seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        _per_parameter(monkeypatch)
        per_parameter, _ = _run(core, kwargs, steps=4, dtype=dtype, shapes=shapes, seed=seed)
    for a, b in zip(flat, per_parameter):
        np.testing.assert_array_equal(a, b)


def test_each_parameter_keeps_its_own_state_tensors_in_pytorchs_order(torch):
    kwargs = dict(lr=0.01, momentum=0.9, centered=True)
    _, ours = _run(core, kwargs, steps=5)
    _, theirs = _run(torch, kwargs, steps=5)
    a, b = ours.state_dict()["state"], theirs.state_dict()["state"]
    assert sorted(a) == sorted(b)
    for i in a:
        assert list(a[i]) == list(b[i])
        for key in a[i]:
            assert tuple(a[i][key].shape) == tuple(b[i][key].shape), (i, key)
            np.testing.assert_allclose(a[i][key].numpy(), b[i][key].numpy(), rtol=1e-12, atol=1e-14)


def test_a_state_tensor_written_by_the_user_is_what_the_next_step_uses(monkeypatch):
    def run():
        ps = _params(core)
        opt = core.optim.RMSprop(ps, lr=0.01, momentum=0.9)
        for step in range(4):
            opt.zero_grad()
            _loss(ps, None).backward()
            opt.step()
            if step == 1:
                opt.state[ps[0]]["square_avg"].mul_(0.5)
                opt.state[ps[2]]["momentum_buffer"] = core.ones(2, 4)
        return [p.detach().numpy().copy() for p in ps]

    flat = run()
    _per_parameter(monkeypatch)
    for a, b in zip(flat, run()):
        np.testing.assert_array_equal(a, b)
