"""The process-wide switches at ``torch.*`` as PyTorch answers them: anomaly detection on and off (and its NaN
check catching a NaN gradient with PyTorch's message), warn-always, and flush-denormal on a CPU without it."""

import pytest

import core


@pytest.fixture
def restore_anomaly():
    yield
    core.set_anomaly_enabled(False)


def test_anomaly_flags_default_and_follow_set_anomaly_enabled_as_torch(torch, restore_anomaly):
    for lib in (core, torch):
        assert (lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()) == (False, True)
        lib.set_anomaly_enabled(True, False)
        assert (lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()) == (True, False)
        lib.set_anomaly_enabled(False)
        assert (lib.is_anomaly_enabled(), lib.is_anomaly_check_nan_enabled()) == (False, True)


def test_set_anomaly_enabled_makes_backward_fail_on_a_nan_gradient_as_torch(torch, restore_anomaly):
    messages = []
    for lib in (core, torch):
        x = lib.tensor([0.0, 4.0], requires_grad=True)
        lib.set_anomaly_enabled(True)
        with pytest.warns(UserWarning, match="Error detected in SqrtBackward0"), pytest.raises(RuntimeError) as err:
            (x.sqrt() * 0).sum().backward()
        lib.set_anomaly_enabled(False)
        messages.append(str(err.value))
    assert messages[0] == messages[1] == "Function 'SqrtBackward0' returned nan values in its 0th output."


def test_anomaly_detection_without_the_nan_check_lets_nan_gradients_through(restore_anomaly):
    x = core.tensor([0.0, 4.0], requires_grad=True)
    core.set_anomaly_enabled(True, check_nan=False)
    (x.sqrt() * 0).sum().backward()
    assert core.isnan(x.grad[0]) and x.grad[1] == 0


def test_warn_always_flag_is_stored_as_torch(torch):
    for lib in (core, torch):
        assert lib.is_warn_always_enabled() is False
        lib.set_warn_always(True)
        assert lib.is_warn_always_enabled() is True
        lib.set_warn_always(False)


def test_set_flush_denormal_flushes_while_on_as_torch(torch):
    seen = []
    for lib in (core, torch):
        try:
            on = lib.set_flush_denormal(True)
            flushed = [lib.tensor([1e-323], dtype=lib.float64).mul(1).item(), (lib.tensor([1e-30]) * 1e-10).item()]
        finally:
            off = lib.set_flush_denormal(False)
        seen.append((on, flushed, off, lib.tensor([1e-323], dtype=lib.float64).mul(1).item()))
    assert seen[0] == seen[1]
