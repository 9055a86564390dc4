"""``torch.optim``'s namespace, its functional forms (``_functional``) and ``swap_in_optimizer_params_and_state``,
against torch 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

# name -> (state buffers: (kind, fill) in the function's argument order; keyword hyperparameters)
_FORMS = {
    "sgd": ([("none", None)], dict(weight_decay=0.1, momentum=0.9, lr=0.1, dampening=0.0, nesterov=True,
                                    maximize=False)),
    "adam": ([("full", 0.0), ("full", 0.0), ("full", 0.0), ("step", 0.0)],
             dict(amsgrad=True, beta1=0.9, beta2=0.99, lr=0.01, weight_decay=0.1, eps=1e-8, maximize=False)),
    "adamw": ([("full", 0.0), ("full", 0.0), ("list", None), ("step", 0.0)],
              dict(amsgrad=False, beta1=0.9, beta2=0.99, lr=0.01, weight_decay=0.1, eps=1e-8, maximize=True)),
    "adamax": ([("full", 0.0), ("full", 0.0), ("step", 0.0)],
               dict(eps=1e-8, beta1=0.9, beta2=0.99, lr=0.01, weight_decay=0.01)),
    "nadam": ([("full", 0.0), ("full", 0.0), ("scalar", 1.0), ("step", 0.0)],
              dict(beta1=0.9, beta2=0.99, lr=0.01, weight_decay=0.0, momentum_decay=4e-3, eps=1e-8)),
    "radam": ([("full", 0.0), ("full", 0.0), ("step", 0.0)],
              dict(beta1=0.9, beta2=0.99, lr=0.01, weight_decay=0.0, eps=1e-8)),
    "adadelta": ([("full", 0.0), ("full", 0.0), ("step", 0.0)],
                 dict(lr=1.0, rho=0.9, eps=1e-6, weight_decay=0.0, maximize=False)),
    "adagrad": ([("full", 0.1), ("step", 0.0)], dict(lr=0.1, weight_decay=0.0, lr_decay=0.01, eps=1e-10,
                                                     maximize=False)),
    "rmsprop": ([("full", 0.0), ("full", 0.0), ("full", 0.0), ("step", 0.0)],
                dict(lr=0.01, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.9, centered=True)),
    "rprop": ([("full", 0.0), ("full", 0.01), ("step", 0.0)],
              dict(step_size_min=1e-6, step_size_max=50, etaminus=0.5, etaplus=1.2)),
    "asgd": ([("full", 0.0), ("scalar", 1.0), ("scalar", 0.01), ("step", 0.0)],
             dict(lambd=1e-4, lr=0.01, t0=1e6, alpha=0.75, weight_decay=0.0)),
}


def _buffers(lib, kind, fill, n):
    if kind == "none":
        return [None] * n
    if kind == "list":
        return []
    if kind in ("step", "scalar"):
        return [lib.tensor(fill) for _ in range(n)]
    return [lib.full((3, 4), fill) for _ in range(n)]


def _run_functional(lib, name, steps=3):
    """Three calls of the functional form on two float32 parameters; the parameters and every buffer after."""
    rng = np.random.default_rng(0)
    params = [lib.tensor(rng.standard_normal((3, 4)).astype(np.float32)) for _ in range(2)]
    specs, hyper = _FORMS[name]
    buffers = [_buffers(lib, kind, fill, len(params)) for kind, fill in specs]
    form = getattr(lib.optim._functional, name)
    for _ in range(steps):
        grads = [lib.tensor(rng.standard_normal((3, 4)).astype(np.float32)) for _ in params]
        form(params, grads, *buffers, **hyper)
    return params, buffers


@pytest.mark.parametrize("name", sorted(_FORMS))
def test_each_functional_form_updates_parameters_and_buffers_as_torchs_does(torch, name):
    ours, our_buffers = _run_functional(core, name)
    theirs, their_buffers = _run_functional(torch, name)
    assert_same(ours, theirs, rtol=1e-6, atol=1e-7)
    assert_same(our_buffers, their_buffers, rtol=1e-6, atol=1e-7)


def test_functional_sgd_fills_a_missing_momentum_buffer_in_the_callers_list():
    p = core.tensor([1.0, 2.0])
    buffers = [None]
    core.optim._functional.sgd([p], [core.tensor([0.5, 0.5])], buffers, weight_decay=0.0, momentum=0.9, lr=0.1,
                               dampening=0.0, nesterov=False, maximize=False)
    assert buffers[0] is not None and buffers[0].tolist() == [0.5, 0.5]
    assert p.tolist() == pytest.approx([0.95, 1.95])


def test_functional_adam_equals_one_step_of_the_adam_class_and_leaves_the_parameters_grad_alone():
    weight = core.nn.Parameter(core.tensor([[0.5, -1.0], [2.0, 0.25]]))
    twin = core.nn.Parameter(weight.detach().clone())
    grad = core.tensor([[0.1, -0.2], [0.3, 0.4]])
    m, v, step = core.zeros(2, 2), core.zeros(2, 2), core.tensor(0.0)
    core.optim._functional.adam([weight], [grad], [m], [v], [], [step], amsgrad=False, beta1=0.9, beta2=0.999,
                                lr=0.1, weight_decay=0.0, eps=1e-8, maximize=False)
    opt = core.optim.Adam([twin], lr=0.1)
    twin.grad = grad.clone()
    opt.step()
    assert weight.grad is None
    assert weight.tolist() == twin.tolist()
    assert m.tolist() == opt.state[twin]["exp_avg"].tolist() and step.item() == 1.0


def test_functional_sparse_adam_takes_its_steps_already_counted(torch):
    def run(lib):
        p = lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        grad = lib.sparse_coo_tensor([[0, 2]], [[0.5, -0.5], [1.0, 2.0]], (3, 2))
        m, v, steps = lib.zeros(3, 2), lib.zeros(3, 2), [1]
        lib.optim._functional.sparse_adam([p], [grad], [m], [v], steps, eps=1e-8, beta1=0.9, beta2=0.999, lr=0.1,
                                          maximize=False)
        return p, m, v, steps
    ours, theirs = run(core), run(torch)
    assert_same(list(ours[:3]), list(theirs[:3]), rtol=1e-6, atol=1e-7)
    assert ours[3] == theirs[3] == [1]


def test_dir_of_optim_lists_what_torchs_lists(torch):
    assert dir(core.optim) == dir(torch.optim)
    assert core.optim.__all__ == torch.optim.__all__


def test_the_modules_behind_the_classes_stay_importable():
    from core.optim.optimizer import Optimizer
    from core.optim.sgd import SGD

    assert issubclass(SGD, Optimizer) and core.optim.SGD is SGD
    assert not hasattr(core.optim, "sgd")


def _model_and_adam(lib):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = lib.optim.Adam(model.parameters(), lr=0.1)
    model(lib.ones(4, 3)).sum().backward()
    opt.step()
    return model, opt


def test_swap_in_steps_the_given_parameters_and_state_and_restores_the_live_optimizer(torch):
    def run(lib):
        model, opt = _model_and_adam(lib)
        live = [p.detach().clone() for p in model.parameters()]
        groups_before = [dict(g) for g in opt.param_groups]
        shadow = {n: p.detach().clone().requires_grad_(True) for n, p in model.named_parameters()}
        shadow_state = opt.state_dict()
        shadow_state["param_groups"][0]["lr"] = 0.5
        for p in shadow.values():
            p.grad = lib.ones_like(p)
        with lib.optim.swap_in_optimizer_params_and_state(opt, shadow, shadow_state):
            opt.step()
        restored = all(a.equal(b) for a, b in zip(model.parameters(), live))
        same_groups = [{k: v for k, v in g.items()} for g in opt.param_groups] == groups_before
        return list(shadow.values()), shadow_state["state"][0]["exp_avg"], shadow_state["state"][0]["step"], \
            restored, same_groups, opt.param_groups[0]["lr"]
    ours, theirs = run(core), run(torch)
    assert_same(list(ours[:3]), list(theirs[:3]), rtol=1e-6, atol=1e-7)
    assert ours[3:] == theirs[3:] == (True, True, 0.1)


@pytest.mark.parametrize("case", ["uninitialised", "group_count", "group_size", "group_keys", "extra_state"])
def test_swap_in_refuses_a_state_that_does_not_fit_the_optimizer_as_torch_does(torch, case):
    def attempt(lib):
        model, opt = _model_and_adam(lib)
        params = dict(model.named_parameters())
        state = opt.state_dict()
        if case == "uninitialised":
            opt = lib.optim.Adam(model.parameters())
        elif case == "group_count":
            state["param_groups"].append(dict(state["param_groups"][0]))
        elif case == "group_size":
            state["param_groups"][0]["params"] = [0]
        elif case == "group_keys":
            state["param_groups"][0]["momentum"] = 0.9
        else:
            state["state"][7] = {}
        with pytest.raises(RuntimeError) as info:
            with lib.optim.swap_in_optimizer_params_and_state(opt, params, state):
                pass
        return str(info.value)
    assert attempt(core) == attempt(torch)
