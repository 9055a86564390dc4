"""``dir()`` of the lr schedulers and of ``torch.cuda.Stream``/``Event`` as PyTorch's: the same public and private
names (``OneCycleLR._annealing_cos``, ``CyclicLR._scale_fn_ref``, ``SequentialLR.recursive_undo``...), the same
state_dict keys, and on a machine without a GPU the streams' module, repr and errors."""

import warnings

import pytest

import core

SCHEDULERS = {
    "OneCycleLR": lambda S, o: S.OneCycleLR(o, max_lr=0.1, total_steps=10),
    "OneCycleLR_linear": lambda S, o: S.OneCycleLR(o, max_lr=0.1, total_steps=10, anneal_strategy="linear"),
    "CyclicLR": lambda S, o: S.CyclicLR(o, 0.01, 0.1),
    "CyclicLR_exp_range": lambda S, o: S.CyclicLR(o, 0.01, 0.1, mode="exp_range", gamma=0.9),
    "CyclicLR_custom": lambda S, o: S.CyclicLR(o, 0.01, 0.1, scale_fn=lambda x: 0.5),
    "ReduceLROnPlateau": lambda S, o: S.ReduceLROnPlateau(o),
    "LambdaLR": lambda S, o: S.LambdaLR(o, lambda e: 0.9 ** e),
    "MultiplicativeLR": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.9),
    "SequentialLR": lambda S, o: S.SequentialLR(o, [S.ConstantLR(o), S.ExponentialLR(o, 0.9)], milestones=[2]),
    "ChainedScheduler": lambda S, o: S.ChainedScheduler([S.ConstantLR(o), S.ExponentialLR(o, 0.9)]),
    "StepLR": lambda S, o: S.StepLR(o, 2),
    "MultiStepLR": lambda S, o: S.MultiStepLR(o, [2]),
    "ExponentialLR": lambda S, o: S.ExponentialLR(o, 0.9),
    "LinearLR": lambda S, o: S.LinearLR(o),
    "ConstantLR": lambda S, o: S.ConstantLR(o),
    "PolynomialLR": lambda S, o: S.PolynomialLR(o),
    "CosineAnnealingLR": lambda S, o: S.CosineAnnealingLR(o, 10),
    "CosineAnnealingWarmRestarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, 3, T_mult=2),
}


def scheduler(lib, name, steps=0):
    opt = lib.optim.SGD(lib.nn.Linear(2, 2).parameters(), lr=0.1, momentum=0.9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sched = SCHEDULERS[name](lib.optim.lr_scheduler, opt)
        for _ in range(steps):
            opt.step()
            sched.step(1.0) if name == "ReduceLROnPlateau" else sched.step()
    return sched


@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_a_schedulers_names_are_torchs(torch, name):
    ours, theirs = scheduler(core, name, steps=3), scheduler(torch, name, steps=3)
    assert dir(ours) == dir(theirs)
    assert dir(type(ours)) == dir(type(theirs))
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert ours.get_last_lr() == pytest.approx(theirs.get_last_lr())


@pytest.mark.parametrize("name", ["CyclicLR", "CyclicLR_exp_range"])
def test_cyclic_lr_keeps_stepping_after_a_state_dict_round_trip(torch, name):
    lrs = []
    for lib in (core, torch):
        sched = scheduler(lib, name, steps=2)
        fresh = scheduler(lib, name)
        fresh.load_state_dict(sched.state_dict())
        fresh.optimizer.step()
        fresh.step()
        lrs.append(fresh.get_last_lr())
    assert lrs[0] == pytest.approx(lrs[1])


@pytest.mark.parametrize("name", ["Stream", "Event", "ExternalStream"])
def test_cuda_stream_classes_have_torchs_names_module_and_repr(torch, name):
    ours, theirs = getattr(core.cuda, name), getattr(torch.cuda, name)
    assert dir(ours) == dir(theirs)
    assert ours.__module__.replace("core", "torch", 1) == theirs.__module__
    assert repr(ours).replace("core.", "torch.", 1) == repr(theirs)
    assert ours is getattr(core.cuda.streams, name)


@pytest.mark.parametrize("make", [lambda lib: lib.cuda.Stream(), lambda lib: lib.cuda.Stream(priority=-1),
                                  lambda lib: lib.cuda.Event(), lambda lib: lib.cuda.Event(enable_timing=True)])
def test_making_a_cuda_stream_or_event_without_a_gpu_raises_torchs_error(torch, make):
    if core.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(RuntimeError) as ours:
        make(core)
    with pytest.raises(RuntimeError) as theirs:
        make(torch)
    assert str(ours.value) == str(theirs.value)
