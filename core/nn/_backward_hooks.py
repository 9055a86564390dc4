"""Full backward hooks of modules: ``hook(module, grad_input, grad_output)`` like PyTorch's.

The module's tensor inputs pass through one identity primitive and its outputs through another;
the outputs' node sees ``grad_output`` first (and runs the backward pre-hooks, which may replace
it), the inputs' node then sees ``grad_input`` and calls the hooks, which may replace it.
"""

from __future__ import annotations

from core._tensor import Tensor
from core.autograd import grad_mode
from core.autograd.function import Function

__all__ = ["wrap_call", "hook_inputs", "hook_outputs"]


class _State:
    def __init__(self, module, n_inputs: int):
        self.module, self.n_inputs, self.grad_output = module, n_inputs, None


def _replace(results, grads, what: str):
    if results is None:
        return grads
    results = tuple(results) if isinstance(results, (tuple, list)) else (results,)
    if len(results) != len(grads):
        raise RuntimeError(f"Backward hook returned an invalid number of grad_{what}, got {len(results)}, but "
                           f"expected {len(grads)}")
    return results


class _HookInputs(Function):
    """The identity on a module's inputs, whose backward runs the module's full backward hooks."""

    node_name = "BackwardHookFunctionBackward"

    @staticmethod
    def forward(ctx, *args, state):
        ctx.state = state
        return tuple(Tensor._wrap(a._data) for a in args)

    @staticmethod
    def backward(ctx, *grads):
        state = ctx.state
        for hook in list(state.module._backward_hooks.values()):
            grads = _replace(hook(state.module, grads, state.grad_output), grads, "input")
        return grads


class _HookOutputs(_HookInputs):
    """The identity on a module's outputs (the same forward), whose backward runs its backward pre-hooks."""

    node_name = "BackwardHookFunctionBackward"  # (the metaclass reads a class's own, never its base's)

    @staticmethod
    def backward(ctx, *grads):
        state = ctx.state
        module = state.module
        for hook in list(module._backward_pre_hooks.values()):
            grads = _replace(hook(module, grads), grads, "output")
        state.grad_output = grads
        if state.n_inputs == 0:  # no input needs a gradient: the hooks run here with grad_input all None
            for hook in list(module._backward_hooks.values()):
                hook(module, (None,), grads)
        return grads


def wrap_call(module, forward, args, kwargs):
    """Run ``forward`` with the module's inputs and outputs routed through the hook primitives."""
    args, state = hook_inputs(module, args)
    return hook_outputs(state, forward(*args, **kwargs))


def hook_inputs(module, args):
    """The inputs routed through the input primitive (as PyTorch does before ``forward``) and the call's state."""
    if not grad_mode.is_grad_enabled():
        return args, None
    positions = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
    state = _State(module, len(positions))
    if positions:
        wrapped = _HookInputs.apply(*(args[i] for i in positions), state=state)
        args = list(args)
        for i, t in zip(positions, wrapped if isinstance(wrapped, tuple) else (wrapped,)):
            args[i] = t
        args = tuple(args)
    return args, state


def hook_outputs(state, result):
    """The outputs routed through the output primitive: PyTorch does this after the forward hooks ran."""
    if state is None:
        return result
    outs = result if isinstance(result, tuple) else (result,)
    idx = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
    if not idx:
        return result
    hooked = _HookOutputs.apply(*(outs[i] for i in idx), state=state)
    hooked = hooked if isinstance(hooked, tuple) else (hooked,)
    outs = list(outs)
    for i, t in zip(idx, hooked):
        outs[i] = t
    return tuple(outs) if isinstance(result, tuple) else outs[0]
