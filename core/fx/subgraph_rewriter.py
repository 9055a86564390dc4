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

from typing import Any, Callable, NamedTuple

from core.fx.graph import Graph
from core.fx.graph_module import GraphModule
from core.fx.node import Node

__all__ = ["Match", "replace_pattern"]


class Match(NamedTuple):
    anchor: Node  # the pattern's returned node
    nodes_map: dict[Node, Node]  # pattern node -> graph node


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
            if pa.op == "placeholder":  # a pattern input matches a literal argument too
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

    def matches(self, graph: Graph) -> list[Match]:
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
        kept: list[Match] = []
        used: set[Node] = set()
        for nodes_map in found:
            if not self.contained(nodes_map):
                continue
            inner = {gn for pn, gn in nodes_map.items() if pn.op != "placeholder"}
            if inner & used:
                continue
            used |= inner
            kept.append(Match(self.anchors[0], nodes_map))
        return kept


def replace_pattern(gm: GraphModule, pattern: Callable | Graph | GraphModule,
                    replacement: Callable | Graph | GraphModule) -> list[Match]:
    """Replace every non-overlapping match of ``pattern`` in ``gm`` with ``replacement``; the matches."""
    pattern_graph = _graph_of(pattern)
    replacement_graph = _graph_of(replacement)
    matcher = _Matcher(pattern_graph)
    matches = matcher.matches(gm.graph)
    replaced: dict[Node, Node] = {}  # a replaced value -> what replaced it, for later matches' inputs
    replacement_placeholders = [n for n in replacement_graph.nodes if n.op == "placeholder"]
    if len(replacement_placeholders) != len(matcher.placeholders):
        raise AssertionError(f"Placeholder count mismatch: {len(matcher.placeholders)} vs "
                             f"{len(replacement_placeholders)}")
    for match in matches:
        val_map: dict = {}
        for rn, pn in zip(replacement_placeholders, matcher.placeholders):
            gn = match.nodes_map[pn]
            val_map[rn] = replaced.get(gn, gn) if isinstance(gn, Node) else gn
        returning = [match.nodes_map[pn] for pn in matcher.returning]
        users = {user for gn in returning for user in gn.users}
        last = next(n for n in reversed(gm.graph.nodes) if n in returning)
        insert_point = next((n for n in gm.graph.nodes if n in users), last.next)
        with gm.graph.inserting_before(insert_point):
            new_values = gm.graph.graph_copy(replacement_graph, val_map)
        new_values = (new_values,) if isinstance(new_values, Node) else new_values
        if len(returning) != len(new_values):
            raise AssertionError(f"Returning nodes count mismatch: {len(returning)} vs {len(new_values)}")
        for gn, new_value in zip(returning, new_values):
            gn.replace_all_uses_with(new_value)
            replaced[gn] = new_value
        for pn in reversed(pattern_graph.nodes):
            if pn.op not in ("placeholder", "output"):
                gm.graph.erase_node(match.nodes_map[pn])
    gm.recompile()
    return matches
