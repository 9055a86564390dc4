"""``TreeSpec`` and ``LeafSpec`` of ``torch.utils._pytree``: a pytree's structure without its leaves.

A spec is immutable; its ``repr`` is torch 2.13's (``TreeSpec(list, None, [*,\\n  *])``), equal specs compare
equal and hash alike, ``unflatten(leaves)`` rebuilds the tree and ``flatten_up_to(tree)`` cuts another tree at this
structure with torch's ``ValueError`` messages when it does not fit.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict, defaultdict, deque

from core.utils import _pytree as _registry


class TreeSpec:
    """The structure of a pytree: the node's ``type``, its ``context`` and its children's specs."""

    __slots__ = ("type", "_context", "_children", "num_nodes", "num_leaves", "num_children")

    def __init__(self, type, context, children_specs) -> None:
        set_ = object.__setattr__
        set_(self, "type", type)
        set_(self, "_context", context)
        set_(self, "_children", children_specs)
        if type is None:
            if context is not None:
                raise AssertionError("leaf node should not have a context")
            if len(children_specs) != 0:
                raise AssertionError("leaf node should not have children")
            set_(self, "num_nodes", 1)
            set_(self, "num_leaves", 1)
        else:
            set_(self, "num_nodes", 1 + sum(child.num_nodes for child in children_specs))
            set_(self, "num_leaves", sum(child.num_leaves for child in children_specs))
        set_(self, "num_children", len(children_specs))

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field '{name}'")

    def __repr__(self, indent: int = 0) -> str:
        text = f"TreeSpec({self.type.__name__}, {self._context}, ["
        if self._children:
            indent += 2
            parts = [child.__repr__(indent) for child in self._children]
            text += parts[0] + ("," if len(parts) > 1 else "")
            text += ",".join("\n" + " " * indent + part for part in parts[1:])
        return text + "])"

    def __eq__(self, other) -> bool:
        if self is other:
            return True
        if not isinstance(other, TreeSpec):
            return NotImplemented
        return (str(self.type) == str(other.type) and self._context == other._context
                and self._children == other._children)

    def __hash__(self) -> int:
        node_type, context = self.type, self._context
        if node_type is defaultdict:
            context = (context[0], tuple(context[1]))
        elif node_type in (dict, OrderedDict):
            context = tuple(context)
        elif node_type is not None and node_type not in _registry.BUILTIN_TYPES:
            context = None  # a custom node's context need not be hashable
        return hash((node_type, context, tuple(self._children)))

    @property
    def context(self):
        return self._context

    @property
    def children_specs(self) -> list:
        warnings.warn("`treespec.children_specs` is deprecated. Use `treespec.child(index)` to access a single "
                      "child, or `treespec.children()` to get all children.", FutureWarning, stacklevel=2)
        return self._children

    def is_leaf(self) -> bool:
        return self.num_nodes == 1 and self.num_leaves == 1

    def children(self) -> list:
        return list(self._children)

    def child(self, index: int) -> TreeSpec:
        return self._children[index]

    def unflatten(self, leaves):
        """The tree of this structure holding ``leaves``."""
        if not isinstance(leaves, (list, tuple)):
            leaves = list(leaves)
        if len(leaves) != self.num_leaves:
            raise ValueError(f"treespec.unflatten(leaves): `leaves` has length {len(leaves)} but the spec refers "
                             f"to a pytree that holds {self.num_leaves} items ({self}).")
        return self._build(leaves, 0)

    def _build(self, leaves, start):
        if self.is_leaf():
            return leaves[start]
        children = []
        for child in self._children:
            children.append(child._build(leaves, start))
            start += child.num_leaves
        return _registry.SUPPORTED_NODES[self.type].unflatten_fn(children, self._context)

    def flatten_up_to(self, tree) -> list:
        """The subtrees of ``tree`` at this spec's leaves (``tree`` must have this structure down to them)."""
        subtrees: list = []
        self._cut(tree, subtrees)
        return subtrees

    def _cut(self, node, subtrees) -> None:
        if self.is_leaf():
            subtrees.append(node)
            return
        for child_spec, child in zip(self._children, self._children_of(node)):
            child_spec._cut(child, subtrees)

    def _children_of(self, node) -> list:
        node_type = _registry._get_node_type(node)
        if self.type not in _registry.BUILTIN_TYPES:
            if node_type != self.type:
                raise ValueError(f"Type mismatch; expected {self.type!r}, but got {node_type!r}.")
            children, context = _registry.SUPPORTED_NODES[node_type].flatten_fn(node)
            if len(children) != self.num_children:
                raise ValueError(f"Node arity mismatch; expected {self.num_children}, but got {len(children)}.")
            if context != self._context:
                raise ValueError(f"Node context mismatch for custom node type {self.type!r}.")
            return children
        dicts = _registry.STANDARD_DICT_TYPES
        both_dicts = self.type in dicts and node_type in dicts
        if not both_dicts and node_type != self.type:
            raise ValueError(f"Node type mismatch; expected {self.type!r}, but got {node_type!r}.")
        if len(node) != self.num_children:
            raise ValueError(f"Node arity mismatch; expected {self.num_children}, but got {len(node)}.")
        if both_dicts:
            keys = self._context[1] if self.type is defaultdict else self._context
            got, expected = set(node), set(keys)
            if got != expected:
                message = ""
                if expected - got:
                    message += f"; missing key(s): {expected - got}"
                if got - expected:
                    message += f"; extra key(s): {got - expected}"
                raise ValueError(f"Node keys mismatch{message}.")
            return [node[key] for key in keys]
        children, context = _registry.SUPPORTED_NODES[node_type].flatten_fn(node)
        if node_type is not deque and context != self._context:  # a deque's maxlen may differ
            raise ValueError(f"Node context mismatch for node type {self.type!r}; "
                             f"expected {self._context!r}, but got {context!r}.")
        return children


PyTreeSpec = TreeSpec


class LeafSpec(TreeSpec):
    """The spec of a leaf (``*``); deprecated in torch 2.13 in favour of ``treespec.is_leaf()``."""

    __slots__ = ()

    def __init__(self) -> None:
        if _LEAF_SPEC is not None:
            warnings.warn("`isinstance(treespec, LeafSpec)` is deprecated, use `isinstance(treespec, TreeSpec) and "
                          "treespec.is_leaf()` instead.", FutureWarning, stacklevel=2)
        super().__init__(None, None, [])

    def __repr__(self, indent: int = 0) -> str:
        return "*"


_LEAF_SPEC = None
_LEAF_SPEC = LeafSpec()
