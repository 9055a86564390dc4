"""``torch.utils.swap_tensors``, ``torch.__future__``'s conversion flags and ``Tensor.module_load`` against PyTorch:
what a module's ``to()``/``double()`` and ``load_state_dict`` do to the parameter objects others hold."""

from __future__ import annotations

import pytest

import core


def _swap(lib):
    t1, t2 = lib.arange(2), lib.arange(3)
    ids = id(t1), id(t2)
    lib.utils.swap_tensors(t1, t2)
    p, t = lib.nn.Parameter(lib.ones(2)), lib.zeros(3)
    lib.utils.swap_tensors(p, t)
    return repr(t1), repr(t2), (id(t1), id(t2)) == ids, type(p).__name__, repr(p), type(t).__name__, repr(t)


def test_swap_tensors_exchanges_content_and_class_but_keeps_identity(torch):
    assert _swap(core) == _swap(torch)


@pytest.fixture
def flags(torch):
    yield
    for lib in (core, torch):
        lib.__future__.set_swap_module_params_on_conversion(False)
        lib.__future__.set_overwrite_module_params_on_conversion(False)


@pytest.mark.parametrize("mode", ["default", "swap", "overwrite"])
def test_module_conversion_keeps_or_replaces_parameter_objects_as_the_future_flags_say(torch, flags, mode):
    def convert(lib):
        lib.__future__.set_swap_module_params_on_conversion(mode == "swap")
        lib.__future__.set_overwrite_module_params_on_conversion(mode == "overwrite")
        lib.manual_seed(0)
        layer = lib.nn.Linear(2, 2)
        layer(lib.ones(1, 2)).sum().backward()
        weight, grad = layer.weight, layer.weight.grad
        layer.double()
        return (str(weight.dtype), layer.weight is weight, type(layer.weight).__name__, str(layer.weight.dtype),
                str(layer.weight.grad.dtype), layer.weight.grad is grad, layer.weight.tolist(),
                lib.__future__.get_swap_module_params_on_conversion())

    assert convert(core) == convert(torch)


@pytest.mark.parametrize("assign", [False, True])
def test_load_state_dict_swaps_module_load_results_into_the_parameters(torch, flags, assign):
    def load(lib):
        lib.__future__.set_swap_module_params_on_conversion(True)
        lib.manual_seed(0)
        layer, source = lib.nn.Linear(2, 1), lib.nn.Linear(2, 1)
        weight = layer.weight
        state = source.state_dict()
        layer.load_state_dict(state, assign=assign)
        return (layer.weight is weight, type(layer.weight).__name__, layer.weight.requires_grad,
                layer.weight.tolist() == source.weight.tolist(), state["weight"] is layer.weight)

    assert load(core) == load(torch)


def test_module_load_copies_or_detaches_as_torchs(torch):
    def run(lib):
        a, b = lib.ones(2), lib.tensor([2.0, 3.0], requires_grad=True)
        copied = a.module_load(b)
        assigned = a.module_load(b, assign=True)
        return repr(copied), repr(a), repr(assigned), assigned.requires_grad

    assert run(core) == run(torch)
