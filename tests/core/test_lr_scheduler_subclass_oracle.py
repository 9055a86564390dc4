"""LRScheduler subclasses written by libraries, as PyTorch 2.13's base class treats them.

A subclass that overrides ``step`` (kozistr's REXScheduler, katsura-jp's CosineAnnealingWarmupRestarts) never goes
through the base ``_update_lr``, so ``_get_lr_called_within_step`` is never set on it (its state dict lacks the key)
and ``_last_lr`` is never made (``get_last_lr()`` raises AttributeError); a subclass that only defines ``get_lr``
gets both, in PyTorch's key order.
"""

import pytest

import core


def _classes(lib):
    class OwnStep(lib.optim.lr_scheduler.LRScheduler):
        def __init__(self, optimizer, total):
            self.total, self.t, self.last_lr = total, 0, [0.0]
            super().__init__(optimizer)

        def step(self, epoch=None):
            value = 0.1 * (1 - self.t / self.total)
            self.t += 1
            for group in self.optimizer.param_groups:
                group["lr"] = value
            self.last_lr = [value]
            return value

    class OwnGetLr(lib.optim.lr_scheduler._LRScheduler):
        def get_lr(self):
            return [base * 0.5 ** self.last_epoch for base in self.base_lrs]

    return {"own step": lambda o: OwnStep(o, 5), "own get_lr": OwnGetLr}


@pytest.mark.parametrize("kind", ["own step", "own get_lr"])
def test_a_subclass_state_dict_and_last_lr_as_in_torch(torch, kind):
    seen = []
    for lib in (core, torch):
        opt = lib.optim.SGD([lib.zeros(2, requires_grad=True)], lr=0.1)
        sched = _classes(lib)[kind](opt)
        rates = []
        for _ in range(3):
            opt.step()
            sched.step()
            rates.append(round(opt.param_groups[0]["lr"], 10))
        try:
            last = sched.get_last_lr()
        except AttributeError as error:
            last = str(error)
        seen.append((list(sched.state_dict()), rates, last))
    assert seen[0] == seen[1]

