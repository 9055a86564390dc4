"""``torch.torch_version``: ``TorchVersion``, the ``str`` that ``torch.__version__`` is.

It compares as a version, not as text: ``torch.__version__ >= "2.2"`` is True for 2.13 (as text, "2.13" < "2.2"),
and the other side may be a string or a tuple of numbers (``>= (2, 0)``). Versions are PEP 440's: a release
(trailing zeros do not count: ``2.13 == 2.13.0``), an optional pre-release (``a``, ``b``, ``rc``), post-release and
dev-release, and a local tag after ``+`` (a version with one sorts after the same version without). Text that is
not a version compares as text, as PyTorch falls back when ``packaging`` rejects it.
"""

from __future__ import annotations

import re

__all__ = ["TorchVersion"]

_VERSION = re.compile(r"^\s*v?(?P<release>\d+(?:\.\d+)*)"
                      r"(?:[-_.]?(?P<pre>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>\d*))?"
                      r"(?:[-_.]?(?P<post>post|rev|r)[-_.]?(?P<post_n>\d*))?"
                      r"(?:[-_.]?(?P<dev>dev)[-_.]?(?P<dev_n>\d*))?"
                      r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$", re.IGNORECASE)
_PRE = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_LOW, _HIGH = (-1,), (1 << 62,)  # below and above every real component


def _key(text: str):
    """A sort key equal for equal versions (packaging's order), or None when ``text`` is not a version."""
    m = _VERSION.match(text)
    if m is None:
        return None
    release = [int(p) for p in m["release"].split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    pre = (_PRE[m["pre"].lower()], int(m["pre_n"] or 0)) if m["pre"] else None
    post = (int(m["post_n"] or 0),) if m["post"] else _LOW
    dev = (int(m["dev_n"] or 0),) if m["dev"] else _HIGH
    if pre is None:
        pre = _LOW if m["dev"] and not m["post"] else _HIGH  # 1.0.dev0 < 1.0a0 < 1.0
    local = tuple((int(p), "") if p.isdigit() else (-1, p.lower()) for p in re.split(r"[-_.]", m["local"])) \
        if m["local"] else ()
    return tuple(release), pre, post, dev, (bool(local), local)


def _as_text(other) -> str | None:
    if isinstance(other, str):
        return other
    if isinstance(other, (tuple, list)):
        return ".".join(str(p) for p in other)
    return None


class TorchVersion(str):
    """A version string that compares as a version with strings and tuples of numbers (``!=`` stays str's, as in
    PyTorch)."""

    def _compare(self, other, name: str):
        text = _as_text(other)
        mine, theirs = _key(str(self)), (_key(text) if text is not None else None)
        if mine is None or theirs is None:
            return getattr(str, name)(self, other)
        return getattr(mine, name)(theirs)

    def __lt__(self, other):
        return self._compare(other, "__lt__")

    def __le__(self, other):
        return self._compare(other, "__le__")

    def __gt__(self, other):
        return self._compare(other, "__gt__")

    def __ge__(self, other):
        return self._compare(other, "__ge__")

    def __eq__(self, other):
        return self._compare(other, "__eq__")

    __hash__ = str.__hash__
