"""Adam and AdamW update a group on flat buffers; every value equals the per-parameter update exactly.

The flat route (core/optim/_flat_adam.py) must be invisible: the same parameters bit for bit as the
per-parameter route, PyTorch's trajectory to rounding (torch's ``sqrt`` on x86 comes from MKL's vector math,
which is not correctly rounded, so Adam's denominators can differ from NumPy's in the last bit),
``optimizer.state[p]`` holding each parameter's own state tensors, state dicts that save and load, and the
per-parameter route taking over when a parameter has no gradient or the parameters' step counts differ.
"""

import copy

import numpy as np
import pytest

import core

_SHAPES = [(4, 3), (4,), (2, 4), (2,), (1, 2), ()]


def _params(lib, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return [lib.tensor(rng.standard_normal(s).astype(dtype), requires_grad=True) for s in _SHAPES]


def _loss(ps, k):
    """A loss whose gradients change every step; ``k`` selects which parameters take part (the rest get none)."""
    total = 0.0
    for i, p in enumerate(ps):
        if k is None or i not in k:
            total = total + (p * p * (i + 1)).sum() * 0.5 + (p * p * p * 0.3).sum()
    return total


def _run(lib, name, kwargs, steps=12, skip=None, reload_at=None, dtype=np.float64):
    ps = _params(lib, dtype=dtype)
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


CASES = [("Adam", dict(lr=0.05)), ("Adam", dict(lr=0.05, amsgrad=True, weight_decay=0.1)),
         ("Adam", dict(lr=0.02, maximize=True)), ("AdamW", dict(lr=0.05, weight_decay=0.3))]


@pytest.mark.parametrize("name, kwargs", CASES)
def test_flat_adam_follows_pytorchs_trajectory(torch, name, kwargs):
    ours, _ = _run(core, name, kwargs)
    theirs, _ = _run(torch, name, kwargs)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name, kwargs", CASES)
def test_flat_float32_parameters_equal_the_per_parameter_route_bit_for_bit(name, kwargs, monkeypatch):
    skip = {3: {1, 4}, 8: {0, 5}}
    flat, _ = _run(core, name, kwargs, skip=skip, reload_at=6, dtype=np.float32)
    monkeypatch.setattr(core.optim.Adam, "_update_group", core.optim.Optimizer._update_group)
    per_parameter, _ = _run(core, name, kwargs, skip=skip, reload_at=6, dtype=np.float32)
    for a, b in zip(flat, per_parameter):
        assert a.dtype == np.float32
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name, kwargs", CASES[:2])
def test_parameters_without_a_gradient_and_a_reloaded_state_keep_pytorchs_trajectory(torch, name, kwargs):
    skip = {3: {1, 4}, 4: {1}, 8: {0, 5}}
    ours, _ = _run(core, name, kwargs, skip=skip, reload_at=6)
    theirs, _ = _run(torch, name, kwargs, skip=skip, reload_at=6)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_each_parameter_keeps_its_own_state_tensors_and_step_in_the_state_dict(torch):
    _, ours = _run(core, "Adam", dict(lr=0.05, amsgrad=True), steps=5)
    _, theirs = _run(torch, "Adam", dict(lr=0.05, amsgrad=True), steps=5)
    a, b = ours.state_dict()["state"], theirs.state_dict()["state"]
    assert sorted(a) == sorted(b)
    for i in a:
        assert sorted(a[i]) == sorted(b[i])
        for key in a[i]:
            assert tuple(a[i][key].shape) == tuple(b[i][key].shape), (i, key)
            np.testing.assert_allclose(a[i][key].numpy(), b[i][key].numpy(), rtol=1e-12, atol=1e-14)


def test_a_state_tensor_written_by_the_user_is_what_the_next_step_uses():
    ps = _params(core)
    opt = core.optim.Adam(ps, lr=0.1)
    for _ in range(2):
        opt.zero_grad()
        _loss(ps, None).backward()
        opt.step()
    reference = [p.detach().clone() for p in ps]
    ref_opt = core.optim.Adam(reference, lr=0.1)
    ref_opt.load_state_dict(copy.deepcopy(opt.state_dict()))  # as PyTorch's, state_dict() holds references
    for opt_, params in ((opt, ps), (ref_opt, reference)):
        opt_.state[params[0]]["exp_avg"].mul_(0.0)
        opt_.state[params[2]]["exp_avg_sq"] = core.ones(2, 4)
        for p in params:
            p.requires_grad_(True)
        opt_.zero_grad()
        _loss(params, None).backward()
    opt.step()
    ref_opt.step()  # the reference also runs flat; both saw the same edits, one of them a new tensor object
    for p, r in zip(ps, reference):
        np.testing.assert_array_equal(p.detach().numpy(), r.detach().numpy())
    assert core.equal(opt.state[ps[2]]["exp_avg_sq"], ref_opt.state[reference[2]]["exp_avg_sq"])


@pytest.mark.parametrize("per_parameter", [False, True])
@pytest.mark.parametrize("name, kwargs", CASES)
def test_a_large_float32_group_updates_in_chunks_with_the_same_bits(name, kwargs, per_parameter, monkeypatch):
    """Past ``core.optim._flat_adam._CHUNK`` elements the whole update, and past ``core._fused._CHUNK`` its fused
    multiply-adds, run a chunk at a time, and past ``_STREAM_MIN`` (here lowered) a chunk of one parameter at a
    time: the same bits as one pass over the whole flat buffer (75250 elements: two full chunks and tails)."""
    from core import _fused
    from core.optim import _flat_adam

    monkeypatch.setattr(_flat_adam, "_STREAM_MIN", 0 if per_parameter else 1 << 40)

    def run():
        rng = np.random.default_rng(1)
        ps = [core.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True) for s in ((300, 250), (250,))]
        opt = getattr(core.optim, name)(ps, **kwargs)
        for _ in range(4):
            opt.zero_grad()
            sum((p * p * p * 0.3).sum() + (p * 0.7).sum() for p in ps).backward()
            opt.step()
        return [p.detach().numpy().copy() for p in ps]

    chunked = run()
    monkeypatch.setattr(_fused, "_CHUNK", 1 << 40)
    monkeypatch.setattr(_flat_adam, "_CHUNK", 1 << 40)
    monkeypatch.setattr(_flat_adam, "_STREAM_MIN", 1 << 40)
    for a, b in zip(chunked, run()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("tie", [False, True])
@pytest.mark.parametrize("name, kwargs", CASES + [("Adam", dict(lr=0.05, betas=(0.6, 0.5)))])
def test_a_small_float32_groups_moments_in_one_pass_keep_the_per_parameter_bits(name, kwargs, tie, monkeypatch):
    """A small float32 group's two moments are updated side by side (``_small_moments_``, one float64 array and one
    tie check for both): the same bits as ``lerp_`` and ``fma_`` per parameter, also when the tie check answers yes
    (``tie``: forced, so every row goes through ``single_rounding``'s mending) and for a first-moment weight of 0.4
    (betas[0] 0.6; a weight of 0.5 or more takes lerp's other form, through the general route)."""
    from core.optim import _flat_adam

    if tie:
        monkeypatch.setattr(_flat_adam, "any_tie", lambda t: True)
    taken = []
    small = _flat_adam._small_moments_
    monkeypatch.setattr(_flat_adam, "_small_moments_", lambda *a: taken.append(small(*a)) or taken[-1])
    fused, _ = _run(core, name, kwargs, steps=20, dtype=np.float32)
    assert taken and all(taken)
    monkeypatch.setattr(core.optim.Adam, "_update_group", core.optim.Optimizer._update_group)
    per_parameter, _ = _run(core, name, kwargs, steps=20, dtype=np.float32)
    for a, b in zip(fused, per_parameter):
        np.testing.assert_array_equal(a, b)


def test_small_moments_equal_lerp_and_fma_on_many_values():
    """``_small_moments_`` against ``core._fused``'s ``lerp_`` and ``fma_`` on 4096 random moments and gradients over
    a range of magnitudes (the float64 sums' roundings and any ties), and the flat state's rows are written in place."""
    from core._fused import fma_, lerp_
    from core.optim._flat_adam import _small_moments_

    rng = np.random.default_rng(3)
    for _ in range(20):
        scale = rng.choice([1e-20, 1e-3, 1.0, 1e6], size=(3, 4096))
        state = (np.abs(rng.standard_normal((2, 4096))) * scale[:2]).astype(np.float32)
        grad = (rng.standard_normal(4096) * scale[2]).astype(np.float32)
        m, v = state[0].copy(), state[1].copy()
        lerp_(np, m, grad, 1 - 0.9)
        v *= 0.999
        fma_(np, v, grad * (1 - 0.999), grad)
        assert _small_moments_(state, grad, (0.9, 0.999))
        np.testing.assert_array_equal(state[0], m)
        np.testing.assert_array_equal(state[1], v)
