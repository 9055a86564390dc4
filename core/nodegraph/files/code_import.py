"""Open PyTorch-style code as a graph: run the snippet once under the recorder and build the document.

Importing runs the user's own code, like running it in a terminal, so it happens only on an explicit action
(``import_code``, ``app.py --headless --import-py``, File > Open code...). It never happens when a graph file
is opened: the document keeps the snippet as text (``graph.code``) and nothing re-runs it.

``import_code(text)`` runs it in a fresh Python subprocess with a time limit (the process is killed when it
runs over), a memory limit (``resource.setrlimit``) and a ``cancel`` event that kills it at once; the child
sends back the graph as file text, which is loaded through the same checks as any graph file.
``import_here(text)`` does the same in this process (no memory limit; the time limit and cancel are
checked on every line of the snippet), for tests and for the child itself.

Errors are ``CodeImportError`` whose message points at the snippet's line: ``line 3: NameError: name 'q'
is not defined``. ``ImportResult.notes`` says what the graph does not show as written (a loop traced once,
branches traced as the path that ran, calls kept as values).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import core
from core.nodegraph.files import io as files
from core.nodegraph.model.code_build import build_graph
from core.nodegraph.model.code_trace import SnippetError, trace

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["CodeImportError", "ImportResult", "import_code", "import_here", "import_path", "TIME_LIMIT",
           "MEMORY_LIMIT", "MAX_SOURCE"]

TIME_LIMIT = 30.0  # seconds a snippet may run
STARTUP_LIMIT = 120.0  # seconds the child may take to start Python and import core before the snippet runs
MEMORY_LIMIT = 4 * 2 ** 30  # bytes of address space the child may use
MAX_SOURCE = 1_000_000  # characters of a snippet
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(core.__file__)))  # the folder that holds core/


class CodeImportError(ValueError):
    """The snippet can't be imported; ``line`` is the snippet's line it points at (or None)."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line, self.message = line, message


@dataclass
class ImportResult:
    graph: Graph
    notes: list[str] = field(default_factory=list)
    output: str = ""  # what the snippet printed


def _check_source(text: object) -> str:
    if not isinstance(text, str):
        raise CodeImportError("the snippet must be text")
    if len(text) > MAX_SOURCE:
        raise CodeImportError(f"the snippet is longer than {MAX_SOURCE} characters")
    return text


def import_here(text: str, name: str = "snippet.py", time_limit: float | None = TIME_LIMIT,
                cancel: threading.Event | None = None) -> ImportResult:
    """Trace and build in this process (no memory limit; see the module docstring)."""
    import core.nodegraph.model.nodes  # noqa: F401 - registers the node types the graph is built from

    text = _check_source(text)
    try:
        tr = trace(text, time_limit=time_limit, cancel=cancel)
    except SnippetError as exc:
        raise CodeImportError(exc.message, exc.line) from None
    try:
        graph = build_graph(tr, text, name)
    except SnippetError as exc:  # a value the graph can't hold (a complex tensor), at its line
        raise CodeImportError(exc.message, exc.line) from None
    return ImportResult(graph, _notes(graph), tr.output)


def _notes(graph: Graph) -> list[str]:
    return list((graph.code or {}).get("notes", []))


def import_path(path: str | os.PathLike[str], **limits: Any) -> ImportResult:
    """``import_code`` of a file's text (UTF-8), named after the file."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_SOURCE + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise CodeImportError(f"can't read {os.fspath(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    return import_code(text, name=os.path.basename(os.fspath(path)), **limits)


def import_code(text: str, name: str = "snippet.py", time_limit: float = TIME_LIMIT,
                memory_limit: int | None = MEMORY_LIMIT, cancel: threading.Event | None = None) -> ImportResult:
    """Run the snippet in a subprocess with the limits and build its graph (see the module docstring)."""
    text = _check_source(text)
    with tempfile.TemporaryDirectory(prefix="nodegrad-import-") as tmp:
        out = os.path.join(tmp, "result.json")
        env = {**os.environ,
               "PYTHONPATH": os.pathsep.join([_ROOT, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        cmd = [sys.executable, "-m", "core.nodegraph.files.code_import", out, name, repr(float(time_limit)),
               str(int(memory_limit or 0))]
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=env, cwd=tmp)
        try:
            _wait(proc, text, time_limit, cancel, out + ".started")
            with open(out, encoding="utf-8") as f:
                result = json.load(f)
        except CodeImportError:
            raise  # cancelled or over the time limit (_wait)
        except (OSError, ValueError):
            err = proc.stderr.read().decode("utf-8", "replace").strip().splitlines() if proc.stderr else []
            raise CodeImportError(f"the import stopped without a result ({err[-1][:300] if err else 'no message'})") \
                from None
        finally:
            if proc.stderr:
                proc.stderr.close()
    if not result.get("ok"):
        raise CodeImportError(str(result.get("message", "failed"))[:2000], result.get("line"))
    try:
        graph = files.loads(result["graph"])
    except files.LoadError as exc:
        raise CodeImportError(f"the imported graph was refused: {exc}") from None
    return ImportResult(graph, _notes(graph), str(result.get("output", "")))


def _wait(proc: subprocess.Popen[bytes], text: str, time_limit: float, cancel: threading.Event | None,
          started_path: str) -> None:
    """Feed the snippet, then wait for the child; kill it on cancel or when it runs past the limit.

    The limit counts from the moment the child has imported core and starts the snippet (it creates
    ``started_path``): on a busy machine starting Python and importing core alone can take many seconds."""
    try:
        if proc.stdin is not None:  # always: the child starts with stdin=PIPE
            proc.stdin.write(text.encode("utf-8"))
            proc.stdin.close()
    except OSError:
        pass
    deadline = time.monotonic() + STARTUP_LIMIT
    started = False
    while True:
        if not started and os.path.exists(started_path):
            started = True  # the child checks the limit itself; this is the backstop
            deadline = time.monotonic() + time_limit + 10.0
        try:
            proc.wait(timeout=0.05)
            return
        except subprocess.TimeoutExpired:
            pass
        if cancel is not None and cancel.is_set():
            proc.kill()
            proc.wait()
            raise CodeImportError("cancelled")
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            if not started:
                raise CodeImportError(f"stopped: Python did not start the import within {STARTUP_LIMIT:g} s "
                                      "(is the machine very busy?); try again")
            raise CodeImportError(f"stopped: the snippet ran longer than its time limit ({time_limit:g} s)")


def _limit_memory(limit: int) -> None:
    if limit <= 0:
        return
    try:
        import resource  # POSIX only

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass


def _child(argv: list[str]) -> int:
    """The subprocess: read the snippet from stdin, import it, write ``{"ok", "graph"|"message", "line"}``."""
    out, name, time_limit, memory = argv[0], argv[1], float(argv[2]), int(argv[3])
    text = sys.stdin.buffer.read().decode("utf-8", "replace")
    sys.argv = [name]
    _limit_memory(memory)
    with open(out + ".started", "w", encoding="utf-8"):
        pass  # the parent's time limit starts now (_wait)
    try:
        result = import_here(text, name, time_limit)
        data: dict[str, object] = {"ok": True, "graph": files.dumps(result.graph), "output": result.output[-20_000:]}
    except CodeImportError as exc:
        data = {"ok": False, "message": exc.message, "line": exc.line}
    except MemoryError:
        data = {"ok": False, "message": "MemoryError: the snippet used more memory than its limit", "line": None}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f)
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
