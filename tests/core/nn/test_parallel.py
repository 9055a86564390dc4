"""nn.DataParallel, nn.parallel.data_parallel and DistributedDataParallel behave as PyTorch's do in one process
on a machine without a GPU: the wrapped module's outputs and gradients, reprs, ``module.`` state-dict keys."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same


def pair(torch):
    theirs = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    ours = core.nn.Sequential(core.nn.Linear(3, 4), core.nn.ReLU(), core.nn.Linear(4, 2))
    ours.load_state_dict({k: core.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()})
    return ours, theirs


@pytest.fixture
def one_process_group(torch):
    """The default group of a world of 1 in both libraries, destroyed afterwards."""
    torch.distributed.init_process_group("gloo", store=torch.distributed.HashStore(), rank=0, world_size=1)
    core.distributed.init_process_group("gloo", store=core.distributed.HashStore(), rank=0, world_size=1)
    yield
    torch.distributed.destroy_process_group()
    core.distributed.destroy_process_group()


def _outputs_and_grads(lib, net, x):
    out = net(lib.tensor(x))
    out.sum().backward()
    return out, [p.grad for p in net.parameters()]


def test_data_parallel_gives_torchs_output_and_gradients(torch):
    ours, theirs = pair(torch)
    x = np.random.default_rng(0).standard_normal((5, 3)).astype(np.float32)
    assert_same(_outputs_and_grads(core, core.nn.DataParallel(ours), x),
                _outputs_and_grads(torch, torch.nn.DataParallel(theirs), x))


def test_data_parallel_repr_state_dict_keys_and_device_ids_are_torchs(torch):
    ours, theirs = pair(torch)
    dp_ours, dp_theirs = core.nn.DataParallel(ours), torch.nn.DataParallel(theirs)
    assert repr(dp_ours) == repr(dp_theirs)
    assert list(dp_ours.state_dict()) == list(dp_theirs.state_dict())
    assert dp_ours.device_ids == dp_theirs.device_ids == []
    assert dp_ours.module is ours


def test_data_parallel_function_without_a_gpu_raises_torchs_runtime_error(torch):
    ours, theirs = pair(torch)
    for lib, net in ((torch, theirs), (core, ours)):
        if lib.cuda.is_available():
            pytest.skip("the functional form runs the module when a GPU is there")
        with pytest.raises(RuntimeError, match="device type could not be determined"):
            lib.nn.parallel.data_parallel(net, lib.ones(2, 3))


def test_data_parallel_passes_keyword_inputs_to_the_module(torch):
    ours, theirs = pair(torch)
    x = np.ones((2, 3), dtype=np.float32)
    assert_same(core.nn.DataParallel(ours)(input=core.tensor(x)), torch.nn.DataParallel(theirs)(input=torch.tensor(x)))


def test_ddp_before_init_process_group_raises_torchs_value_error(torch):
    ours, theirs = pair(torch)
    for lib, net in ((torch, theirs), (core, ours)):
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            lib.nn.parallel.DistributedDataParallel(net)


def test_ddp_in_a_world_of_one_gives_torchs_outputs_gradients_and_state_dict(torch, one_process_group):
    ours, theirs = pair(torch)
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    ddp_ours = core.nn.parallel.DistributedDataParallel(ours)
    ddp_theirs = torch.nn.parallel.DistributedDataParallel(theirs)
    assert_same(_outputs_and_grads(core, ddp_ours, x), _outputs_and_grads(torch, ddp_theirs, x))
    assert repr(ddp_ours) == repr(ddp_theirs)
    assert list(ddp_ours.state_dict()) == list(ddp_theirs.state_dict())
    assert ddp_ours.device_ids is ddp_theirs.device_ids is None
    assert ddp_ours.module is ours


def test_ddp_no_sync_turns_gradient_sync_off_inside_only(torch, one_process_group):
    ours, theirs = pair(torch)
    flags = []
    for ddp in (core.nn.parallel.DistributedDataParallel(ours), torch.nn.parallel.DistributedDataParallel(theirs)):
        with ddp.no_sync():
            inside = ddp.require_backward_grad_sync
        flags.append((inside, ddp.require_backward_grad_sync))
    assert flags[0] == flags[1] == (False, True)


def test_ddp_of_a_module_without_trainable_parameters_raises_as_torch(torch, one_process_group):
    for lib in (torch, core):
        frozen = lib.nn.Linear(2, 2).requires_grad_(False)
        with pytest.raises(RuntimeError, match="doesn't have any parameter that requires a gradient"):
            lib.nn.parallel.DistributedDataParallel(frozen)
