"""``Optimizer.state_dict``/``load_state_dict`` internals that third-party optimizers rely on, as PyTorch 2.13's.

Libraries written against ``torch.optim.Optimizer`` (lessw2020's Ranger, facebookresearch's MADGRAD, Luolc's
AdaBound) lean on details of the base class: ``state_dict()`` returns references to the optimizer's own state (not
copies) and keeps state stored under keys that are not parameters (MADGRAD's ``self.state['k']``);
``load_state_dict`` sets the new state and groups through ``__setstate__`` (which subclasses override to fill in
defaults), puts new group dicts in ``param_groups``, casts state tensors to each parameter's dtype without copying
the ones that already match, and leaves ``step`` as it is.
"""

import copy

import numpy as np

import core


def _optimizer_class(lib):
    class Momentum(lib.optim.Optimizer):
        """A small library-style optimizer: a counter outside the per-parameter state, a ``__setstate__``."""

        def __init__(self, params, lr=0.1, beta=0.9):
            super().__init__(params, dict(lr=lr, beta=beta))
            self.state["k"] = 0
            self.set_states = []

        def __setstate__(self, state):
            self.set_states.append(sorted(state))
            super().__setstate__(state)
            for group in self.param_groups:
                group.setdefault("nesterov", False)

        @lib.no_grad()
        def step(self, closure=None):
            for group in self.param_groups:
                for p in group["params"]:
                    state = self.state[p]
                    if "buf" not in state:
                        state["step"] = lib.tensor(0.0)
                        state["buf"] = lib.zeros_like(p)
                        state["shape"] = tuple(p.shape)
                    state["step"] += 1
                    state["buf"].mul_(group["beta"]).add_(p.grad)
                    p.add_(state["buf"], alpha=-group["lr"])
            self.state["k"] += 1

    return Momentum


def _trained(lib, dtype=None):
    lib.manual_seed(0)
    w = lib.randn(3, 2, dtype=dtype, requires_grad=True)
    b = lib.randn(2, dtype=dtype, requires_grad=True)
    opt = _optimizer_class(lib)([{"params": [w]}, {"params": [b], "lr": 0.05}])
    for _ in range(3):
        opt.zero_grad()
        (w.sum(0) * b).pow(2).sum().backward()
        opt.step()
    return opt, w, b


def _both(torch, fn):
    return fn(core), fn(torch)


def test_state_dict_returns_references_to_the_optimizers_state(torch):
    def fn(lib):
        opt, w, b = _trained(lib)
        state = opt.state_dict()
        return (state["state"][0] is opt.state[w], state["state"][0]["buf"] is opt.state[w]["buf"],
                state["param_groups"][0] is opt.param_groups[0])
    ours, theirs = _both(torch, fn)
    assert ours == theirs == (True, True, False)


def test_state_under_a_key_that_is_not_a_parameter_is_kept_and_loaded_back(torch):
    def fn(lib):
        opt, w, b = _trained(lib)
        state = opt.state_dict()
        keys = [repr(k) for k in state["state"]]
        twin = _optimizer_class(lib)([{"params": [w.detach().clone()]}, {"params": [b.detach().clone()]}])
        twin.load_state_dict(state)
        return keys, twin.state["k"], sorted(map(repr, twin.state))
    ours, theirs = _both(torch, fn)
    assert ours == theirs
    assert ours[1] == 3


def test_load_state_dict_goes_through_setstate_and_adds_differentiable_to_the_defaults(torch):
    def fn(lib):
        opt, w, b = _trained(lib)
        twin = _optimizer_class(lib)([{"params": [w.detach().clone()]}, {"params": [b.detach().clone()]}])
        old_groups = twin.param_groups
        twin.load_state_dict(copy.deepcopy(opt.state_dict()))
        return (twin.set_states, sorted(twin.defaults), [sorted(g) for g in twin.param_groups],
                [g["lr"] for g in twin.param_groups], twin.param_groups is old_groups,
                twin.param_groups[0] is old_groups[0])
    ours, theirs = _both(torch, fn)
    assert ours == theirs
    assert ours[0] == [["param_groups", "state"]]


def test_loaded_state_tensors_are_shared_when_the_dtype_matches_and_cast_when_it_does_not(torch):
    def fn(lib):
        opt, w, b = _trained(lib)
        state = opt.state_dict()
        same = _optimizer_class(lib)([{"params": [w.detach().clone()]}, {"params": [b.detach().clone()]}])
        same.load_state_dict(state)
        p64 = w.detach().double()
        wide = _optimizer_class(lib)([{"params": [p64]}, {"params": [b.detach().double()]}])
        wide.load_state_dict(state)
        loaded = wide.state[p64]
        return (same.state[same.param_groups[0]["params"][0]]["buf"] is opt.state[w]["buf"],
                str(loaded["buf"].dtype), str(loaded["step"].dtype), loaded["step"] is opt.state[w]["step"],
                type(loaded["shape"]).__name__, loaded["shape"])
    ours, theirs = _both(torch, fn)
    assert ours == theirs
    assert ours[:4] == (True, "torch.float64", "torch.float32", True)


def test_the_trained_state_matches_torch(torch):
    ours, theirs = _both(torch, _trained)
    for a, b in zip(ours[1:], theirs[1:]):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6)
    buf_ours = ours[0].state_dict()["state"][1]["buf"]
    buf_theirs = theirs[0].state_dict()["state"][1]["buf"]
    np.testing.assert_allclose(buf_ours.numpy(), buf_theirs.numpy(), rtol=1e-6)
