"""``torch.autograd.graph.GradientEdge``: a place in the backward graph, ``(node, output_nr)``, where a tensor's
gradient arrives (its ``grad_fn`` and which output of it the tensor is, or a leaf's ``AccumulateGrad`` and 0).

``autograd.grad`` takes edges as ``inputs`` and returns the gradient that flows into each, as it would for the
tensor the edge came from (TorchJD's autogram collects its leaf edges by walking ``next_functions`` and
differentiates with respect to them). The engine captures gradients by exactly this key, so an edge is a key.
"""

from __future__ import annotations

from typing import NamedTuple


class GradientEdge(NamedTuple):
    """Object representing a given gradient edge within the autograd graph.

    To get the gradient edge where a given Tensor gradient will be computed,
    you can do ``edge = autograd.graph.get_gradient_edge(tensor)``.
    """

    __module__ = "core.autograd.graph"  # PyTorch's module name

    node: object
    output_nr: int
    # This token can be used to ensure the graph stays alive when it cannot be
    # done via the node field
    ownership_token: object = None
