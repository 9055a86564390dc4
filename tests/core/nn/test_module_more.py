"""nn.Module's remaining PyTorch names against torch: dir(model), bfloat16, compile, the refused accelerators, the
backward-hook queries and the data-parallel replica."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import module_dir


def _net(lib):
    class Net(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = lib.nn.Linear(3, 2)
            self.register_buffer("steps", lib.zeros(1, dtype=lib.int64))
            self.scale = 2.0

        def forward(self, x):
            return self.fc(x) * self.scale

    return Net()


def test_dir_of_a_custom_module_lists_what_torch_lists(torch):
    assert module_dir(_net(core)) == module_dir(_net(torch))


def test_a_new_module_holds_the_same_instance_state_as_torchs(torch):
    assert sorted(core.nn.Module().__dict__) == sorted(torch.nn.Module().__dict__)
    assert core.nn.Module()._is_full_backward_hook is None


def test_bfloat16_casts_floating_parameters_and_keeps_integer_buffers(torch):
    ours, theirs = _net(core).bfloat16(), _net(torch).bfloat16()
    assert [str(t.dtype) for t in ours.state_dict().values()] == [str(t.dtype) for t in theirs.state_dict().values()]
    assert str(ours.fc.weight.dtype) == "torch.bfloat16"


@pytest.mark.parametrize("name", ["xpu", "mtia", "ipu"])
def test_moving_to_an_absent_accelerator_raises_as_torch_does(torch, name):
    with pytest.raises(Exception) as theirs:
        getattr(_net(torch), name)()
    with pytest.raises(Exception) as ours:
        getattr(_net(core), name)()
    assert (type(ours.value), str(ours.value)) == (type(theirs.value), str(theirs.value))


def test_a_module_without_tensors_moves_to_any_accelerator_unchanged(torch):
    for lib in (core, torch):
        module = lib.nn.ReLU()
        assert module.xpu() is module


def test_compile_routes_later_calls_through_the_compiled_call():
    core.manual_seed(0)
    net = _net(core)
    x = core.randn(4, 3)
    before = net(x)
    assert net._compiled_call_impl is None
    assert net.compile() is None
    assert net._compiled_call_impl is not None
    assert core.equal(net(x), before)
    assert core.equal(net._wrapped_call_impl(x), before) and core.equal(net._slow_forward(x), before)


def test_backward_hook_queries_list_full_and_pre_hooks(torch):
    def hook(*args):
        return None

    for lib in (core, torch):
        net = lib.nn.Linear(2, 2)
        assert net._get_backward_hooks() == ([], []) and net._get_backward_pre_hooks() == []
        net.register_full_backward_hook(hook)
        net.register_full_backward_pre_hook(hook)
        assert net._is_full_backward_hook is True
        assert net._get_backward_hooks() == ([hook], []) and net._get_backward_pre_hooks() == [hook]


def test_a_data_parallel_replica_shares_children_and_buffers_but_holds_no_parameters(torch):
    for lib in (core, torch):
        net = _net(lib)
        replica = net._replicate_for_data_parallel()
        assert replica._parameters == {} and replica._is_replica is True
        assert replica.fc is net.fc and replica.steps is net.steps
        assert replica._modules is not net._modules


def test_a_legacy_hook_warning_names_a_module_that_returns_no_tensor():
    net = core.nn.Linear(2, 2)
    with pytest.warns(FutureWarning, match="does not return a single Tensor"):
        net._maybe_warn_non_full_backward_hook((core.ones(2),), {"out": core.ones(2)}, None)
