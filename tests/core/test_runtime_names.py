"""Build flags and runtime helpers at ``torch.*``: the has_* flags' types, is_vulkan_available, get_device_module,
torch.GradScaler, and cond/while_loop run eagerly (branch chosen by a bool or a one-element tensor, gradients
through the branch that ran, PyTorch's error for a predicate of several elements)."""

import pytest

import core


def test_build_flags_are_bools_and_vulkan_is_unavailable(torch):
    for name in ("has_lapack", "has_mkl", "has_openmp", "has_spectral"):
        assert type(getattr(core, name)) is type(getattr(torch, name)) is bool
    assert core.is_vulkan_available() is torch.is_vulkan_available() is False


def test_get_device_module_names_the_device_types_module(torch):
    assert core.get_device_module() is core.cpu and torch.get_device_module() is torch.cpu
    assert core.get_device_module("cuda") is core.cuda and core.get_device_module(core.device("cpu")) is core.cpu


def test_top_level_grad_scaler_is_amps(torch):
    assert core.GradScaler is core.amp.GradScaler and torch.GradScaler is torch.amp.GradScaler


def test_cond_runs_the_branch_its_predicate_picks_as_torch(torch):
    for lib in (core, torch):
        assert lib.cond(True, lambda a: a + 1, lambda a: a - 1, (lib.ones(1),)).item() == 2.0
        assert lib.cond(lib.tensor(False), lambda lib=lib: lib.ones(1), lambda lib=lib: lib.zeros(1)).item() == 0.0


def test_cond_refuses_a_predicate_of_several_elements_as_torch(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="Expected pred to be bool or single-element tensor, but got"):
            lib.cond(lib.tensor([True, False]), lambda a: a, lambda a: a, (lib.ones(1),))


def test_cond_passes_gradients_through_the_branch_that_ran():
    x = core.tensor([1.0, 2.0], requires_grad=True)
    core.cond(x.sum() > 0, lambda a: a * 3, lambda a: a, (x,)).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_while_loop_carries_values_until_the_condition_fails():
    i, acc = core.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2), (core.tensor(0), core.ones(2)))
    assert i.item() == 3 and acc.tolist() == [8.0, 8.0]


def test_layout_and_device_errors_are_torchs_kinds(torch):
    for lib in (core, torch):
        assert isinstance(lib.strided, lib.layout)
        assert issubclass(lib.OutOfMemoryError, RuntimeError) and issubclass(lib.AcceleratorError, RuntimeError)
        assert lib.cuda.OutOfMemoryError is lib.OutOfMemoryError
        assert lib.init_num_threads() is None and lib.compiled_with_cxx11_abi() is True
    assert core.typename(core.OutOfMemoryError("x")) == torch.typename(torch.OutOfMemoryError("x"))
