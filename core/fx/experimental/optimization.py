"""``torch.fx.experimental.optimization``: inference rewrites of a traced model.

``fuse(model)`` folds each BatchNorm that directly follows a Conv1d/2d/3d or Linear (and is its only user) into
that layer's weights, as torch's does (the model is deep-copied unless ``inplace``); ``remove_dropout`` drops
``nn.Dropout`` calls from the graph.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

from core import nn
from core.fx._symbolic_trace import symbolic_trace
from core.fx.graph_module import GraphModule
from core.fx.interpreter import Transformer
from core.fx.node import Node
from core.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval

__all__ = ["fuse", "matches_module_pattern", "remove_dropout", "replace_node_module"]


def _parent_name(target: str) -> tuple[str, str]:
    """``"a.b.c"`` -> ``("a.b", "c")``."""
    *parent, name = target.rsplit(".", 1)
    return parent[0] if parent else "", name


def matches_module_pattern(pattern: Iterable[type], node: Node, modules: dict[str, nn.Module]) -> bool:
    """Whether ``node`` and its first argument are calls of modules of exactly the two types of ``pattern``."""
    if len(node.args) == 0:
        return False
    for expected_type, current in zip(pattern, (node.args[0], node)):
        if not isinstance(current, Node) or current.op != "call_module" or not isinstance(current.target, str):
            return False
        if current.target not in modules or type(modules[current.target]) is not expected_type:
            return False
    return True


def replace_node_module(node: Node, modules: dict[str, nn.Module], new_module: nn.Module) -> None:
    """Install ``new_module`` where ``node``'s target module sits."""
    parent_name, name = _parent_name(node.target)
    modules[node.target] = new_module
    setattr(modules[parent_name], name, new_module)


def fuse(model: nn.Module, inplace: bool = False, no_trace: bool = False) -> GraphModule:
    """Fold BatchNorms into the convolutions and linear layers before them (for inference)."""
    patterns = [(nn.Conv1d, nn.BatchNorm1d), (nn.Conv2d, nn.BatchNorm2d), (nn.Conv3d, nn.BatchNorm3d),
                (nn.Linear, nn.BatchNorm1d)]
    if not inplace:
        model = copy.deepcopy(model)
    fx_model = model if no_trace and isinstance(model, GraphModule) else symbolic_trace(model)
    modules = dict(fx_model.named_modules())
    new_graph = copy.deepcopy(fx_model.graph)
    for pattern in patterns:
        for node in new_graph.nodes:
            if not matches_module_pattern(pattern, node, modules) or len(node.args[0].users) > 1:
                continue
            first_layer, bn = modules[node.args[0].target], modules[node.target]
            if not bn.track_running_stats:
                continue
            fuse_fn = fuse_linear_bn_eval if pattern[0] is nn.Linear else fuse_conv_bn_eval
            replace_node_module(node.args[0], modules, fuse_fn(first_layer, bn))
            node.replace_all_uses_with(node.args[0])
            new_graph.erase_node(node)
    return GraphModule(fx_model, new_graph)


class _DropoutRemover(Transformer):
    def call_module(self, target: str, args: tuple, kwargs: dict) -> Any:
        if isinstance(self.submodules[target], nn.Dropout):
            if len(args) != 1:
                raise AssertionError(f"Expected 1 arg for Dropout, got {len(args)}")
            return args[0]
        return super().call_module(target, args, kwargs)


def remove_dropout(model: nn.Module) -> GraphModule:
    """The traced model without its ``nn.Dropout`` calls."""
    return _DropoutRemover(symbolic_trace(model)).transform()
