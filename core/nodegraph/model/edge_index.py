"""The document's edge list and its index by node, laid out so that the cyclic garbage collector has little to walk.

``EdgeList`` is a plain list of edges that counts its mutations, so that the index notices edits made to
``graph.edges`` directly (tests and broken files make documents that way) and is rebuilt.

``EdgeIndex`` answers "which edge enters this port", "which edges enter / leave this node" in O(what is asked).
It holds, besides the edges themselves, only containers that CPython's collector stops tracking: one flat dict
from ``(node, port)`` to the edge entering it, per node a tuple of its connected input ports, and per node a dict
``{node it feeds: how many edges}`` of strings and ints. Tuples of strings are untracked by the first young
collection that sees them, and a dict of strings and ints is never tracked, so a document of n nodes adds no
per-node containers to the heap that every full collection walks. (Lists and dicts of edges, one or two per node,
were half of the tracked objects of a large document, and full collections while building 100,000 nodes by
commands cost a quarter of the time; issue #21, "Growth".)

A document broken from outside can hold two edges into one input; the index keeps the later one as *the* edge
into that port (as the document reads it) and the earlier ones in a short ``shadowed`` list, so that every edge of
the list is still found by the node queries and can be disconnected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # document.py defines Edge and imports this module
    from core.nodegraph.model.document import Edge

__all__ = ["EdgeList", "EdgeIndex"]


class EdgeList(list["Edge"]):
    """The document's edge list: a plain list that counts its mutations (``version``)."""

    version = 0  # bumped by every mutation (a class default, so copies and unpickling start from it)


def _counted(name: str) -> Callable[..., Any]:
    method = getattr(list, name)

    def mutate(self: EdgeList, *args: Any) -> Any:
        self.version += 1
        return method(self, *args)

    mutate.__name__ = name
    return mutate


for _name in ("append", "insert", "remove", "pop", "extend", "clear", "sort", "reverse", "__setitem__",
              "__delitem__", "__iadd__", "__imul__"):
    setattr(EdgeList, _name, _counted(_name))


class EdgeIndex:
    """The edges of ``edges`` by the node they enter and the node they leave (see the module's docstring)."""

    __slots__ = ("into", "ins", "out", "shadowed", "version", "edges")

    def __init__(self, edges: EdgeList) -> None:
        self.edges, self.version = edges, edges.version
        self.into: dict[tuple[str, str], Edge] = {}  # (node, input port) -> the edge entering it
        self.ins: dict[str, tuple[str, ...]] = {}  # node -> its connected input ports, in the order connected
        self.out: dict[str, dict[str, int]] = {}  # node -> {node it feeds: number of edges between them}
        self.shadowed: list[Edge] = []  # earlier edges into an input that a later edge of the list also enters
        for e in edges:
            self.add(e)

    def add(self, e: Edge) -> None:
        src, _, dst, port = e
        into = self.into
        hidden = into.get((dst, port))
        if hidden is not None:
            self.shadowed.append(hidden)
            self._unfeed(hidden)
        else:
            self.ins[dst] = self.ins.get(dst, ()) + (port,)
        into[dst, port] = e
        fed = self.out.get(src)
        if fed is None:
            self.out[src] = {dst: 1}
        else:
            fed[dst] = fed.get(dst, 0) + 1

    def remove(self, e: Edge) -> None:
        """Forget ``e`` (one occurrence of it); an edge it shadowed becomes the edge into its port again."""
        key = (e.dst, e.dst_port)
        if self.into.get(key) != e:
            if e in self.shadowed:
                self.shadowed.remove(e)
            return
        self._unfeed(e)
        back = next((s for s in reversed(self.shadowed) if (s.dst, s.dst_port) == key), None)
        if back is not None:
            self.shadowed.remove(back)
            self.into[key] = back
            fed = self.out.setdefault(back.src, {})
            fed[back.dst] = fed.get(back.dst, 0) + 1
            return
        del self.into[key]
        ports = tuple(p for p in self.ins[e.dst] if p != e.dst_port)
        if ports:
            self.ins[e.dst] = ports
        else:
            del self.ins[e.dst]

    def _unfeed(self, e: Edge) -> None:
        fed = self.out[e.src]
        if fed[e.dst] > 1:
            fed[e.dst] -= 1
        else:
            del fed[e.dst]
            if not fed:
                del self.out[e.src]

    # ----- queries -------------------------------------------------------------------------------
    def has(self, e: Edge) -> bool:
        """Whether ``e`` is one of the indexed edges."""
        return self.into.get((e.dst, e.dst_port)) == e or (bool(self.shadowed) and e in self.shadowed)

    def edge_into(self, node_id: str, port: str) -> Edge | None:
        return self.into.get((node_id, port))

    def inputs(self, node_id: str) -> dict[str, Edge]:
        """``{input port: edge}`` in the order the ports were connected."""
        into = self.into
        return {p: into[node_id, p] for p in self.ins.get(node_id, ())}

    def edges_in(self, node_id: str) -> Iterator[Edge]:
        into = self.into
        for p in self.ins.get(node_id, ()):
            yield into[node_id, p]
        if self.shadowed:
            yield from (s for s in list(self.shadowed) if s.dst == node_id)

    def edges_out(self, node_id: str) -> Iterator[Edge]:
        """The edges leaving a node, grouped by the node they enter (in the order those were first fed)."""
        into, ins = self.into, self.ins
        for dst in list(self.out.get(node_id, ())):
            for p in ins[dst]:
                e = into[dst, p]
                if e.src == node_id:
                    yield e
        if self.shadowed:
            yield from (s for s in list(self.shadowed) if s.src == node_id)

    def sources(self, node_id: str) -> list[str]:
        """The nodes feeding ``node_id`` (with repeats when one feeds several of its inputs)."""
        into = self.into
        found = [into[node_id, p].src for p in self.ins.get(node_id, ())]
        if self.shadowed:
            found += [s.src for s in self.shadowed if s.dst == node_id]
        return found

    def targets(self, node_id: str) -> Iterable[str]:
        """The nodes ``node_id`` feeds (a view of the index: read it before the next edit)."""
        fed = self.out.get(node_id)
        found: Iterable[str] = () if fed is None else fed.keys()
        if self.shadowed:
            found = [*found, *(s.dst for s in self.shadowed if s.src == node_id)]
        return found
