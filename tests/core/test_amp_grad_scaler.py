"""torch.amp.GradScaler in core: PyTorch's scale trajectory, skipped steps and state, and exact unscaled training.

A scale that is a power of two changes no bit of the gradients once unscaled, so a float32 MLP trained with the
scaler ends with the same parameters as one trained without it; the scaler's own state (scale, growth tracker,
which steps it skipped) is compared with PyTorch's step for step.
"""

import pickle
import warnings

import numpy as np
import pytest

import core

_RNG = np.random.default_rng(19)
_X = _RNG.standard_normal((16, 5)).astype(np.float32)
_Y = _RNG.standard_normal((16, 2)).astype(np.float32)


def _mlp(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Linear(5, 8), lib.nn.Tanh(), lib.nn.Linear(8, 2))


def _optimizer(lib, model, name):
    if name == "SGD":
        return lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    return lib.optim.Adam(model.parameters(), lr=0.01)


def _params(model):
    return [p.detach().cpu().numpy().copy() for p in model.parameters()]


def _train(lib, name, scaler=None, steps=8, inf_at=(), clip=None, loss_factor=1.0):
    """Parameters after each step, and the scaler's (scale, growth tracker) after each update."""
    model = _mlp(lib)
    opt = _optimizer(lib, model, name)
    x, y = lib.tensor(_X), lib.tensor(_Y)
    params, states = [], []
    for step in range(steps):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean() * loss_factor
        (scaler.scale(loss) if scaler else loss).backward()
        if step in inf_at:
            with lib.no_grad():
                next(model.parameters()).grad[0, 0] = float("inf")
        if scaler is None:
            opt.step()
        else:
            if clip is not None:
                scaler.unscale_(opt)
                lib.nn.utils.clip_grad_norm_(model.parameters(), clip)
            scaler.step(opt)
            scaler.update()
            states.append((scaler.get_scale(), scaler._get_growth_tracker()))
        params.append(_params(model))
    return params, states


def _assert_equal_params(a, b):
    for step_a, step_b in zip(a, b, strict=True):
        for pa, pb in zip(step_a, step_b, strict=True):
            assert np.array_equal(pa, pb)


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_training_with_the_scaler_gives_the_unscaled_parameters_bit_for_bit(name):
    plain, _ = _train(core, name)
    scaled, states = _train(core, name, core.amp.GradScaler("cpu", growth_interval=3))
    _assert_equal_params(scaled, plain)
    assert states[2] == (2.0**17, 0)  # three clean steps grew the scale


@pytest.mark.parametrize("name", ["SGD", "Adam"])
def test_scaler_state_and_parameters_follow_torch_step_for_step(torch, name):
    ours, our_states = _train(core, name, core.amp.GradScaler("cpu", growth_interval=3))
    theirs, their_states = _train(torch, name, torch.amp.GradScaler("cpu", growth_interval=3))
    assert our_states == their_states
    for step_ours, step_theirs in zip(ours, theirs, strict=True):
        for po, pt in zip(step_ours, step_theirs, strict=True):
            np.testing.assert_allclose(po, pt, rtol=1e-5, atol=1e-6)


def test_an_inf_gradient_skips_the_step_and_backs_the_scale_off_as_torch_does(torch):
    ours, our_states = _train(core, "Adam", core.amp.GradScaler("cpu", growth_interval=2), inf_at=(1, 2, 5))
    theirs, their_states = _train(torch, "Adam", torch.amp.GradScaler("cpu", growth_interval=2), inf_at=(1, 2, 5))
    assert our_states == their_states
    assert our_states[:3] == [(65536.0, 1), (32768.0, 0), (16384.0, 0)]
    for step in (1, 2, 5):  # skipped: nothing moved
        _assert_equal_params([ours[step]], [ours[step - 1]])
    for step_ours, step_theirs in zip(ours, theirs, strict=True):
        for po, pt in zip(step_ours, step_theirs, strict=True):
            np.testing.assert_allclose(po, pt, rtol=1e-5, atol=1e-6)


def test_a_scale_that_overflows_float32_gradients_backs_off_until_they_fit(torch):
    ours, our_states = _train(core, "SGD", core.amp.GradScaler("cpu", init_scale=2.0**127), steps=8, loss_factor=64)
    _, their_states = _train(torch, "SGD", torch.amp.GradScaler("cpu", init_scale=2.0**127), steps=8, loss_factor=64)
    assert our_states == their_states
    assert our_states[:6] == [(2.0**k, 0) for k in range(126, 120, -1)]  # six overflowing steps, all skipped
    _assert_equal_params([ours[5]], [ours[0]])
    assert our_states[6] == (2.0**121, 1) and not np.array_equal(ours[6][0], ours[5][0])  # then one fit


def test_unscale_then_clip_matches_torch_and_the_unscaled_clipped_run(torch):
    ours, our_states = _train(core, "SGD", core.amp.GradScaler("cpu"), clip=0.1)
    theirs, their_states = _train(torch, "SGD", torch.amp.GradScaler("cpu"), clip=0.1)
    assert our_states == their_states
    for step_ours, step_theirs in zip(ours, theirs, strict=True):
        for po, pt in zip(step_ours, step_theirs, strict=True):
            np.testing.assert_allclose(po, pt, rtol=1e-5, atol=1e-6)


def _one_backward(lib, scaler):
    model = _mlp(lib)
    opt = _optimizer(lib, model, "SGD")
    scaler.scale(((model(lib.tensor(_X)) - lib.tensor(_Y)) ** 2).mean()).backward()
    return model, opt


@pytest.mark.parametrize("misuse", ["unscale_twice", "unscale_after_step", "step_twice", "closure"])
def test_misuse_raises_torchs_error(torch, misuse):
    def run(lib):
        scaler = lib.amp.GradScaler("cpu")
        _, opt = _one_backward(lib, scaler)
        if misuse == "unscale_twice":
            scaler.unscale_(opt)
            scaler.unscale_(opt)
        elif misuse == "unscale_after_step":
            scaler.step(opt)
            scaler.unscale_(opt)
        elif misuse == "step_twice":
            scaler.step(opt)
            scaler.step(opt)
        else:
            scaler.step(opt, closure=lambda: None)

    with pytest.raises(RuntimeError) as theirs:
        run(torch)
    with pytest.raises(RuntimeError) as ours:
        run(core)
    assert str(ours.value) == str(theirs.value)


def test_update_before_any_scale_raises_assertion_error_like_torch(torch):
    with pytest.raises(AssertionError, match="Attempted update but _scale is None"):
        torch.amp.GradScaler("cpu").update()
    with pytest.raises(AssertionError, match="Attempted update but _scale is None"):
        core.amp.GradScaler("cpu").update()


def test_growth_and_backoff_factors_are_checked():
    with pytest.raises(AssertionError, match="growth factor must be > 1.0"):
        core.amp.GradScaler("cpu", growth_factor=1.0)
    with pytest.raises(AssertionError, match="backoff factor must be < 1.0"):
        core.amp.GradScaler("cpu", backoff_factor=1.0)


def test_state_dict_round_trips_and_matches_torchs_keys_and_values(torch):
    states = []
    for lib in (core, torch):
        scaler = lib.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=7)
        _, opt = _one_backward(lib, scaler)
        scaler.step(opt)
        scaler.update()
        fresh = lib.amp.GradScaler("cpu")
        fresh.load_state_dict(scaler.state_dict())
        assert fresh.state_dict() == scaler.state_dict()
        states.append(scaler.state_dict())
    assert states[0] == states[1] == {"scale": 1024.0, "growth_factor": 2.0, "backoff_factor": 0.5,
                                      "growth_interval": 7, "_growth_tracker": 1}


def test_a_disabled_scaler_passes_everything_through(torch):
    for lib in (core, torch):
        scaler = lib.amp.GradScaler("cpu", enabled=False)
        loss = lib.tensor(3.0)
        assert scaler.scale(loss) is loss
        assert (scaler.get_scale(), scaler.state_dict(), scaler.is_enabled()) == (1.0, {}, False)


def test_scale_multiplies_nested_lists_and_tuples_of_tensors():
    scaler = core.amp.GradScaler("cpu", init_scale=4.0)
    out = scaler.scale([core.tensor(1.0), (core.tensor(2.0), core.tensor(3.0, dtype=core.float64))])
    assert isinstance(out, list) and isinstance(out[1], tuple)
    assert [out[0].item(), out[1][0].item(), out[1][1].item()] == [4.0, 8.0, 12.0]
    assert out[1][1].dtype == core.float64
    with pytest.raises(ValueError, match="outputs must be a Tensor or an iterable of Tensors"):
        scaler.scale([1.0])


def test_update_with_a_new_scale_sets_it():
    scaler = core.amp.GradScaler("cpu")
    _, opt = _one_backward(core, scaler)
    scaler.step(opt)
    scaler.update(new_scale=8.0)
    assert scaler.get_scale() == 8.0
    scaler.update(core.tensor(2.0))
    assert scaler.get_scale() == 2.0


def test_a_scaler_pickles_between_iterations_and_keeps_its_scale():
    scaler = core.amp.GradScaler("cpu", init_scale=256.0)
    _, opt = _one_backward(core, scaler)
    scaler.step(opt)
    scaler.update()
    copy = pickle.loads(pickle.dumps(scaler))
    assert copy.state_dict() == scaler.state_dict()


def _warnings_of(make):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler = make()
    return scaler, [(w.category, str(w.message)) for w in caught]


@pytest.mark.skipif(core.cuda.is_available(), reason="checks what a machine without a GPU does")
def test_the_default_cuda_scaler_without_a_gpu_warns_and_disables_itself_as_torch_does(torch):
    if torch.cuda.is_available():
        pytest.skip("torch sees a GPU here")
    ours, our_warnings = _warnings_of(core.amp.GradScaler)
    theirs, their_warnings = _warnings_of(torch.amp.GradScaler)
    assert our_warnings == their_warnings and len(our_warnings) == 1
    assert ours.is_enabled() is theirs.is_enabled() is False


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_the_deprecated_per_device_scalers_warn_torchs_future_warning(torch, device):
    if device == "cuda" and (core.cuda.is_available() or torch.cuda.is_available()):
        pytest.skip("the CUDA alias's second warning depends on a GPU")
    ours, our_warnings = _warnings_of(getattr(core, device).amp.GradScaler)
    theirs, their_warnings = _warnings_of(getattr(torch, device).amp.GradScaler)
    assert our_warnings == their_warnings
    assert our_warnings[0][0] is FutureWarning
    assert ours.is_enabled() is theirs.is_enabled()
    assert isinstance(ours, core.amp.GradScaler)
