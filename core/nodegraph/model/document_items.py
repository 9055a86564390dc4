"""The graph document's items as plain data: ``Node``, ``Edge`` and ``Comment``, with ``GraphError`` (what an edit
is refused with) and the checks and copies the items and the document share (``check_text``, ``checked_position``,
``plain_copy``). ``core.nodegraph.model.document`` holds them in a ``Graph`` and gives every name here again."""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from core.nodegraph.model import spec as _spec

__all__ = ["Node", "Edge", "Comment", "GraphError", "MAX_COORD", "MAX_TEXT", "check_text", "checked_position",
           "checked_rect", "plain_copy"]

_ATOMS = (str, int, float, bool, type(None))
# the longest texts a file holds (core.nodegraph.files.schema): an edit past them would save a file that won't reopen
MAX_TEXT = {"title": 1000, "color": 100, "text": 100_000}


def check_text(value: object, what: str, limit: int, optional: bool = True) -> None:
    """GraphError unless ``value`` is text a file holds (or None when ``optional``)."""
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise GraphError(f"{what} must be text{' or None' if optional else ''}, got {type(value).__name__}")
    if len(value) > limit:
        raise GraphError(f"{what} is longer than {limit} characters ({len(value)})")
    if not value.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise GraphError(f"{what} holds a lone surrogate, which a UTF-8 file can't hold")


# the farthest a canvas coordinate (a position, a rectangle's corner or size) may lie from 0: a pasted fragment at
# 1e154 made the layout's squared distances overflow (an OverflowError escaped a Paste)
MAX_COORD = 1e9


def _finite(values: object, n: int, what: str) -> tuple[float, ...]:
    """``values`` as ``n`` finite floats within ``MAX_COORD``, else GraphError (a file holds no NaN or infinite
    coordinate, nor one so far out that the layout's squared distances overflow)."""
    try:
        nums = tuple(float(v) for v in values)  # type: ignore[attr-defined]
    except (TypeError, ValueError, OverflowError):
        raise GraphError(f"{what} must be {n} numbers, got {str(values)[:60]}") from None
    if len(nums) != n or not all(math.isfinite(v) for v in nums):
        raise GraphError(f"{what} must be {n} finite numbers, got {str(values)[:60]}")
    if not all(-MAX_COORD <= v <= MAX_COORD for v in nums):
        raise GraphError(f"{what} must be {n} finite numbers within ±{MAX_COORD:g}, got {str(values)[:60]}")
    return nums


def checked_position(position: object) -> tuple[float, float]:
    """A node's position as two finite floats, else GraphError."""
    x, y = _finite(position, 2, "a node's position")
    return x, y


def checked_rect(rect: object) -> tuple[float, ...]:
    """A comment's rectangle (x, y, width, height) as four finite floats, else GraphError."""
    return _finite(rect, 4, "a comment's rectangle")


def plain_copy(value: Any) -> Any:
    """A deep copy of plain data (dicts, lists, tuples of numbers and text) several times faster than
    ``copy.deepcopy``, which it falls back to for anything else (a tensor value copies itself)."""
    t = type(value)
    if t in _ATOMS:
        return value
    if t is dict:
        return {k: v if type(v) in _ATOMS else plain_copy(v) for k, v in value.items()}
    if t is list:
        return [v if type(v) in _ATOMS else plain_copy(v) for v in value]
    if t is tuple:
        return tuple(plain_copy(v) for v in value)
    return copy.deepcopy(value)


class GraphError(ValueError):
    """An edit the document refuses (cycle, occupied port, unknown id...); the message says why."""


class Edge(NamedTuple):
    """Output ``src.src_port`` feeds input ``dst.dst_port``."""

    src: str
    src_port: str
    dst: str
    dst_port: str

    def to_dict(self) -> dict[str, list[str]]:
        return {"from": [self.src, self.src_port], "to": [self.dst, self.dst_port]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Edge:
        (src, sp), (dst, dp) = d["from"], d["to"]
        return cls(src, sp, dst, dp)

    def __str__(self) -> str:
        return f"{self.src}.{self.src_port} -> {self.dst}.{self.dst_port}"


@dataclass
class Node:
    """One node: type id, parameter values, position; ``graph`` holds a subgraph's inner document dict.

    ``extra`` keeps any unknown fields of a loaded node (placeholders keep their data this way).
    """

    id: str
    type: str
    params: dict[str, Any] = field(default_factory=dict)
    position: tuple[float, float] = (0.0, 0.0)
    title: str | None = None
    color: str | None = None
    graph: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def spec(self) -> _spec.NodeSpec | None:
        """The node's spec, or None for an unknown type (a placeholder)."""
        return _spec._REGISTRY.get(self.type)

    def input_names(self) -> list[str]:
        if self.graph is not None:
            return [p["name"] for p in self.graph.get("inputs", ())]
        s = self.spec
        return [p.name for p in s.input_ports(self.params)] if s is not None else []

    def output_names(self) -> list[str]:
        if self.graph is not None:
            return [p["name"] for p in self.graph.get("outputs", ())]
        s = self.spec
        return [p.name for p in s.outputs] if s is not None else []

    def port_kind(self, name: str, is_output: bool) -> str | None:
        """The kind of input or output ``name`` (a subgraph's ports are tensors); None when there is no such port."""
        if name not in (self.output_names() if is_output else self.input_names()):
            return None
        s = self.spec if self.graph is None else None
        ports = () if s is None else (s.outputs if is_output else s.input_ports(self.params))
        return next((p.kind for p in ports if p.name == name), "tensor")

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "type": self.type, "params": plain_copy(self.params),
             "position": [float(self.position[0]), float(self.position[1])], "title": self.title, "color": self.color}
        if self.graph is not None:
            d["graph"] = plain_copy(self.graph)
        if self.extra:
            d.update(plain_copy(self.extra))
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Node:
        known = {"id", "type", "params", "position", "title", "color", "graph"}
        pos = d.get("position", (0.0, 0.0))
        return cls(d["id"], d["type"], plain_copy(d.get("params", {})), (float(pos[0]), float(pos[1])),
                   d.get("title"), d.get("color"), plain_copy(d.get("graph")),
                   {k: plain_copy(v) for k, v in d.items() if k not in known})


@dataclass
class Comment:
    """A comment or group backdrop: text, a rectangle, and the nodes it carries when moved."""

    id: str
    text: str = ""
    rect: tuple[float, ...] = (0.0, 0.0, 200.0, 100.0)  # x, y, width, height
    nodes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text, "rect": [float(v) for v in self.rect], "nodes": list(self.nodes)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Comment:
        return cls(d["id"], d.get("text", ""), tuple(float(v) for v in d.get("rect", (0, 0, 200, 100))),
                   list(d.get("nodes", [])))
