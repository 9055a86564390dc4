"""A3C-style shared optimizers (``SharedAdam``, ``SharedRMSprop``) and ``share_memory``, as PyTorch 2.13 runs them.

Asynchronous actor-critic code (ikostrikov's pytorch-a3c, Grokking Deep RL, MorvanZhou's A3C and their many copies)
subclasses ``torch.optim.Adam`` or ``RMSprop``, fills each parameter's state in ``__init__`` and calls
``share_memory_()`` on it. PyTorch steps a saved ``step`` of ``torch.zeros(1)`` and keeps its shape [1]; it refuses
a group whose ``step`` is a Python int (the older recipe, ``state['step'] = 0``) before updating any parameter.
``Module.share_memory()`` and ``Tensor.share_memory_()`` make ``is_shared()`` true.
"""

import pytest

import core
from tests.core.oracle import assert_same, raised


def _shared_adam(lib, step_value):
    class SharedAdam(lib.optim.Adam):
        def __init__(self, params, lr=1e-3, amsgrad=False):
            super().__init__(params, lr=lr, amsgrad=amsgrad)
            for group in self.param_groups:
                for p in group["params"]:
                    state = self.state[p]
                    state["step"] = step_value(lib)
                    state["exp_avg"] = p.data.new().resize_as_(p.data).zero_()
                    state["exp_avg_sq"] = p.data.new().resize_as_(p.data).zero_()
                    if amsgrad:
                        state["max_exp_avg_sq"] = lib.zeros_like(p.data)

        def share_memory(self):
            for group in self.param_groups:
                for p in group["params"]:
                    for key in ("step", "exp_avg", "exp_avg_sq"):
                        self.state[p][key].share_memory_()

    return SharedAdam


def _shared_rmsprop(lib):
    class SharedRMSprop(lib.optim.RMSprop):
        def __init__(self, params, lr=1e-2):
            super().__init__(params, lr=lr)
            for group in self.param_groups:
                for p in group["params"]:
                    self.state[p]["step"] = 0
                    self.state[p]["square_avg"] = lib.zeros_like(p.data).share_memory_()

    return SharedRMSprop


def _train(lib, make_optimizer, steps=3):
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    opt = make_optimizer(model.parameters())
    for _ in range(steps):
        opt.zero_grad()
        model(lib.ones(4, 3)).pow(2).sum().backward()
        opt.step()
    return model, opt


@pytest.mark.parametrize("amsgrad", [False, True])
def test_a_saved_one_element_step_is_counted_and_keeps_its_shape(torch, amsgrad):
    def fn(lib):
        adam = _shared_adam(lib, lambda lib: lib.zeros(1))
        model, opt = _train(lib, lambda params: adam(params, lr=0.1, amsgrad=amsgrad))
        opt.share_memory()
        state = opt.state[model.weight]
        return model.weight.detach(), state["step"], state["exp_avg"], state["exp_avg_sq"]

    assert_same(fn(core), fn(torch))


def test_a_saved_python_int_step_is_refused_before_any_parameter_moves(torch):
    def fn(lib):
        adam = _shared_adam(lib, lambda lib: 0)
        lib.manual_seed(0)
        model = lib.nn.Linear(3, 2)
        before = model.weight.detach().clone()
        opt = adam(model.parameters(), lr=0.1)
        model(lib.ones(4, 3)).sum().backward()
        return raised(opt.step), bool((model.weight == before).all())

    ours, theirs = fn(core), fn(torch)
    assert ours == theirs
    assert ours[0][0] == "RuntimeError" and ours[1]


@pytest.mark.parametrize("name", ["Adam", "AdamW", "Adamax", "NAdam", "RAdam", "RMSprop", "Rprop", "Adagrad",
                                  "Adadelta"])
def test_optimizers_with_a_tensor_step_refuse_an_int_one(torch, name):
    def fn(lib):
        model = lib.nn.Linear(2, 1)
        opt = getattr(lib.optim, name)(model.parameters())
        model(lib.ones(1, 2)).sum().backward()
        opt.step()
        opt.state[model.weight]["step"] = 5
        model(lib.ones(1, 2)).sum().backward()
        return raised(opt.step)

    ours, theirs = fn(core), fn(torch)
    assert ours == theirs
    assert ours[0] == "RuntimeError"


def test_sgd_keeps_whatever_step_a_subclass_saves(torch):
    def fn(lib):
        lib.manual_seed(0)
        model = lib.nn.Linear(2, 1)
        opt = lib.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        opt.state[model.weight]["step"] = 0
        model(lib.ones(1, 2)).sum().backward()
        opt.step()
        return opt.state[model.weight]["step"], model.weight.detach()

    ours, theirs = fn(core), fn(torch)
    assert ours[0] == theirs[0] == 0
    assert_same(ours[1], theirs[1])


def test_shared_rmsprop_with_an_int_step_fails_as_torch_does(torch):
    def fn(lib):
        return raised(lambda: _train(lib, lambda params: _shared_rmsprop(lib)(params)))

    ours, theirs = fn(core), fn(torch)
    assert ours == theirs
    assert ours[0] == "RuntimeError"


def test_share_memory_marks_tensors_their_views_and_a_modules_parameters_shared(torch):
    def fn(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.BatchNorm1d(2))
        before = [t.is_shared() for t in (*model.parameters(), *model.buffers())]
        model.share_memory()
        after = [t.is_shared() for t in (*model.parameters(), *model.buffers())]
        x = lib.zeros(4)
        fresh = x.is_shared()
        same = x.share_memory_() is x
        return (before, after, model[0].weight.data.is_shared(), fresh, same, x.is_shared(), x[1:].is_shared(),
                x.view(2, 2).is_shared(), x.clone().is_shared(), (x + 1).is_shared())

    assert fn(core) == fn(torch)
