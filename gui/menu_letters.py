"""Alt keys (mnemonics) for menu entries made from data: the Examples menu's lesson titles, Open recent's files.

A menu's entries are reached from the keyboard by their underlined letter (Alt+F, then the letter); entries made
from titles or file names had none, and a file name with '&' in it lost the character (Qt reads it as the marker).
``with_letters(texts)`` gives each text a letter no earlier entry took: the first character of one of its words,
else any letter or digit in it; ``numbered(texts)`` puts 1-9, then 0, in front, as desktop apps list recent files.
Both double a '&' the text holds, so it shows as written.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["with_letters", "numbered"]


def _escaped(text: str) -> str:
    return text.replace("&", "&&")


def _spot(text: str, taken: set[str]) -> int | None:
    """Where the Alt key goes in ``text``: a word's first character not yet taken, else any such character."""
    starts = [i for i, ch in enumerate(text) if ch.isalnum() and (i == 0 or not text[i - 1].isalnum())]
    rest = [i for i, ch in enumerate(text) if ch.isalnum() and i not in starts]
    return next((i for i in starts + rest if text[i].lower() not in taken), None)


def with_letters(texts: Iterable[str]) -> list[str]:
    """Each of ``texts`` with an Alt key of its own (none where every character is taken)."""
    taken: set[str] = set()
    out = []
    for text in texts:
        i = _spot(text, taken)
        if i is None:
            out.append(_escaped(text))
            continue
        taken.add(text[i].lower())
        out.append(f"{_escaped(text[:i])}&{_escaped(text[i:])}")
    return out


def numbered(texts: Iterable[str]) -> list[str]:
    """``texts`` as '&1 text', '&2 text'... '&0 text' (the tenth); later ones without a number."""
    return [f"&{(k + 1) % 10} {_escaped(t)}" if k < 10 else _escaped(t) for k, t in enumerate(texts)]
