"""``torch.fx.subgraph_rewriter.replace_pattern``: find a traced pattern in a GraphModule and put a traced
replacement in its place.

A match starts at a node equal to the pattern's returned node (``Match.anchor``: same op and target) and walks
both graphs backwards through the arguments: pattern placeholders match any value, other nodes must agree in
op, target and literal arguments, and one graph node stands for one pattern node. A match is kept only when
its inner nodes feed nothing outside it and it shares no node with an earlier match. Each match is replaced in
graph order: the replacement's nodes are copied in before the first user of the matched value, its uses move
over, and the matched nodes are erased; then the module is recompiled. A pattern that returns several values
starts from each value nothing else in it uses, and a match must agree on the nodes those walks share.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, NamedTuple

from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import Node

__all__ = ["Match", "ReplacedPatterns", "replace_pattern", "replace_pattern_with_filters"]


class Match(NamedTuple):
    anchor: Node  # the pattern node matching started from
    nodes_map: dict[Node, Node]  # pattern node -> graph node


@dataclasses.dataclass
class InternalMatch:
    """A match as the filters see it: where it started, the node map, and the graph's inputs and results."""

    anchors: list[Node]
    nodes_map: dict[Node, Node] = dataclasses.field(default_factory=dict)
    placeholder_nodes: list[Node] = dataclasses.field(default_factory=list)
    returning_nodes: list[Node] = dataclasses.field(default_factory=list)
    name_node_map: dict[str, Node] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class ReplacedPatterns:
    anchor: Node  # the pattern node matching started from
    nodes_map: dict[Node, Node]  # pattern node -> graph node
    replacements: list[Node]  # the nodes added to the graph


def _graph_of(obj) -> Graph:
    from core.fx._symbolic_trace import symbolic_trace

    if isinstance(obj, GraphModule):
        return obj.graph
    if isinstance(obj, Graph):
        return obj
    return symbolic_trace(obj).graph


class _Matcher:
    """Matches one pattern graph (see the module docstring)."""

    def __init__(self, pattern: Graph):
        self.pattern = pattern
        output = next(n for n in reversed(pattern.nodes) if n.op == "output")
        self.returning = list(output.all_input_nodes)
        # the sinks: returned values nothing else in the pattern uses (the others are reached from them)
        self.anchors = [n for n in self.returning if len(n.users) == 1]
        self.placeholders = [n for n in pattern.nodes if n.op == "placeholder"]

    def match_nodes(self, pn: Node, gn: Node, nodes_map: dict[Node, Node]) -> bool:
        if pn in nodes_map:
            return nodes_map[pn] is gn
        if pn.op != "placeholder" and gn in nodes_map.values():
            return False
        if pn.op == "placeholder":
            nodes_map[pn] = gn
            return True
        if pn.op != gn.op or pn.target != gn.target or len(pn.args) != len(gn.args) \
                or set(pn.kwargs) != set(gn.kwargs):
            return False
        nodes_map[pn] = gn
        pairs = list(zip(pn.args, gn.args)) + [(pn.kwargs[k], gn.kwargs[k]) for k in pn.kwargs]
        if all(self.match_args(pa, ga, nodes_map) for pa, ga in pairs):
            return True
        del nodes_map[pn]
        return False

    def match_args(self, pa: Any, ga: Any, nodes_map: dict[Node, Node]) -> bool:
        if isinstance(pa, Node):
            if isinstance(ga, Node):
                return self.match_nodes(pa, ga, nodes_map)
            if pa.op == "placeholder":  # a pattern input matches a literal argument too (the same one each time)
                if pa in nodes_map:
                    return type(nodes_map[pa]) is type(ga) and nodes_map[pa] == ga
                nodes_map[pa] = ga
                return True
            return False
        if isinstance(pa, (list, tuple)):
            return type(pa) is type(ga) and len(pa) == len(ga) and \
                all(self.match_args(p, g, nodes_map) for p, g in zip(pa, ga))
        return type(pa) is type(ga) and pa == ga

    def contained(self, nodes_map: dict[Node, Node]) -> bool:
        inner = {gn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
        for pn, gn in nodes_map.items():
            if pn.op == "placeholder" or pn in self.returning:
                continue
            if any(user not in inner for user in gn.users):
                return False
        return True

    def matches(self, graph: Graph) -> list[InternalMatch]:
        """Every consistent assignment of graph nodes to the anchors (each anchor's candidates in graph order),
        then those contained and not overlapping an earlier one."""
        candidates = [[n for n in graph.nodes if n.op == a.op and n.target == a.target] for a in self.anchors]
        found: list[dict[Node, Node]] = []

        def backtrack(i: int, nodes_map: dict[Node, Node]) -> None:
            if i == len(self.anchors):
                found.append(nodes_map)
                return
            for node in candidates[i]:
                attempt = dict(nodes_map)
                if self.match_nodes(self.anchors[i], node, attempt):
                    backtrack(i + 1, attempt)

        if self.anchors:
            backtrack(0, {})
        kept: list[InternalMatch] = []
        used: set[Node] = set()
        for nodes_map in found:
            if not self.contained(nodes_map):
                continue
            inner = {gn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
            if inner & used:
                continue
            used |= inner
            kept.append(InternalMatch(list(self.anchors), nodes_map, [nodes_map[pn] for pn in self.placeholders],
                                      [nodes_map[pn] for pn in self.returning]))
        return kept


def replace_pattern(gm: GraphModule, pattern: Callable | Graph | GraphModule,
                    replacement: Callable | Graph | GraphModule) -> list[Match]:
    """Replace every non-overlapping match of ``pattern`` in ``gm`` with ``replacement``; the matches."""
    return [Match(m.anchor, m.nodes_map) for m in _replace(gm, pattern, replacement)]


def replace_pattern_with_filters(gm: GraphModule, pattern: Callable | Graph | GraphModule,
                                 replacement: Callable | Graph | GraphModule | None = None,
                                 match_filters: list[Callable] | None = None, ignore_literals: bool = False,
                                 replacement_callback: Callable | None = None,
                                 node_name_match: str = "") -> list[ReplacedPatterns]:
    """``replace_pattern`` keeping only the matches every ``match_filters(match, graph, pattern_graph)`` accepts;
    ``replacement_callback(match, graph, pattern_graph)`` may give each match its own replacement graph."""
    if ignore_literals or node_name_match:
        raise NotImplementedError("core's replace_pattern_with_filters has no ignore_literals or node_name_match")
    if replacement is None and replacement_callback is None:
        raise AssertionError("Must provide either a replacement GraphModule or a replacement callback")
    return _replace(gm, pattern, replacement, match_filters or [], replacement_callback)


def _replace(gm, pattern, replacement, match_filters=(), replacement_callback=None) -> list[ReplacedPatterns]:
    pattern_graph = _graph_of(pattern)
    matcher = _Matcher(pattern_graph)
    matches = [m for m in matcher.matches(gm.graph) if all(f(m, gm.graph, pattern_graph) for f in match_filters)]
    common = _graph_of(replacement) if replacement is not None else None
    replaced: dict[Node, Node] = {}  # a replaced value -> what replaced it, for later matches' inputs
    done: list[ReplacedPatterns] = []
    for match in matches:
        graph = replacement_callback(match, gm.graph, pattern_graph) if replacement_callback else common
        placeholders = [n for n in graph.nodes if n.op == "placeholder"]
        if len(placeholders) != len(match.placeholder_nodes):
            raise AssertionError(f"Placeholder count mismatch: {len(match.placeholder_nodes)} vs "
                                 f"{len(placeholders)}")
        val_map: dict = {}
        for rn, gn in zip(placeholders, match.placeholder_nodes):
            val_map[rn] = replaced.get(gn, gn) if isinstance(gn, Node) else gn
        inputs = {id(v) for v in val_map.values()}
        new_values = _copy_in(gm.graph, graph, val_map, match.returning_nodes)
        for gn, new_value in zip(match.returning_nodes, new_values):
            gn.replace_all_uses_with(new_value)
            replaced[gn] = new_value
        for pn in reversed(pattern_graph.nodes):
            if pn.op not in ("placeholder", "output"):
                gm.graph.erase_node(match.nodes_map[pn])
        done.append(ReplacedPatterns(match.anchors[0], match.nodes_map,
                                     [v for v in val_map.values() if id(v) not in inputs]))
    gm.recompile()
    return done


def _copy_in(graph: Graph, replacement: Graph, val_map: dict, returning: list[Node]) -> tuple:
    """Copy ``replacement`` in before the first user of the values it replaces; its results."""
    users = {user for gn in returning for user in gn.users}
    last = next(n for n in reversed(graph.nodes) if n in returning)
    insert_point = next((n for n in graph.nodes if n in users), last.next)
    with graph.inserting_before(insert_point):
        new_values = graph.graph_copy(replacement, val_map)
    new_values = (new_values,) if isinstance(new_values, Node) else tuple(new_values)
    if len(returning) != len(new_values):
        raise AssertionError(f"Returning nodes count mismatch: {len(returning)} vs {len(new_values)}")
    return new_values
