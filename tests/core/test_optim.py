"""Optimizers and schedulers follow PyTorch's trajectories step for step (float64, within 1e-10)."""

import numpy as np
import pytest

import core

OPTIMIZERS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.3, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.1)),
    ("SGD", dict(lr=0.005, momentum=0.5, maximize=True)),
    ("Adam", dict()),
    ("Adam", dict(lr=0.05, amsgrad=True)),
    ("Adam", dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.1)),
    ("Adam", dict(lr=0.02, maximize=True)),
    ("AdamW", dict(lr=0.05)),
    ("AdamW", dict(lr=0.05, weight_decay=0.3, amsgrad=True)),
    ("RMSprop", dict()),
    ("RMSprop", dict(lr=0.01, momentum=0.9, centered=True, weight_decay=0.05)),
    ("RMSprop", dict(lr=0.01, alpha=0.9, momentum=0.5)),
    ("Adagrad", dict()),
    ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5)),
    ("Adadelta", dict()),
    ("Adadelta", dict(lr=0.5, rho=0.8, weight_decay=0.1)),
]

_START = np.random.default_rng(3).standard_normal((2, 3, 4)) * 0.5


def _loss(p, q):
    """A bounded non-quadratic loss built only from + - * sum, so gradients change every step."""
    return ((p - q) * (p - q)).sum() + (p * p * q * q).sum() * 0.1 + (p * p + q * q).sum() * 0.1


def _trajectory(lib, name, kwargs, steps=30, groups=False):
    p = lib.tensor(_START[0].copy(), requires_grad=True)
    q = lib.tensor(_START[1].copy(), requires_grad=True)
    if groups:
        params = [{"params": [p]}, {"params": [q], "lr": kwargs.get("lr", 0.01) * 0.5}]
    else:
        params = [p, q]
    opt = getattr(lib.optim, name)(params, **kwargs)
    out = []
    for _ in range(steps):
        opt.zero_grad()
        _loss(p, q).backward()
        opt.step()
        out.append(np.concatenate([p.detach().numpy().ravel(), q.detach().numpy().ravel()]))
    return np.array(out)


@pytest.mark.parametrize(("name", "kwargs"), OPTIMIZERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(OPTIMIZERS)])
def test_optimizer_matches_pytorch_trajectory(torch, name, kwargs):
    torch.set_default_dtype(torch.float64)
    try:
        theirs = _trajectory(torch, name, kwargs)
    finally:
        torch.set_default_dtype(torch.float32)
    ours = _trajectory(core, name, kwargs)
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10)


@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad"])
def test_parameter_groups_keep_their_own_learning_rate(torch, name):
    kwargs = dict(lr=0.05, momentum=0.9) if name == "SGD" else dict(lr=0.05)
    np.testing.assert_allclose(_trajectory(core, name, kwargs, groups=True),
                               _trajectory(torch, name, kwargs, groups=True), rtol=0, atol=1e-10)


@pytest.mark.parametrize(("name", "kwargs"), [("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
                                              ("Adam", dict(lr=0.05, amsgrad=True)),
                                              ("RMSprop", dict(lr=0.01, momentum=0.5, centered=True))])
def test_state_dict_round_trip_continues_the_same_trajectory(name, kwargs):
    whole = _trajectory(core, name, kwargs, steps=20)
    p = core.tensor(_START[0].copy(), requires_grad=True)
    q = core.tensor(_START[1].copy(), requires_grad=True)
    opt = getattr(core.optim, name)([p, q], **kwargs)
    for _ in range(10):
        opt.zero_grad()
        _loss(p, q).backward()
        opt.step()
    saved = opt.state_dict()
    assert sorted(saved) == ["param_groups", "state"] and saved["param_groups"][0]["params"] == [0, 1]
    fresh = getattr(core.optim, name)([p, q], **kwargs)
    fresh.load_state_dict(saved)
    for _ in range(10):
        fresh.zero_grad()
        _loss(p, q).backward()
        fresh.step()
    np.testing.assert_allclose(np.concatenate([p.detach().numpy().ravel(), q.detach().numpy().ravel()]),
                               whole[-1], rtol=0, atol=1e-12)


def test_lbfgs_matches_pytorch(torch):
    results = []
    for lib in (core, torch):
        p = lib.tensor(_START[0].copy(), requires_grad=True)
        q = lib.tensor(_START[1].copy(), requires_grad=True)
        opt = lib.optim.LBFGS([p, q], lr=0.5, max_iter=15, history_size=5)

        def closure(opt=opt, p=p, q=q):
            opt.zero_grad()
            loss = ((p - q) * (p - q)).sum() + (p * p * q * q).sum()
            loss.backward()
            return loss

        for _ in range(3):
            opt.step(closure)
        results.append(np.concatenate([p.detach().numpy().ravel(), q.detach().numpy().ravel()]))
    np.testing.assert_allclose(results[0], results[1], rtol=0, atol=1e-9)


def test_zero_grad_sets_to_none_by_default_or_zeroes():
    p = core.tensor([1.0, 2.0], requires_grad=True)
    opt = core.optim.SGD([p], lr=0.1)
    (p * p).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert p.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert p.grad is None


def test_step_bumps_the_parameter_version_and_skips_params_without_grad():
    p = core.tensor([1.0, 2.0], requires_grad=True)
    unused = core.tensor([5.0], requires_grad=True)
    opt = core.optim.SGD([p, unused], lr=0.5)
    (p * p).sum().backward()
    before = p._version
    opt.step()
    assert p.tolist() == [0.0, 0.0] and p._version == before + 1
    assert unused.tolist() == [5.0]


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: core.optim.SGD([p], lr=-1), "Invalid learning rate"),
    (lambda p: core.optim.SGD([p], lr=0.1, nesterov=True), "Nesterov momentum requires"),
    (lambda p: core.optim.Adam([p], betas=(1.0, 0.9)), "Invalid beta parameter at index 0"),
    (lambda p: core.optim.SGD([], lr=0.1), "empty parameter list"),
    (lambda p: core.optim.SGD([p * 2], lr=0.1), "can't optimize a non-leaf Tensor"),
])
def test_bad_hyperparameters_raise_value_error(make, message):
    p = core.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match=message):
        make(p)


def test_optimizer_repr_lists_its_groups():
    p = core.tensor([1.0], requires_grad=True)
    text = repr(core.optim.SGD([p], lr=0.1, momentum=0.9))
    assert text.startswith("SGD (\nParameter Group 0\n") and "    lr: 0.1" in text and "    momentum: 0.9" in text


SCHEDULERS = [
    ("StepLR", dict(step_size=7, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[3, 8, 8, 20], gamma=0.3)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("CosineAnnealingLR", dict(T_max=10, eta_min=0.001)),
    ("LambdaLR", dict(lr_lambda=lambda e: 1.0 / (1 + e))),
    ("OneCycleLR", dict(max_lr=0.5, total_steps=31)),
    ("OneCycleLR", dict(max_lr=0.5, total_steps=31, three_phase=True, anneal_strategy="linear")),
]


def _lr_sequence(lib, name, kwargs, optimizer="SGD"):
    p = lib.tensor([1.0], requires_grad=True)
    opt = getattr(lib.optim, optimizer)([p], lr=0.1, momentum=0.9) if optimizer == "SGD" else \
        getattr(lib.optim, optimizer)([p], lr=0.1)
    sched = getattr(lib.optim.lr_scheduler, name)(opt, **kwargs)
    out = []
    for _ in range(30):
        opt.step()
        sched.step()
        group = opt.param_groups[0]
        out += [sched.get_last_lr()[0], group.get("momentum", group.get("betas", (0,))[0])]
    return out


@pytest.mark.parametrize(("name", "kwargs"), SCHEDULERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(SCHEDULERS)])
def test_scheduler_matches_pytorch_learning_rates(torch, name, kwargs):
    assert _lr_sequence(core, name, kwargs) == pytest.approx(_lr_sequence(torch, name, kwargs), rel=0, abs=1e-15)


def test_one_cycle_cycles_adam_beta1(torch):
    kwargs = dict(max_lr=0.5, total_steps=31)
    assert _lr_sequence(core, "OneCycleLR", kwargs, "Adam") == \
        pytest.approx(_lr_sequence(torch, "OneCycleLR", kwargs, "Adam"), abs=1e-15)


def test_reduce_lr_on_plateau_matches_pytorch(torch):
    metrics = [5, 4, 4, 4, 4, 3.9999, 4, 4, 4, 4, 4, 2, 2, 2, 2, 2, 2, 2]
    seqs = []
    for lib in (core, torch):
        p = lib.tensor([1.0], requires_grad=True)
        opt = lib.optim.SGD([p], lr=1.0)
        sched = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2, cooldown=1, factor=0.5, min_lr=0.1)
        seq = []
        for m in metrics:
            sched.step(m)
            seq.append(opt.param_groups[0]["lr"])
        seqs.append(seq)
    assert seqs[0] == seqs[1]


def test_scheduler_state_dict_resumes():
    p = core.tensor([1.0], requires_grad=True)
    opt = core.optim.SGD([p], lr=1.0)
    sched = core.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
    for _ in range(3):
        sched.step()
    state = sched.state_dict()
    assert state["last_epoch"] == 3 and "optimizer" not in state
    other = core.optim.lr_scheduler.StepLR(core.optim.SGD([p], lr=1.0), step_size=2, gamma=0.5)
    other.load_state_dict(state)
    assert other.last_epoch == 3 and other.get_last_lr() == [0.5]


def test_a_group_given_a_parameter_generator_keeps_every_parameter(torch):
    """``[{"params": model[0].parameters()}, ...]``: the group's generator is read once, into the group's list."""
    counts = []
    for lib in (core, torch):
        model = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU(), lib.nn.Linear(3, 1))
        opt = lib.optim.Adam([{"params": model[0].parameters()}, {"params": model[2].parameters(), "lr": 0.1}])
        counts.append([len(g["params"]) for g in opt.param_groups])
        model(lib.ones(4, 2)).sum().backward()
        opt.step()
        assert len(opt.state) == 4
    assert counts[0] == counts[1] == [2, 2]
