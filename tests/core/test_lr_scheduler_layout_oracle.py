"""A scheduler's attributes as PyTorch lays them out: old lessons print ``dir(scheduler)``, and PyTorch's
``step`` calls ``_update_lr`` after the constructor's ``_initial_step``."""

import pytest

import core

pytestmark = pytest.mark.cpu_only

SCHEDULES = [("StepLR", {"step_size": 1, "gamma": 0.99}), ("ExponentialLR", {"gamma": 0.9}),
             ("MultiStepLR", {"milestones": [1, 3]}), ("CosineAnnealingLR", {"T_max": 3}),
             ("LambdaLR", {"lr_lambda": lambda epoch: 0.5 ** epoch})]


def _scheduler(lib, name, kwargs):
    optimizer = lib.optim.SGD(lib.nn.Linear(2, 1).parameters(), lr=0.1)
    return getattr(lib.optim.lr_scheduler, name)(optimizer, **kwargs)


@pytest.mark.parametrize(("name", "kwargs"), SCHEDULES, ids=[s[0] for s in SCHEDULES])
def test_dir_of_a_scheduler_lists_torchs_names(name, kwargs, torch):
    assert dir(_scheduler(core, name, kwargs)) == dir(_scheduler(torch, name, kwargs))


@pytest.mark.parametrize(("name", "kwargs"), SCHEDULES, ids=[s[0] for s in SCHEDULES])
def test_update_lr_and_initial_step_give_torchs_rates(name, kwargs, torch):
    rates = []
    for lib in (core, torch):
        scheduler = _scheduler(lib, name, kwargs)
        seen = [scheduler.get_last_lr()]
        for _ in range(3):
            scheduler.optimizer.step()
            scheduler.step()
            seen.append(scheduler.get_last_lr())
        scheduler._initial_step()  # SequentialLR's reset: one more step from the current epoch
        seen.append((scheduler.last_epoch, scheduler._step_count, scheduler.get_last_lr()))
        rates.append(seen)
    assert rates[0] == rates[1]


def test_state_dict_keys_keep_torchs_order(torch):
    assert list(_scheduler(core, "StepLR", {"step_size": 2}).state_dict()) == \
        list(_scheduler(torch, "StepLR", {"step_size": 2}).state_dict())


@pytest.mark.parametrize(("name", "kwargs"), SCHEDULES, ids=[s[0] for s in SCHEDULES])
def test_resuming_at_a_later_epoch_keeps_the_rate_as_torch(name, kwargs, torch):
    rates = []
    for lib in (core, torch):
        optimizer = lib.optim.SGD(lib.nn.Linear(2, 1).parameters(), lr=0.1)
        for group in optimizer.param_groups:
            group["initial_lr"] = 0.2
        scheduler = getattr(lib.optim.lr_scheduler, name)(optimizer, last_epoch=4, **kwargs)
        seen = [scheduler.get_last_lr()]
        for _ in range(3):
            optimizer.step()
            scheduler.step()
            seen.append(scheduler.get_last_lr())
        rates.append(seen)
    assert rates[0] == rates[1]
