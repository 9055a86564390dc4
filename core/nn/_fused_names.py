"""Identity nodes that give a composed result the ``grad_fn`` name of PyTorch's fused kernel.

Core builds ``embedding_bag``, an LSTM layer or ``pdist`` from smaller differentiable ops, so their results would
end in those ops' nodes (``IndexAddBackward0``...). Tutorials print such results, and PyTorch shows its fused
kernel's node (``grad_fn=<EmbeddingBagBackward0>``). ``fused_name(t, "EmbeddingBagBackward0")`` returns ``t``'s
values (the same memory) through one node of that name whose backward passes the gradient on unchanged, so the
numbers and gradients are those of the composition and only the last node's name changes.

``ignored_output(value, sources, node_name)`` is for a fused kernel's side result whose gradient PyTorch drops
(``native_group_norm``'s mean and rstd, ``linalg.lstsq``'s empty residuals): ``value`` requiring grad when one of
``sources`` does, through a node of that name that hands them no gradient.
"""

from __future__ import annotations

from core.autograd.function import Function

__all__ = ["fused_name", "ignored_output"]

_NODES: dict = {}


def _forward(ctx, tensor):
    return tensor._data


def _backward(ctx, grad):
    return grad


def _node(node_name: str) -> type:
    cls = _NODES.get(node_name)
    if cls is None:
        cls = type(node_name[:-len("Backward0")] or node_name, (Function,),
                   {"node_name": node_name, "forward": staticmethod(_forward), "backward": staticmethod(_backward),
                    "__doc__": f"Identity named {node_name}, PyTorch's node for the fused kernel."})
        _NODES[node_name] = cls
    return cls


def fused_name(tensor, node_name: str):
    """``tensor`` ending in a node called ``node_name`` when autograd records it; ``tensor`` itself otherwise."""
    if tensor.grad_fn is None:
        return tensor
    return _node(node_name).apply(tensor)


_IGNORING: dict = {}


def _forward_value(ctx, value, *sources):
    return value._data


def _backward_nothing(ctx, grad):
    return (None,) * len(ctx.needs_input_grad)


def ignored_output(value, sources, node_name: str):
    """``value`` (not requiring grad) recorded after the tensors ``sources`` (None allowed) in a node called
    ``node_name`` that hands them no gradient; ``value`` itself when none of them requires grad."""
    if not any(s is not None and s.requires_grad for s in sources):
        return value
    cls = _IGNORING.get(node_name)
    if cls is None:
        cls = type(node_name[:-len("Backward0")] or node_name, (Function,),
                   {"node_name": node_name, "forward": staticmethod(_forward_value),
                    "backward": staticmethod(_backward_nothing),
                    "__doc__": f"{node_name}'s side result, whose gradient PyTorch drops."})
        _IGNORING[node_name] = cls
    return cls.apply(value, *sources)
