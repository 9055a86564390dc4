"""``GradScaler.step`` with an optimizer that handles scaling itself (``_step_supports_amp_scaling = True``), as
PyTorch 2.13's: a ``step`` with a ``grad_scaler`` parameter gets the scaler (and a FutureWarning); any other finds
``grad_scale`` and ``found_inf`` set on the optimizer during the step (deleted after), and unscales and skips by
itself. Library optimizers (apex-style fused Adam ports) use this contract."""

import warnings

import numpy as np
import pytest


def _run(lib, with_kwarg, poison):
    class Kwarg(lib.optim.SGD):
        _step_supports_amp_scaling = True

        def step(self, closure=None, grad_scaler=None):
            inv = grad_scaler._get_scale_async().double().reciprocal().float()
            found = sum(v.item() for v in grad_scaler._check_inf_per_device(self).values())
            seen.append(("kwarg", inv.item(), found))
            if found:
                return None
            for g in self.param_groups:
                for p in g["params"]:
                    p.grad.mul_(inv)
            return super().step(closure)

    class Attributes(lib.optim.Optimizer):
        _step_supports_amp_scaling = True

        def __init__(self, params, lr):
            super().__init__(params, dict(lr=lr))

        @lib.no_grad()
        def step(self, closure=None):
            seen.append(("attributes", self.grad_scale.item(), self.found_inf.item()))
            if self.found_inf.item():
                return None
            for g in self.param_groups:
                for p in g["params"]:
                    p.add_(p.grad / self.grad_scale, alpha=-g["lr"])
            return None

    seen = []
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = (Kwarg if with_kwarg else Attributes)(model.parameters(), lr=0.1)
    scaler = lib.amp.GradScaler("cpu", init_scale=8.0, growth_interval=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i in range(4):
            opt.zero_grad()
            loss = model(lib.randn(4, 3)).pow(2).mean()
            scaler.scale(loss).backward()
            if poison and i == 1:
                model.weight.grad[0, 0] = float("inf")
            scaler.step(opt)
            scaler.update()
            seen.append(scaler.get_scale())
    leftover = hasattr(opt, "grad_scale") or hasattr(opt, "found_inf")
    return seen, model.weight.detach().numpy().copy(), [str(w.message)[:40] for w in caught], leftover


@pytest.mark.parametrize("poison", [False, True])
@pytest.mark.parametrize("with_kwarg", [True, False])
def test_a_scaling_aware_optimizer_steps_as_in_torch(torch, with_kwarg, poison):
    import core

    ours, theirs = _run(core, with_kwarg, poison), _run(torch, with_kwarg, poison)
    assert ours[0] == theirs[0]
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    assert ours[2] == theirs[2]
    assert ours[3] is theirs[3] is False
