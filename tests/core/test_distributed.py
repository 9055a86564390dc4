"""core.distributed as torch.distributed in one process: the errors before init_process_group, env:// reading
RANK and WORLD_SIZE, and collectives over a world of 1 leaving (or copying) tensors as PyTorch's do."""

from __future__ import annotations

import numpy as np
import pytest

import core


@pytest.mark.parametrize("call", ["get_rank", "get_world_size", "get_backend", "barrier"])
def test_calls_before_init_process_group_raise_torchs_value_error(call, torch):
    for lib in (torch, core):
        assert lib.distributed.is_available() and not lib.distributed.is_initialized()
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            getattr(lib.distributed, call)()


def test_destroying_the_group_before_init_raises_torchs_assertion_error(torch):
    for lib in (torch, core):
        with pytest.raises(AssertionError, match="Process group cannot be None"):
            lib.distributed.destroy_process_group()


def test_all_reduce_before_init_process_group_raises_torchs_value_error(torch):
    for lib in (torch, core):
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            lib.distributed.all_reduce(lib.ones(2))


def test_env_init_without_rank_in_the_environment_raises_torchs_value_error(torch, monkeypatch):
    monkeypatch.delenv("RANK", raising=False)
    for lib in (torch, core):
        with pytest.raises(ValueError, match="environment variable RANK expected, but not set"):
            lib.distributed.init_process_group("gloo")


def test_a_world_of_one_has_rank_zero_and_the_backend_asked_for(world_of_one):
    answers = [(d.is_initialized(), d.get_rank(), d.get_world_size(), d.get_backend())
               for d in (lib.distributed for lib in world_of_one)]
    assert answers[0] == answers[1] == (True, 0, 1, "gloo")


def test_initialising_twice_raises_torchs_value_error(world_of_one):
    for lib in world_of_one:
        with pytest.raises(ValueError, match="trying to initialize the default process group twice!"):
            lib.distributed.init_process_group("gloo", store=lib.distributed.HashStore(), rank=0, world_size=1)


@pytest.mark.parametrize("op", ["SUM", "PRODUCT", "MIN", "MAX"])
def test_all_reduce_over_one_rank_leaves_the_tensor_as_torch(world_of_one, op):
    results = []
    for lib in world_of_one:
        t = lib.tensor([1.5, -2.0, 3.0])
        returned = lib.distributed.all_reduce(t, op=getattr(lib.distributed.ReduceOp, op))
        results.append((returned, t.tolist()))
    assert results[0] == results[1] == (None, [1.5, -2.0, 3.0])


def test_async_collectives_return_work_that_waits_as_torch(world_of_one):
    waited = [lib.distributed.broadcast(lib.ones(2), src=0, async_op=True).wait() for lib in world_of_one]
    assert waited == [True, True]


def test_all_gather_copies_the_tensor_into_the_one_slot_as_torch(world_of_one):
    gathered = []
    for lib in world_of_one:
        slots = [lib.zeros(3)]
        lib.distributed.all_gather(slots, lib.tensor([1.0, 2.0, 3.0]))
        gathered.append(slots[0].tolist())
    assert gathered[0] == gathered[1] == [1.0, 2.0, 3.0]


def test_reduce_op_prints_as_torchs(torch):
    assert repr(core.distributed.ReduceOp.SUM) == repr(torch.distributed.ReduceOp.SUM)


def test_core_refuses_a_world_of_more_than_one_process():
    with pytest.raises(RuntimeError, match="one process"):
        core.distributed.init_process_group("gloo", store=core.distributed.HashStore(), rank=0, world_size=2)
    assert not core.distributed.is_initialized()


def test_nccl_without_a_gpu_is_refused_as_torch_refuses_it(torch, monkeypatch):
    if torch.cuda.is_available() or core.cuda.is_available():
        pytest.skip("NCCL needs no refusal where there is a GPU")
    monkeypatch.setenv("MASTER_ADDR", "localhost")
    monkeypatch.setenv("MASTER_PORT", "12356")
    for lib in (torch, core):
        assert not lib.distributed.is_nccl_available() and lib.distributed.is_gloo_available()
        with pytest.raises(RuntimeError, match="Distributed package doesn't have NCCL built in"):
            lib.distributed.init_process_group(backend="nccl", rank=0, world_size=1)
        assert not lib.distributed.is_initialized()


def _zero_training(make_optimizer, steps=3):
    core.manual_seed(0)
    model = core.nn.Linear(3, 2)
    optimizer = make_optimizer(model.parameters())
    for _ in range(steps):
        optimizer.zero_grad()
        model(core.ones(4, 3)).pow(2).sum().backward()
        optimizer.step()
    return optimizer, model.weight.detach().numpy()


# NOTE: torch.distributed.optim takes seconds to import, so these compare with torch's AdamW, which torch's
# ZeroRedundancyOptimizer runs over one rank (its repr is AdamW's under its own name, checked by hand)
def test_zero_redundancy_optimizer_over_one_rank_steps_and_prints_as_its_optimizer(world_of_one, torch):
    from core.distributed.optim import ZeroRedundancyOptimizer

    zero, w_zero = _zero_training(lambda ps: ZeroRedundancyOptimizer(ps, optimizer_class=core.optim.AdamW, lr=0.01,
                                                                     weight_decay=0.1))
    plain, w_plain = _zero_training(lambda ps: core.optim.AdamW(ps, lr=0.01, weight_decay=0.1))
    np.testing.assert_array_equal(w_zero, w_plain)
    theirs = torch.optim.AdamW(torch.nn.Linear(3, 2).parameters(), lr=0.01, weight_decay=0.1)
    assert repr(zero) == repr(theirs).replace("AdamW (", "ZeroRedundancyOptimizer (", 1)
    with pytest.raises(RuntimeError, match="has not been consolidated on this rank"):
        zero.state_dict()
    zero.consolidate_state_dict(to=0)
    assert zero.state_dict()["param_groups"] == plain.state_dict()["param_groups"]


def test_zero_redundancy_optimizer_needs_the_default_group():
    from core.distributed.optim import ZeroRedundancyOptimizer

    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        ZeroRedundancyOptimizer(core.nn.Linear(2, 2).parameters(), optimizer_class=core.optim.SGD, lr=0.1)
