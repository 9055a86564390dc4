"""torch.autocast and torch.utils.checkpoint in core, against torch 2.13.

autocast: a disabled region changes nothing; the argument checks, the warnings that disable a region and the
deprecated aliases' FutureWarnings are torch's; an enabled region's per-op casts are in test_autocast_bfloat16.py.
checkpoint: the values and gradients of a plain call, torch's use_reentrant warnings and the reentrant variant's
"no input requires grad" trap.
"""

import threading
import warnings

import numpy as np
import pytest

import core

from .oracle import to_numpy

_X = np.random.default_rng(7).standard_normal((4, 3)).astype(np.float32)


def _caught(make, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = make(*args, **kwargs)
    return result, [(w.category, str(w.message)) for w in caught]


def _linear(lib):
    lib.manual_seed(1)
    return lib.nn.Linear(3, 2)


def test_a_disabled_autocast_region_changes_nothing(torch):
    outs = []
    for lib in (core, torch):
        layer = _linear(lib)
        with lib.autocast("cpu", enabled=False):
            assert lib.is_autocast_enabled("cpu") is False
            outs.append(layer(lib.tensor(_X)))
        assert lib.is_autocast_enabled("cpu") is False
    assert str(outs[0].dtype) == str(outs[1].dtype) == "torch.float32"
    np.testing.assert_allclose(to_numpy(outs[0]), to_numpy(outs[1]), rtol=1e-6, atol=1e-6)


def test_an_enabled_cpu_region_is_enabled_inside_only_and_warns_nothing(torch):
    for lib in (core, torch):
        region, caught = _caught(lib.autocast, "cpu")
        assert caught == []
        with region:
            assert lib.is_autocast_enabled("cpu") is True
            assert lib.is_autocast_enabled() is False  # the no-argument form asks about CUDA, as in torch
        assert lib.is_autocast_enabled("cpu") is False


def test_nested_disabled_region_turns_autocast_off_and_the_outer_state_returns():
    outer = core.autocast("cpu", dtype=core.float16)
    with outer:
        with core.autocast("cpu", enabled=False):
            assert core.is_autocast_enabled("cpu") is False
        assert core.is_autocast_enabled("cpu") is True
        assert core.get_autocast_dtype("cpu") == core.float16


def test_autocast_state_is_per_thread_as_in_torch():
    seen = []
    region = core.autocast("cpu")
    with region:
        thread = threading.Thread(target=lambda: seen.append(core.is_autocast_enabled("cpu")))
        thread.start()
        thread.join()
        seen.append(core.is_autocast_enabled("cpu"))
    assert seen == [False, True]


def test_autocast_as_a_decorator_enables_the_region_inside_the_call_only():
    decorate = core.amp.autocast("cpu")

    @decorate
    def inside():
        return core.is_autocast_enabled("cpu")

    assert inside() is True and core.is_autocast_enabled("cpu") is False


@pytest.mark.skipif(core.cuda.is_available(), reason="checks what a machine without a GPU does")
def test_cuda_autocast_without_a_gpu_warns_and_disables_itself_as_torch_does(torch):
    if torch.cuda.is_available():
        pytest.skip("torch sees a GPU here")
    ours, our_warnings = _caught(lambda: core.autocast("cuda"))
    theirs, their_warnings = _caught(lambda: torch.autocast("cuda"))
    assert our_warnings == their_warnings == [(UserWarning, "CUDA is not available or torch_xla is imported. "
                                                            "Disabling autocast.")]
    with ours:
        assert core.is_autocast_enabled("cuda") is False


def test_an_unsupported_cpu_dtype_warns_and_disables_autocast_as_torch_does(torch):
    ours, our_warnings = _caught(lambda: core.autocast("cpu", dtype=core.float64))
    _, their_warnings = _caught(lambda: torch.autocast("cpu", dtype=torch.float64))
    assert our_warnings == their_warnings and len(our_warnings) == 1
    with ours:
        assert core.is_autocast_enabled("cpu") is False


@pytest.mark.parametrize(("make", "error"), [
    (lambda lib: lib.autocast(3), ValueError),
    (lambda lib: lib.autocast("cpu", enabled=False)(5), TypeError),
])
def test_bad_autocast_arguments_raise_torchs_errors(torch, make, error):
    with pytest.raises(error) as theirs:
        make(torch)
    with pytest.raises(error) as ours:
        make(core)
    assert str(ours.value) == str(theirs.value)


def test_an_unknown_autocast_device_raises_runtime_error_like_torch(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="device type at start of device string: foo"):
            lib.autocast("foo")


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_the_deprecated_per_device_autocasts_warn_torchs_future_warning(torch, device):
    if device == "cuda" and (core.cuda.is_available() or torch.cuda.is_available()):
        pytest.skip("the CUDA alias's second warning depends on a GPU")
    _, our_warnings = _caught(lambda: getattr(core, device).amp.autocast(enabled=False))
    _, their_warnings = _caught(lambda: getattr(torch, device).amp.autocast(enabled=False))
    assert our_warnings == their_warnings
    assert our_warnings[0][0] is FutureWarning


def test_the_cuda_autocast_dtype_is_float16_as_in_torch(torch):
    assert str(core.get_autocast_dtype("cuda")).split(".")[-1] == str(torch.get_autocast_dtype("cuda")).split(".")[-1]


def _mlp(lib):
    lib.manual_seed(3)
    return lib.nn.Sequential(lib.nn.Linear(3, 5), lib.nn.Tanh(), lib.nn.Linear(5, 4), lib.nn.ReLU(),
                             lib.nn.Linear(4, 2))


def _grads(lib, reentrant, run):
    """Output and gradients (input's, then each parameter's or None) of ``run(model, x)``'s sum."""
    model = _mlp(lib)
    x = lib.tensor(_X, requires_grad=True)
    out = run(lib, model, x, reentrant)
    out.sum().backward()
    return [to_numpy(out), to_numpy(x.grad)] + [None if p.grad is None else to_numpy(p.grad)
                                               for p in model.parameters()]


def _checkpointed(lib, model, x, reentrant):
    return lib.utils.checkpoint.checkpoint(model, x, use_reentrant=reentrant)


def _plain(lib, model, x, reentrant):
    return model(x)


def _sequential(lib, model, x, reentrant):
    return lib.utils.checkpoint.checkpoint_sequential(model, 2, x, use_reentrant=reentrant)


def _assert_all_close(ours, theirs):
    for a, b in zip(ours, theirs, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("reentrant", [True, False])
@pytest.mark.parametrize("run", [_checkpointed, _sequential])
def test_checkpoint_gives_the_values_and_gradients_of_a_plain_call_and_of_torch(torch, reentrant, run):
    ours = _grads(core, reentrant, run)
    for a, b in zip(ours, _grads(core, reentrant, _plain), strict=True):
        assert np.array_equal(a, b)
    _assert_all_close(ours, _grads(torch, reentrant, run))


@pytest.mark.parametrize("name", ["checkpoint", "checkpoint_sequential"])
def test_checkpoint_without_use_reentrant_warns_torchs_warning(torch, name):
    def call(lib):
        fn = getattr(lib.utils.checkpoint, name)
        x = lib.tensor(_X, requires_grad=True)
        return fn(lib.nn.Sequential(lib.nn.Tanh(), lib.nn.Tanh()), 2, x) if "sequential" in name else fn(lib.sin, x)

    _, ours = _caught(lambda: call(core))
    _, theirs = _caught(lambda: call(torch))
    assert ours == theirs and len(ours) == 1


def test_reentrant_checkpoint_with_no_input_requiring_grad_leaves_parameters_without_gradients(torch):
    results = []
    for lib in (core, torch):
        model = _mlp(lib)
        out, caught = _caught(lib.utils.checkpoint.checkpoint, model, lib.tensor(_X), use_reentrant=True)
        assert caught == [(UserWarning, "None of the inputs have requires_grad=True. Gradients will be None")]
        results.append(out.requires_grad)
    assert results == [False, False]


def test_reentrant_checkpoint_sequential_on_data_trains_only_the_last_segment_as_torch_does(torch):
    pattern = []
    for lib in (core, torch):
        model = _mlp(lib)
        out, _ = _caught(lib.utils.checkpoint.checkpoint_sequential, model, 2, lib.tensor(_X), use_reentrant=True)
        out.sum().backward()
        pattern.append([p.grad is None for p in model.parameters()])
    assert pattern[0] == pattern[1] == [True, True, False, False, False, False]


def test_keyword_arguments_reach_the_function_only_without_reentrant(torch):
    def fn(x, scale=1.0):
        return x * scale

    for lib in (core, torch):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        assert lib.utils.checkpoint.checkpoint(fn, x, use_reentrant=False, scale=3.0).tolist() == [3.0, 6.0]
    with pytest.raises(ValueError) as theirs:
        torch.utils.checkpoint.checkpoint(fn, torch.ones(2), use_reentrant=True, scale=3.0)
    with pytest.raises(ValueError) as ours:
        core.utils.checkpoint.checkpoint(fn, core.ones(2), use_reentrant=True, scale=3.0)
    assert str(ours.value) == str(theirs.value) == "Unexpected keyword arguments: scale"
