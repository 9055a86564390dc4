"""Walking a backward graph: its nodes and edges in topological order (for drawing it)."""

from __future__ import annotations

from core.autograd.function import Node, accumulate_node

__all__ = ["Node", "topological_nodes", "edges"]


def _root(t) -> Node:
    return t.grad_fn if t.grad_fn is not None else accumulate_node(t)


def topological_nodes(*tensors) -> list:
    """Every node reachable from ``tensors``' grad_fns, each after all nodes that feed it gradients."""
    roots = [_root(t) for t in tensors if t.requires_grad]
    order, state = [], {}
    for root in roots:
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                if state.get(node) != 2:
                    state[node] = 2
                    order.append(node)
                continue
            if node in state:
                continue
            state[node] = 1
            stack.append((node, True))
            for e in reversed(node._edges):
                if e is not None and e[0] not in state:
                    stack.append((e[0], False))
    order.reverse()
    return order


def edges(*tensors) -> list:
    """``(consumer, producer, input_nr)`` for every edge of the graph, in topological order."""
    out = []
    for node in topological_nodes(*tensors):
        for i, e in enumerate(node._edges):
            if e is not None:
                out.append((node, e[0], i))
    return out
