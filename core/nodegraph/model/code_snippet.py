"""Compile and run a snippet's plumbing: ``import torch`` resolved to ``core``, and what the snippet raised as one
``SnippetError`` with the snippet's line.

``code_trace.trace`` records a snippet; this module holds what any run of a snippet needs whether or not it is
recorded: ``compile_snippet`` (a syntax error, or an expression too deep for Python's compiler, as a SnippetError
at its line), ``torch_import`` (the ``__import__`` a snippet runs with), ``Stop`` (raised inside the snippet by
the time limit or a cancel, past its ``except Exception``) and ``failure`` (an exception, ``exit()`` or ``Stop``
turned into the SnippetError the import shows, or None for a clean exit).
"""

from __future__ import annotations

import builtins
import importlib
import types
from collections.abc import Mapping, Sequence

import core

__all__ = ["SNIPPET_FILE", "SnippetError", "Stop", "compile_snippet", "failure", "torch_import"]

SNIPPET_FILE = "<snippet>"


class SnippetError(Exception):
    """The snippet raised, ran out of time or was cancelled; ``line`` is the snippet's line (or None)."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line, self.message = line, message


class Stop(BaseException):
    """Raised inside the snippet to stop it (time limit or cancel); not catchable by ``except Exception``."""


def torch_import(name: str, globals: Mapping[str, object] | None = None, locals: Mapping[str, object] | None = None,
            fromlist: Sequence[str] = (), level: int = 0) -> types.ModuleType:
    """``import torch...`` gives ``core...``; every other import is Python's."""
    if level == 0 and (name == "torch" or name.startswith("torch.")):
        module = importlib.import_module("core" + name[len("torch"):])
        return module if fromlist else core
    return builtins.__import__(name, globals, locals, fromlist, level)


_NO_MESSAGE = {"MemoryError": "the snippet ran out of memory"}  # what an exception raised without a message means


def failure(exc: BaseException, filename: str) -> SnippetError | None:
    """What the snippet raised as one message with its line; None for an exit with status 0 (``exit()``,
    ``sys.exit()``: a script that ends there, the graph holds what ran). A KeyboardInterrupt or GeneratorExit the
    snippet raised is its error too (it escaped the import as a traceback)."""
    line = _snippet_line(exc, filename)
    if isinstance(exc, Stop):
        return SnippetError(str(exc), line)
    if isinstance(exc, SystemExit):
        if exc.code in (None, 0):
            return None
        return SnippetError(f"SystemExit: the snippet exited with status {str(exc.code)[:200]}", line)
    name = type(exc).__name__
    return SnippetError(f"{name}: {str(exc) or _NO_MESSAGE.get(name, 'raised without a message')}", line)


def _snippet_line(exc: BaseException, filename: str) -> int | None:
    """The last line of the traceback that ran in the snippet (its own line, not core's), or None."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def compile_snippet(source: str, filename: str = SNIPPET_FILE) -> types.CodeType:
    """``source`` compiled, or SnippetError: a syntax error at its line, or an expression nested too deeply for
    Python's compiler (``x + x + ...`` a few thousand times raises RecursionError, not SyntaxError)."""
    try:
        return compile(source, filename, "exec")
    except SyntaxError as exc:
        raise SnippetError(f"SyntaxError: {exc.msg}", exc.lineno) from None
    except (RecursionError, MemoryError) as exc:  # NOTE: CPython's compiler has no line for these
        raise SnippetError(f"{type(exc).__name__}: the snippet nests too deeply for Python to compile "
                           "(split the long expression over several lines)") from None
