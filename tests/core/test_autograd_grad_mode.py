"""Grad-mode switches: context managers, decorators (plain, bare, generators), thread-locality."""

import threading

import pytest

import core as torch


def _x():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def test_no_grad_builds_no_graph_and_restores_the_mode():
    x = _x()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        y = x * 2
    assert torch.is_grad_enabled()
    assert y.grad_fn is None and not y.requires_grad


def test_enable_grad_inside_no_grad_records():
    x = _x()
    with torch.no_grad():
        with torch.enable_grad():
            y = x * 2
        z = x * 2
    assert y.requires_grad and y.grad_fn is not None and not z.requires_grad


def test_set_grad_enabled_called_as_a_function_sets_the_mode_at_once():
    try:
        torch.set_grad_enabled(False)
        assert not torch.is_grad_enabled()
        assert not (_x() * 2).requires_grad
    finally:
        torch.set_grad_enabled(True)
    assert torch.is_grad_enabled()


def test_set_grad_enabled_as_context_manager_restores_on_exit():
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
        with torch.set_grad_enabled(True):
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()


def test_mode_is_restored_when_the_block_raises():
    with pytest.raises(ValueError):
        with torch.no_grad():
            raise ValueError
    assert torch.is_grad_enabled()


@pytest.mark.parametrize("make", [lambda: torch.no_grad(), lambda: torch.no_grad, lambda: torch.inference_mode(),
                                  lambda: torch.inference_mode, lambda: torch.set_grad_enabled(False)])
def test_switches_work_as_decorators(make):
    @make()
    def f(t):
        """doc"""
        return t * 2, torch.is_grad_enabled()

    assert torch.is_grad_enabled()  # decorating changes nothing by itself
    y, enabled = f(_x())
    assert not enabled and not y.requires_grad and f.__doc__ == "doc"
    assert torch.is_grad_enabled()


def test_enable_grad_decorator_records_inside_no_grad():
    @torch.enable_grad()
    def f(t):
        return t * 2

    with torch.no_grad():
        assert f(_x()).requires_grad


def test_decorated_generator_runs_each_step_in_the_mode():
    @torch.no_grad()
    def gen():
        for _ in range(2):
            yield torch.is_grad_enabled()

    g = gen()
    assert next(g) is False
    assert torch.is_grad_enabled()  # between steps the caller's mode holds
    assert next(g) is False
    assert list(g) == []


def test_inference_mode_disables_grad_and_is_reported():
    x = _x()
    assert not torch.is_inference_mode_enabled()
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        y = x * 2
    assert not y.requires_grad and not torch.is_inference_mode_enabled()
    with torch.inference_mode(False):
        assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_grad_mode_is_thread_local():
    seen = {}

    def worker():
        seen["start"] = torch.is_grad_enabled()
        with torch.no_grad():
            seen["inside"] = torch.is_grad_enabled()
            barrier.wait()
            barrier.wait()

    barrier = threading.Barrier(2)
    thread = threading.Thread(target=worker)
    with torch.no_grad():
        thread.start()
        barrier.wait()
        with torch.enable_grad():
            seen["main"] = torch.is_grad_enabled()
        barrier.wait()
    thread.join()
    assert seen == {"start": True, "inside": False, "main": True}
    assert torch.is_grad_enabled()


def test_autograd_namespace_exposes_the_switches():
    assert torch.autograd.no_grad is torch.no_grad
    assert torch.autograd.set_grad_enabled is torch.set_grad_enabled
    assert torch.autograd.grad_mode.inference_mode is torch.inference_mode
