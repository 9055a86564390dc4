"""``scheduler.step(epoch)`` (deprecated, still in old scripts) as PyTorch runs it: it warns, sets ``last_epoch`` and
takes the schedule's closed form where it has one (``_get_closed_form_lr``), else ``get_lr`` at that epoch.

karpathy's pytorch-made steps ``StepLR(step_size=45)`` with the epoch number; before this core took the chained form
at the given epoch (``StepLR(step_size=2).step(3)`` left the rate at 1.0 where PyTorch has 0.5).
"""

from __future__ import annotations

import warnings

import pytest

import core

SCHEDULES = {
    "step": lambda S, o: S.StepLR(o, step_size=2, gamma=0.5),
    "multistep": lambda S, o: S.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.1),
    "exponential": lambda S, o: S.ExponentialLR(o, gamma=0.9),
    "cosine": lambda S, o: S.CosineAnnealingLR(o, T_max=6, eta_min=0.01),
    "constant": lambda S, o: S.ConstantLR(o, factor=0.25, total_iters=3),
    "linear": lambda S, o: S.LinearLR(o, start_factor=0.2, total_iters=4),
    "polynomial": lambda S, o: S.PolynomialLR(o, total_iters=5, power=2.0),
    "lambda": lambda S, o: S.LambdaLR(o, lambda e: 0.5 ** e),
    "multiplicative": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.9),
    "onecycle": lambda S, o: S.OneCycleLR(o, max_lr=2.0, total_steps=12),
    "cyclic": lambda S, o: S.CyclicLR(o, base_lr=0.1, max_lr=1.0, step_size_up=3),
}
EPOCHS = [3, 1, 7, 7, 4, None, None, 10]  # None: a plain step() between


def _run(lib, make):
    param = lib.zeros(2, requires_grad=True)
    optimizer = lib.optim.SGD([param], lr=1.0, momentum=0.9)
    scheduler = make(lib.optim.lr_scheduler, optimizer)
    rates, messages = [], set()
    for epoch in EPOCHS:
        optimizer.step()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scheduler.step() if epoch is None else scheduler.step(epoch)
        messages |= {(w.category.__name__, str(w.message)) for w in caught}
        rates.append((scheduler.last_epoch, scheduler.get_last_lr(), optimizer.param_groups[0]["lr"]))
    return rates, messages


@pytest.mark.parametrize("name", list(SCHEDULES))
def test_step_with_an_epoch_takes_torchs_rate_and_warns(name, torch):
    theirs_rates, theirs_messages = _run(torch, SCHEDULES[name])
    ours_rates, ours_messages = _run(core, SCHEDULES[name])
    assert ours_rates == theirs_rates
    assert ours_messages == theirs_messages


@pytest.mark.parametrize("name", ["step", "multistep", "exponential", "cosine", "constant", "linear", "polynomial"])
def test_schedules_with_a_closed_form_expose_it_as_torchs_do(name, torch):
    ours = SCHEDULES[name](core.optim.lr_scheduler, core.optim.SGD([core.zeros(1, requires_grad=True)], lr=1.0))
    theirs = SCHEDULES[name](torch.optim.lr_scheduler, torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0))
    assert hasattr(ours, "_get_closed_form_lr") == hasattr(theirs, "_get_closed_form_lr")
    ours.last_epoch = theirs.last_epoch = 9
    assert ours._get_closed_form_lr() == theirs._get_closed_form_lr()
