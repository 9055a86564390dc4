"""Calling a ``grad_fn`` directly, as PyTorch allows: ``y.grad_fn(grad)`` runs a built-in node's backward,
``z.grad_fn.apply(grad)`` a custom Function's, and ``leaf_node(grad)`` (an ``AccumulateGrad``) adds into ``.grad``.

Textbooks call them to show what backward does one step at a time. The mixins here are bases of the node classes
``core.autograd.function`` makes; they import the engine when called (the engine imports ``function``).
"""

from __future__ import annotations

import warnings

__all__ = ["CallableNode", "FunctionCtx", "BackwardCFunction", "call_accumulate_grad"]


class FunctionCtx:
    """What a custom Function's ``ctx`` is an instance of (``isinstance(ctx, FunctionCtx)``, ``ctx: FunctionCtx``
    annotations). The ctx methods themselves (``save_for_backward``...) live on the node class."""

    __slots__ = ()
    __module__ = "core.autograd.function"  # PyTorch's module name


class CallableNode:
    """A built-in node (``MulBackward0``): calling it with one gradient per output returns its backward's result,
    one gradient per input (None where an input needs none), the tensor itself when there is one input. Grad mode
    stays as it is, so the gradients record a graph when their inputs need grad, as in PyTorch."""

    def __call__(self, *grad_outputs):
        from core.autograd.engine import _call_backward

        grads = _call_backward(self, grad_outputs)
        return grads[0] if len(grads) == 1 else grads


class BackwardCFunction(FunctionCtx):
    """A custom Function's node (PyTorch's ``BackwardCFunction``): not callable, but ``apply(*grad_outputs)`` runs
    the Function's ``backward`` with this node as its ctx and returns what it returns."""

    __module__ = "core.autograd.function"  # PyTorch's module name

    def apply(self, *grad_outputs):
        return self._forward_cls.backward(self, *grad_outputs)

    @property
    def saved_tensors(self) -> tuple:
        """What ``ctx.save_for_backward`` saved, each checked against in-place changes since (``Node._unpacked``).
        Only a custom Function's node has it, as in PyTorch: a built-in node's saved values are its ``_saved_*``."""
        return self._unpacked

    @property
    def saved_variables(self) -> tuple:
        """``saved_tensors``' pre-0.4 name, deprecated in PyTorch but still answered."""
        warnings.warn("'saved_variables' is deprecated; use 'saved_tensors'", DeprecationWarning, stacklevel=2)
        return self._unpacked


def call_accumulate_grad(node, *grad_outputs) -> tuple:
    """``AccumulateGrad(grad)``: adds ``grad`` into its leaf's ``.grad``; returns ``()`` (a leaf has no inputs)."""
    from core.autograd.engine import _accumulate

    if len(grad_outputs) != 1:
        raise TypeError(f"AccumulateGrad expects 1 gradient, got {len(grad_outputs)}")
    leaf = node.variable
    if leaf is not None and grad_outputs[0] is not None:
        _accumulate(leaf, grad_outputs[0], False)
    return ()
