"""``torch.fx.passes.shape_prop``: run a GraphModule on example inputs and record each node's tensor metadata.

``ShapeProp(gm).propagate(*args)`` runs the graph with an Interpreter and stores, on every node whose value holds
tensors, ``node.meta['tensor_meta']``: a ``TensorMetadata`` (shape, dtype, requires_grad, stride, memory format,
quantization) in the value's structure, and ``node.meta['type']``, the value's type.
"""

from __future__ import annotations

import traceback
from typing import Any, NamedTuple

import core
from core.fx.interpreter import Interpreter
from core.fx.node import Node, map_aggregate

__all__ = ["ShapeProp", "TensorMetadata"]


class TensorMetadata(NamedTuple):
    """What ShapeProp records of a tensor."""

    shape: Any
    dtype: Any
    requires_grad: bool
    stride: tuple
    memory_format: Any
    is_quantized: bool
    qparams: dict


def _extract_tensor_metadata(result, include_contiguity: bool = True) -> TensorMetadata:
    sparse = result.layout != core.strided
    stride = () if sparse else result.stride()
    memory_format = None
    if include_contiguity and not sparse:
        for query in (core.contiguous_format, core.channels_last, core.channels_last_3d):
            if _is_contiguous(result, query):
                memory_format = query
                break
    qparams: dict = {}
    if result.is_quantized:
        qparams["qscheme"] = result.qscheme()
    return TensorMetadata(result.shape, result.dtype, result.requires_grad, stride, memory_format,
                          result.is_quantized, qparams)


def _is_contiguous(t, memory_format) -> bool:
    dims = {core.channels_last: 4, core.channels_last_3d: 5}.get(memory_format)
    if dims is not None and t.dim() != dims:
        return False
    return t.is_contiguous(memory_format=memory_format)


class ShapeProp(Interpreter):
    """Record each node's tensor metadata while running the graph (see the module docstring)."""

    def __init__(self, gm, fake_mode=None):
        super().__init__(gm)
        self.fake_mode = fake_mode

    def run_node(self, n: Node) -> Any:
        try:
            result = super().run_node(n)
        except Exception as e:
            traceback.print_exc()  # (torch's prints the original error too)
            raise RuntimeError(f"ShapeProp error for: node={n.format_node()} with meta={n.meta}") from e
        found_tensor = False

        def extract(obj):
            nonlocal found_tensor
            if isinstance(obj, core.Tensor):
                found_tensor = True
                return _extract_tensor_metadata(obj)
            return obj

        meta = map_aggregate(result, extract)
        if found_tensor:
            n.meta["tensor_meta"] = meta
        n.meta["type"] = type(result)
        return result

    def propagate(self, *args) -> Any:
        """Run the graph on ``args``, recording metadata; returns its output."""
        return super().run(*args)
