"""Calling a ``grad_fn`` directly, as PyTorch allows: ``y.grad_fn(grad)`` runs a built-in node's backward,
``z.grad_fn.apply(grad)`` a custom Function's, and ``leaf_node(grad)`` (an ``AccumulateGrad``) adds into ``.grad``.

Textbooks call them to show what backward does one step at a time. The mixins here are bases of the node classes
``core.autograd.function`` makes; they import the engine when called (the engine imports ``function``).
"""

from __future__ import annotations

import sys

__all__ = ["CallableNode", "FunctionCtx", "BackwardCFunction", "call_accumulate_grad"]


class FunctionCtx:
    """What a custom Function's ``ctx`` is an instance of (``isinstance(ctx, FunctionCtx)``, ``ctx: FunctionCtx``
    annotations). The ctx methods themselves (``save_for_backward``...) live on the node class."""

    __slots__ = ()
    __module__ = "core.autograd.function"  # PyTorch's module name


def _inside_core(depth: int = 2) -> bool:
    """Whether the code reading an attribute (``depth`` frames up) is core's own."""
    return sys._getframe(depth).f_globals.get("__name__", "").startswith("core.")


def _builtin_saved(name: str) -> property:
    """``saved_tensors``/``saved_variables`` of a built-in node: core's backwards read their ctx's through them, but
    PyTorch's C++ nodes have no such attribute, so to any other code the node says so (``hasattr`` is False, as
    torchviz's ``make_dot`` asks before drawing a custom Function's saved tensors).

    NOTE: decided by the reading frame's module (one frame look-up, on built-in nodes only) rather than by renaming
    the ctx attribute in the 60 op families whose backwards read it."""
    def get(self):
        if not _inside_core():
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return getattr(super(CallableNode, self) if isinstance(self, CallableNode) else super(type(self), self), name)

    return property(get)


class CallableNode:
    """A built-in node (``MulBackward0``): calling it with one gradient per output returns its backward's result,
    one gradient per input (None where an input needs none), the tensor itself when there is one input. Grad mode
    stays as it is, so the gradients record a graph when their inputs need grad, as in PyTorch."""

    saved_tensors = _builtin_saved("saved_tensors")
    saved_variables = _builtin_saved("saved_variables")

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


def call_accumulate_grad(node, *grad_outputs) -> tuple:
    """``AccumulateGrad(grad)``: adds ``grad`` into its leaf's ``.grad``; returns ``()`` (a leaf has no inputs)."""
    from core.autograd.engine import _accumulate

    if len(grad_outputs) != 1:
        raise TypeError(f"AccumulateGrad expects 1 gradient, got {len(grad_outputs)}")
    leaf = node.variable
    if leaf is not None and grad_outputs[0] is not None:
        _accumulate(leaf, grad_outputs[0], False)
    return ()
