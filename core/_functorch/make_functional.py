"""``torch._functorch.make_functional``: the legacy functorch package's stateless modules, ``make_functional``,
``make_functional_with_buffers`` and ``combine_state_for_ensemble`` (``torch.func.functional_call`` and
``stack_module_state`` replaced them). A functional module is a copy of the model with its parameters (and buffers)
taken out, meta tensors in their place (``fmodel.parameters()`` lists meta parameters); each call puts the given
tensors back for the call only. A tensor the model holds under several names (tied weights) is one entry of the
state.
"""

from __future__ import annotations

import copy

import core
from core import nn

__all__ = ["FunctionalModule", "FunctionalModuleWithBuffers", "make_functional", "make_functional_with_buffers",
           "combine_state_for_ensemble", "extract_weights", "extract_buffers"]


def _swap(module, name: str, value):
    """Put ``value`` under dotted ``name`` (into the owner's parameter or buffer table as it is, a plain tensor
    too, as PyTorch's accessor does); the tensor that was there."""
    *path, last = name.split(".")
    owner = module.get_submodule(".".join(path))
    for table in (owner._parameters, owner._buffers):
        if last in table:
            old, table[last] = table[last], value
            return old
    old = getattr(owner, last)
    setattr(owner, last, value)
    return old


def _extract(module, named, subclass):
    """Take out ``module``'s parameters or buffers (``named``: ``named_parameters`` or ``named_buffers``), a meta
    tensor (made ``subclass``) in each one's place: ``(tensors, names, {name: every name of that tensor})``."""
    unique = tuple(named(remove_duplicate=True))
    first = {id(tensor): name for name, tensor in unique}
    names_map = {name: [] for name, _ in unique}
    memo = {}
    for name, tensor in tuple(named(remove_duplicate=False)):
        names_map[first[id(tensor)]].append(name)
        if id(tensor) not in memo:
            memo[id(tensor)] = subclass(core.empty_like(tensor, device="meta"))
        _swap(module, name, memo[id(tensor)])
    return tuple(tensor for _, tensor in unique), tuple(name for name, _ in unique), names_map


def extract_weights(module):
    return _extract(module, module.named_parameters, nn.Parameter)


def extract_buffers(module):
    return _extract(module, module.named_buffers, lambda x: x)


def _swap_state(module, names_map: dict, tensors) -> list:
    """Put ``tensors`` under their names (every name of each); the tensors that were there, in the same order."""
    old = []
    for names, tensor in zip(names_map.values(), tensors):
        old.append(_swap(module, names[0], tensor))
        for name in names[1:]:
            _swap(module, name, tensor)
    return old


class FunctionalModule(nn.Module):
    """What ``make_functional`` returns: ``fmodel(params, *args, **kwargs)``."""

    def __init__(self, stateless_model, param_names, names_map) -> None:
        super().__init__()
        self.stateless_model, self.param_names, self.names_map = stateless_model, param_names, names_map

    @staticmethod
    def _create_from(model, disable_autograd_tracking: bool = False):
        model_copy = copy.deepcopy(model)
        params, param_names, names_map = extract_weights(model_copy)
        if disable_autograd_tracking:
            for param in params:
                param.requires_grad_(False)
        return FunctionalModule(model_copy, param_names, names_map), params

    def forward(self, params, *args, **kwargs):
        old = _swap_state(self.stateless_model, self.names_map, params)
        try:
            return self.stateless_model(*args, **kwargs)
        finally:
            _swap_state(self.stateless_model, self.names_map, old)


class FunctionalModuleWithBuffers(nn.Module):
    """What ``make_functional_with_buffers`` returns: ``fmodel(params, buffers, *args, **kwargs)``."""

    def __init__(self, stateless_model, param_names, buffer_names, param_names_map, buffer_names_map) -> None:
        super().__init__()
        self.stateless_model, self.param_names, self.buffer_names = stateless_model, param_names, buffer_names
        self.all_names_map = dict(param_names_map)
        self.all_names_map.update(buffer_names_map)

    @staticmethod
    def _create_from(model, disable_autograd_tracking: bool = False):
        model_copy = copy.deepcopy(model)
        params, param_names, param_names_map = extract_weights(model_copy)
        buffers, buffer_names, buffer_names_map = extract_buffers(model_copy)
        if disable_autograd_tracking:
            for param in params:
                param.requires_grad_(False)
        return (FunctionalModuleWithBuffers(model_copy, param_names, buffer_names, param_names_map,
                                            buffer_names_map), params, buffers)

    def forward(self, params, buffers, *args, **kwargs):
        old = _swap_state(self.stateless_model, self.all_names_map, tuple(params) + tuple(buffers))
        try:
            return self.stateless_model(*args, **kwargs)
        finally:
            _swap_state(self.stateless_model, self.all_names_map, old)


def make_functional(model, disable_autograd_tracking: bool = False):
    """``(fmodel, params)`` of a model without buffers (a copy of ``model``'s parameters' tensors are the params)."""
    if len(tuple(model.buffers())) > 0:
        raise RuntimeError("make_functional(model): `model` has buffers. Please use "
                           "make_functional_with_buffers(model) instead.")
    return FunctionalModule._create_from(model, disable_autograd_tracking=disable_autograd_tracking)


def make_functional_with_buffers(model, disable_autograd_tracking: bool = False):
    """``(fmodel, params, buffers)``."""
    return FunctionalModuleWithBuffers._create_from(model, disable_autograd_tracking=disable_autograd_tracking)


def _transpose_stack(states):
    return tuple(core.stack(shards).detach() for shards in zip(*states))


def combine_state_for_ensemble(models):
    """``(fmodel, params, buffers)`` of models of one class and mode, each state stacked along a new dim 0 (for
    ``vmap(fmodel)``)."""
    if len(models) == 0:
        raise RuntimeError("combine_state_for_ensemble: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("combine_state_for_ensemble: Expected all models to have the same training/eval mode.")
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("combine_state_for_ensemble: Expected all models to be of the same class.")
    funcs, params, buffers = zip(*[make_functional_with_buffers(model) for model in models])
    return funcs[0], _transpose_stack(params), _transpose_stack(buffers)
