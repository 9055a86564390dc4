"""ConstantLR, LinearLR, MultiplicativeLR, PolynomialLR, CosineAnnealingWarmRestarts, CyclicLR, SequentialLR and
ChainedScheduler give torch's learning rates (and momenta) step for step."""

import math

import pytest

import core


def _rates(lib, build, optimizer="SGD", steps=30):
    p = lib.tensor([1.0], requires_grad=True)
    opt = lib.optim.SGD([p], lr=0.1, momentum=0.9) if optimizer == "SGD" else lib.optim.Adam([p], lr=0.1)
    sched = build(lib, opt)
    out = [sched.get_last_lr()[0]]
    for _ in range(steps):
        opt.step()
        sched.step()
        group = opt.param_groups[0]
        out += [sched.get_last_lr()[0], group["lr"], group.get("momentum", group.get("betas", (0,))[0])]
    return out


def _s(lib):
    return lib.optim.lr_scheduler


BUILDS = {
    "constant": lambda lib, o: _s(lib).ConstantLR(o, factor=0.5, total_iters=4),
    "linear": lambda lib, o: _s(lib).LinearLR(o, start_factor=0.1, total_iters=7),
    "linear-down": lambda lib, o: _s(lib).LinearLR(o, start_factor=1.0, end_factor=0.2, total_iters=10),
    "multiplicative": lambda lib, o: _s(lib).MultiplicativeLR(o, lr_lambda=lambda e: 0.95),
    "polynomial": lambda lib, o: _s(lib).PolynomialLR(o, total_iters=12, power=2.0),
    "warm-restarts": lambda lib, o: _s(lib).CosineAnnealingWarmRestarts(o, T_0=5, eta_min=0.01),
    "warm-restarts-mult": lambda lib, o: _s(lib).CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2),
    "cyclic": lambda lib, o: _s(lib).CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4),
    "cyclic-tri2": lambda lib, o: _s(lib).CyclicLR(o, 0.01, 0.1, step_size_up=3, step_size_down=5,
                                                   mode="triangular2"),
    "cyclic-exp": lambda lib, o: _s(lib).CyclicLR(o, 0.01, 0.1, step_size_up=3, mode="exp_range", gamma=0.9),
    "sequential": lambda lib, o: _s(lib).SequentialLR(
        o, [_s(lib).LinearLR(o, start_factor=0.1, total_iters=5), _s(lib).ExponentialLR(o, gamma=0.9)],
        milestones=[5]),
    "sequential-3": lambda lib, o: _s(lib).SequentialLR(
        o, [_s(lib).ConstantLR(o, factor=0.3, total_iters=4), _s(lib).StepLR(o, step_size=3, gamma=0.5),
            _s(lib).CosineAnnealingLR(o, T_max=6)], milestones=[4, 12]),
    # ExponentialLR first: SequentialLR's constructor step keeps the rate (it multiplied by gamma once too often)
    "sequential-exponential-first": lambda lib, o: _s(lib).SequentialLR(
        o, [_s(lib).ExponentialLR(o, gamma=0.9), _s(lib).StepLR(o, step_size=10, gamma=0.1)], milestones=[20]),
    "chained": lambda lib, o: _s(lib).ChainedScheduler(
        [_s(lib).ConstantLR(o, factor=0.1, total_iters=2), _s(lib).ExponentialLR(o, gamma=0.9)]),
}


@pytest.mark.parametrize("name", list(BUILDS))
def test_scheduler_rates_match_torch(torch, name):
    assert _rates(core, BUILDS[name]) == pytest.approx(_rates(torch, BUILDS[name]), rel=0, abs=1e-15)


def test_cyclic_lr_cycles_adam_beta1_as_torch(torch):
    build = BUILDS["cyclic"]
    assert _rates(core, build, "Adam") == pytest.approx(_rates(torch, build, "Adam"), abs=1e-15)


def test_warm_restarts_step_with_an_explicit_epoch_matches_torch(torch):
    rates = []
    for lib in (core, torch):
        p = lib.tensor([1.0], requires_grad=True)
        opt = lib.optim.SGD([p], lr=0.1)
        sched = _s(lib).CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2)
        seq = []
        for epoch in (0.5, 1.25, 4, 10.5, 20):
            sched.step(epoch)
            seq.append(opt.param_groups[0]["lr"])
        rates.append(seq)
    assert rates[0] == pytest.approx(rates[1], abs=1e-15)


@pytest.mark.parametrize("make, message", [
    (lambda lib, o: _s(lib).ConstantLR(o, factor=2.0), "between 0 and 1"),
    (lambda lib, o: _s(lib).LinearLR(o, start_factor=0.0), "greater than 0"),
    (lambda lib, o: _s(lib).CosineAnnealingWarmRestarts(o, T_0=0), "positive integer T_0"),
    (lambda lib, o: _s(lib).CyclicLR(o, 0.1, 1.0, mode="nope"), "mode is invalid"),
    (lambda lib, o: _s(lib).SequentialLR(o, [_s(lib).ExponentialLR(o, 0.9)], milestones=[3]), "one more"),
])
def test_bad_arguments_raise_value_error_like_torch(torch, make, message):
    for lib in (torch, core):
        p = lib.tensor([1.0], requires_grad=True)
        with pytest.raises(ValueError, match=message):
            make(lib, lib.optim.SGD([p], lr=0.1, momentum=0.9))


def test_cyclic_lr_needs_momentum_to_cycle_it(torch):
    for lib in (torch, core):
        p = lib.tensor([1.0], requires_grad=True)
        with pytest.raises(ValueError, match="must support momentum"):
            _s(lib).CyclicLR(lib.optim.Adagrad([p]), 0.01, 0.1)


def _plateau_states(lib, **kwargs):
    lib.manual_seed(0)
    opt = lib.optim.SGD([{"params": [lib.nn.Parameter(lib.ones(1))]}, {"params": [lib.nn.Parameter(lib.ones(1))],
                                                                         "lr": 0.5}], lr=1.0)
    sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, **kwargs)
    states = [repr(sched.state_dict())]
    for loss in (3.0, 2.0, 2.5, 2.5, 2.5, 2.4, 2.6, 2.6, 2.6, 2.6):
        sched.step(loss)
        states.append(repr(sched.state_dict()))
    return states, isinstance(sched, lib.optim.lr_scheduler.LRScheduler), sched.in_cooldown


@pytest.mark.parametrize("kwargs", [{}, {"mode": "max", "patience": 1}, {"patience": 1, "cooldown": 2,
                                    "min_lr": [0.3, 0.01], "threshold_mode": "abs", "threshold": 0.2}])
def test_reduce_lr_on_plateau_state_dicts_read_as_torchs_at_every_step(torch, kwargs):
    assert _plateau_states(core, **kwargs) == _plateau_states(torch, **kwargs)


def test_reduce_lr_on_plateau_checks_its_arguments_in_torchs_order(torch):
    def make(lib, **kwargs):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
        return lib.optim.lr_scheduler.ReduceLROnPlateau(kwargs.pop("optimizer", opt), **kwargs)
    for kwargs in ({"factor": 1.0, "mode": "up"}, {"optimizer": "sgd", "mode": "up"}, {"min_lr": [0.1, 0.2]},
                   {"mode": "up"}, {"threshold_mode": "x"}):
        messages = []
        for lib in (core, torch):
            with pytest.raises((ValueError, TypeError)) as error:
                make(lib, **dict(kwargs))
            messages.append((type(error.value).__name__, str(error.value)))
        assert messages[0] == messages[1]


def _cosine_warmup(lib):
    """The UvA Transformers notebook's scheduler: a subclass of the legacy ``_LRScheduler`` name."""
    class CosineWarmup(lib.optim.lr_scheduler._LRScheduler):
        def __init__(self, optimizer, warmup, max_iters):
            self.warmup, self.max_num_iters = warmup, max_iters
            super().__init__(optimizer)

        def get_lr(self):
            factor = 0.5 * (1 + math.cos(math.pi * self.last_epoch / self.max_num_iters))
            factor *= min(1.0, self.last_epoch / self.warmup)
            return [base_lr * factor for base_lr in self.base_lrs]
    return CosineWarmup


def test_legacy_lr_scheduler_base_is_subclassed_as_in_torch(torch):
    def run(lib):
        opt = lib.optim.Adam([lib.nn.Parameter(lib.zeros(2))], lr=1e-3)
        sched = _cosine_warmup(lib)(opt, warmup=3, max_iters=10)
        lrs = [opt.param_groups[0]["lr"]]
        for _ in range(8):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr()[0])
        return lrs, [c.__name__ for c in type(sched).__mro__]
    assert run(core) == run(torch)


@pytest.mark.parametrize("name", ["sequential", "chained"])
def test_combined_schedulers_save_and_resume_as_torchs(torch, name):
    """SequentialLR's and ChainedScheduler's state_dict holds their own attributes and each scheduler's state, as
    torch's; loaded into a fresh one, it resumes the learning rates where the saved one was."""
    results = []
    for lib in (core, torch):
        opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
        sched = BUILDS[name](lib, opt)
        for _ in range(4):
            opt.step()
            sched.step()
        state = sched.state_dict()
        fresh_opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
        fresh = BUILDS[name](lib, fresh_opt)
        fresh.load_state_dict(state)
        fresh_opt.load_state_dict(opt.state_dict())
        lrs = []
        for _ in range(4):
            for s in (sched, fresh):
                s.optimizer.step()
                s.step()
            lrs.append((sched.get_last_lr(), fresh.get_last_lr()))
        results.append((sorted(state), [sorted(s) for s in state["_schedulers"]], lrs))
    assert results[0] == results[1]
    assert all(saved == resumed for saved, resumed in results[0][2])
