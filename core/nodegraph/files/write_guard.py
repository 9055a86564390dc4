"""Keep an imported script's hands off the app's own files.

Importing code runs the user's script (``code_import``), and a script may write files, as it would in a terminal.
One place it must not write is the app itself: the package folders ``core`` and ``gui`` and ``app.py`` (the lessons'
graphs, the code). A script opened from there (File ▸ Open code… in a checkout's examples folder found
``build_examples.py``, which rewrites the lesson files) or one that computes a path into it would change the app
under the user. ``guard(roots)`` installs an audit hook (``sys.addaudithook``, in the import's own subprocess only:
a hook can't be removed) that refuses, with a ``PermissionError`` at the script's line, every open for writing and
every create, remove, rename, truncate or permission change of a path under ``roots``. Reading stays allowed.

An audit hook is no sandbox (a script can still reach the files through ``ctypes`` or a child process); it stops the
ordinary ways, ``open``, ``pathlib`` and ``os``/``shutil``, which is what a script that meant no harm uses.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

__all__ = ["guard", "refused", "own_roots"]

# audit event -> the positions of its arguments that name a path it changes (see the "Audit events table")
_CHANGES: dict[str, tuple[int, ...]] = {
    "os.remove": (0,), "os.rmdir": (0,), "os.mkdir": (0,), "os.rename": (0, 1), "os.truncate": (0,),
    "os.chmod": (0,), "os.chown": (0,), "os.utime": (0,), "os.link": (1,), "os.symlink": (1,),
    "shutil.rmtree": (0,), "shutil.copyfile": (1,), "shutil.copytree": (1,), "shutil.move": (0, 1),
}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
MESSAGE = "a snippet may not change Nodegrad's own files (its package folder)"


def own_roots(root: str) -> tuple[str, ...]:
    """The app's own files under ``root``, the folder that holds the ``core`` package: ``core``, ``gui``, ``app.py``."""
    return tuple(os.path.realpath(os.path.join(root, name)) for name in ("core", "gui", "app.py"))


def _full(path: object, dir_fd: object = None) -> str | None:
    """``path`` (a str, bytes or path-like an audited call was given) as a real absolute path; None for an open file
    descriptor, or a name relative to a directory descriptor that can't be read back."""
    if isinstance(path, int) or path is None:
        return None
    try:
        name = os.fsdecode(path)  # type: ignore[arg-type]  # str, bytes or os.PathLike, as os takes (else TypeError)
        if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(name):
            name = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), name)
        return os.path.realpath(name)
    except (TypeError, ValueError, OSError):
        return None


def _paths(event: str, args: Sequence[object]) -> list[object]:
    """The paths an audited ``event`` with ``args`` writes to or changes (none for a read)."""
    if event == "open":
        flags = args[2] if len(args) > 2 else 0
        return [args[0]] if isinstance(flags, int) and flags & _WRITE_FLAGS else []
    return [args[i] for i in _CHANGES.get(event, ()) if i < len(args)]


def refused(event: str, args: Sequence[object], roots: Iterable[str]) -> str | None:
    """The path under ``roots`` that the audited ``event`` with ``args`` would write or change, else None."""
    paths = _paths(event, args)
    if not paths:
        return None
    dir_fd = args[-1] if event in ("os.remove", "os.rmdir", "os.mkdir") else None
    for path in paths:
        full = _full(path, dir_fd)
        if full is not None and any(full == root or full.startswith(root + os.sep) for root in roots):
            return full
    return None


def guard(roots: Iterable[str]) -> None:
    """Refuse, from now on in this process, every change to a path under ``roots`` (see the module docstring)."""
    own = tuple(roots)

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "open" or event in _CHANGES:
            path = refused(event, args, own)
            if path is not None:
                raise PermissionError(13, MESSAGE, path)

    sys.addaudithook(hook)
