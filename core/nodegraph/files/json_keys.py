"""JSON with each key once per object: a repeated key is refused with its line, column and field path.

``json.loads`` keeps the last of two equal keys without a word, so a graph file with two ``"nodes"`` keys, or a node
with two ``"type"`` keys (a merge gone wrong, a hand edit), would open as whichever came last and a save would drop
the other for good. ``loads_unique`` parses as ``json.loads`` does (the C parser, a hook on each object costing about
a tenth of the parse) and raises ``DuplicateKey`` on the first repeated key in reading order. Keys compare as decoded
text, so ``"op"`` and ``"\\u006fp"`` are the same key, as they are to every JSON reader that keeps one of them.
Only on a refusal is the text scanned again (``locate``) to say where the key is; the same scan finds an integer
literal with more digits than Python converts, which json refuses with a message that names no place.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

__all__ = ["DuplicateKey", "LongInteger", "loads_unique", "locate"]

_STRUCTURE = re.compile(r'["{}\[\],:]')  # what moves the scan: numbers and literals hold none of these
_INTEGER = re.compile(r"\s*(-?)(\d+)\s*")  # a JSON number json reads as an int (no fraction, no exponent)


class DuplicateKey(ValueError):
    """A key that appears twice in one JSON object: ``key``, its second place (``line``, ``column``, 1-based, as
    ``json.JSONDecodeError`` counts them) and ``path``, the field path of the object that holds it."""

    def __init__(self, key: str, line: int, column: int, path: str) -> None:
        self.key, self.line, self.column, self.path = key, line, column, path
        shown = json.dumps(key[:100], ensure_ascii=False) + ("..." if len(key) > 100 else "")
        where = f"{path}: " if path else ""
        super().__init__(f"{where}the key {shown} appears twice in one object (again at line {line} column "
                         f"{column}); a graph file holds each key once")


class LongInteger(ValueError):
    """An integer literal with more digits than Python converts (``sys.get_int_max_str_digits()``): json's own
    error names neither the place nor the field, and ends in advice for Python programmers."""

    def __init__(self, length: int, digits: int, line: int, column: int, path: str) -> None:
        self.line, self.column, self.path = line, column, path
        where = f"{path}: " if path else ""
        super().__init__(f"{where}a number with {length} digits at line {line} column {column} (at most {digits} "
                         "digits are read)")


class _Repeated(Exception):
    """Raised by the parse hook on the first object (by closing order) with a repeated key."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Repeated(key)
            seen.add(key)
    return out


def loads_unique(text: str) -> Any:
    """``json.loads(text)``, or ``DuplicateKey`` for the first key repeated in an object, or ``LongInteger`` for an
    integer too long to convert (json's other errors pass)."""
    try:
        return json.loads(text, object_pairs_hook=_unique)
    except _Repeated as exc:
        found = locate(text)
        raise (found or DuplicateKey(exc.key, 1, 1, "")) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # json's int() refused a literal: sys.get_int_max_str_digits() (0: no limit)
        found = locate(text, sys.get_int_max_str_digits())
        if found is not None:
            raise found from None
        raise


def _path(frames: list[list[Any]], inner: bool) -> str:
    """The field path (``nodes[3].params``) of the innermost container in ``frames``, or with ``inner`` of the
    value the scan is at in it (``nodes[3].params.seed``)."""
    out = ""
    for keys, at in frames if inner else frames[:-1]:
        if keys is None:
            out += f"[{at}]"
        else:
            out += f".{str(at)[:100]}" if out else str(at)[:100]
    return out


def _line_column(text: str, at: int) -> tuple[int, int]:
    """1-based, as ``json.JSONDecodeError`` counts them."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def _long_int(text: str, start: int, end: int, digits: int, frames: list[list[Any]]) -> LongInteger | None:
    """The integer literal between two structural characters if it has more than ``digits`` digits."""
    found = _INTEGER.fullmatch(text, start, end)
    if found is None or len(found.group(2)) <= digits:
        return None
    return LongInteger(len(found.group(2)), digits, *_line_column(text, found.start(1)), _path(frames, inner=True))


def locate(text: str, digits: int = 0) -> DuplicateKey | LongInteger | None:
    """The first fault of ``text`` in reading order (text that parses up to it): a repeated key, or with ``digits``
    an integer literal with more digits than that; None if there is none.

    One pass over the structural characters: a frame per open container holds its keys seen (None for an array)
    and where the scan is in it (the current key, or the array index), so the refusal can name the field path.
    """
    frames: list[list[Any]] = []  # [keys seen or None, current key or index]
    expect_key, end = False, 0
    match = _STRUCTURE.search(text)
    while match is not None:
        at, c = match.start(), match.group()
        long = _long_int(text, end, at, digits, frames) if digits and at > end else None
        if long is not None:
            return long
        end = at + 1
        if c == '"':
            key, end = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]  # not in the stubs
            if expect_key and frames:
                keys = frames[-1][0]
                if key in keys:
                    return DuplicateKey(key, *_line_column(text, at), _path(frames, inner=False))
                keys.add(key)
                frames[-1][1] = key
        elif c in "{[":
            frames.append([set(), None] if c == "{" else [None, 0])
            expect_key = c == "{"
        elif c in "}]":
            if frames:
                frames.pop()
            expect_key = False
        elif c == ",":
            expect_key = bool(frames) and frames[-1][0] is not None
            if frames and frames[-1][0] is None:
                frames[-1][1] += 1
        else:  # ":"
            expect_key = False
        match = _STRUCTURE.search(text, end)
    return _long_int(text, end, len(text), digits, frames) if digits else None
