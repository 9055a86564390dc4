"""A Tensor learning rate in Adam/AdamW and the LR schedulers, as PyTorch 2.13 handles it.

Adam and AdamW take ``lr=torch.tensor(0.01)`` (PyTorch divides it by the bias correction in tensor ops and
hands the 0-d result to ``addcdiv_``; AdamW's decay multiplies by ``1 - lr * weight_decay`` as a tensor), and
refuse a Tensor lr with more than one element, or with ``foreach=True`` unless capturable. The schedulers never
alias a Tensor rate: they fill the group's tensor in place, clone it into ``initial_lr`` and ``_last_lr``, so a
wrapper that rescales ``group['lr']`` in place (Tony-Y's pytorch_warmup dampening) leaves them untouched.
"""

import numpy as np
import pytest

import core


def _run(lib, make_opt, make_sched, steps=6):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.Tanh(), lib.nn.Linear(8, 2))
    x, y = lib.randn(10, 4), lib.randn(10, 2)
    opt = make_opt(lib, model.parameters())
    sched = make_sched(lib, opt) if make_sched else None
    lr_object = opt.param_groups[0]["lr"]
    seen = []
    for _ in range(steps):
        opt.zero_grad()
        loss = lib.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
            opt.param_groups[0]["lr"] *= 0.5  # a warmup wrapper's in-place dampening
        seen.append((loss.item(), float(opt.param_groups[0]["lr"])))
    extra = None
    if sched is not None:
        extra = ([float(v) for v in sched.get_last_lr()], [float(v) for v in sched.base_lrs],
                 opt.param_groups[0]["lr"] is lr_object)
    return seen, [p.detach().numpy().copy() for p in model.parameters()], extra


OPTIMIZERS = {
    "Adam": lambda lib, ps: lib.optim.Adam(ps, lr=lib.tensor(0.01)),
    "AdamW": lambda lib, ps: lib.optim.AdamW(ps, lr=lib.tensor(0.02), weight_decay=0.1),
    "Adam amsgrad": lambda lib, ps: lib.optim.Adam(ps, lr=lib.tensor(0.01), amsgrad=True),
}
SCHEDULERS = {
    "none": None,
    "ExponentialLR": lambda lib, o: lib.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
    "StepLR": lambda lib, o: lib.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
}


@pytest.mark.parametrize("sched", list(SCHEDULERS))
@pytest.mark.parametrize("opt", list(OPTIMIZERS))
def test_a_tensor_lr_trains_as_in_torch(torch, opt, sched):
    ours = _run(core, OPTIMIZERS[opt], SCHEDULERS[sched])
    theirs = _run(torch, OPTIMIZERS[opt], SCHEDULERS[sched])
    np.testing.assert_allclose(np.array(ours[0]), np.array(theirs[0]), rtol=1e-5)
    for a, b in zip(ours[1], theirs[1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7)
    if ours[2] is not None:
        np.testing.assert_allclose(ours[2][0], theirs[2][0], rtol=1e-6)
        np.testing.assert_allclose(ours[2][1], theirs[2][1], rtol=1e-6)
        assert ours[2][2] is theirs[2][2] is True


@pytest.mark.parametrize("kwargs", [dict(lr=[0.1, 0.2]), dict(lr=0.01, foreach=True)])
def test_bad_tensor_lrs_are_refused_as_in_torch(torch, kwargs):
    messages = []
    for lib in (core, torch):
        given = dict(kwargs, lr=lib.tensor(kwargs["lr"]))
        with pytest.raises(ValueError) as error:
            lib.optim.Adam([lib.zeros(2, requires_grad=True)], **given)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
