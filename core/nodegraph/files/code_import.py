"""Open PyTorch-style code as a graph: run the snippet once under the recorder and build the document.

Importing runs the user's own code, like running it in a terminal, so it happens only on an explicit action
(``import_code``, ``app.py --headless --import-py``, File > Open code...). It never happens when a graph file
is opened: the document keeps the snippet as text (``graph.code``) and nothing re-runs it.

``import_code(text)`` runs it in a fresh Python subprocess with a time limit (the process is killed when it
runs over), a memory limit (``resource.setrlimit``) and a ``cancel`` event that kills it at once; the child
sends back the graph as file text, which is loaded through the same checks as any graph file. ``ImportRun``
is the same run started and polled (the GUI's event loop polls it: no thread waits).
``import_here(text)`` does the same in this process (no memory limit; the time limit and cancel are
checked on every line of the snippet), for tests and for the child itself.
The child also refuses every write into the app's own files (``write_guard``; ``import_here`` has no such guard):
a script opened from the package's folder, or one that computes a path into it, can't change the lessons or the
code under the user.

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
from core.nodegraph.files import write_guard
from core.nodegraph.model.code_build import build_graph
from core.nodegraph.model.code_trace import SnippetError, compile_snippet, trace

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["CodeImportError", "ImportResult", "ImportRun", "check_syntax", "import_code", "import_here", "import_path",
           "read_script", "TIME_LIMIT", "MEMORY_LIMIT", "MAX_SOURCE", "NO_GRAPH"]

TIME_LIMIT = 30.0  # seconds a snippet may run
STARTUP_LIMIT = 120.0  # seconds the child may take to start Python and import core before the snippet runs
MEMORY_LIMIT = 4 * 2 ** 30  # bytes of address space the child may use
MAX_SOURCE = 1_000_000  # characters of a snippet
# NOTE: what makes a script this long is mostly a large tensor written out as its values: an exported graph that
# holds one, such as a snippet's own torch.randn(...) (the import keeps the values it drew, not the call: the
# seed is not in the graph), re-exports to megabytes (lesson 1's imported script: 25 MB)
TOO_LONG = (f"the snippet is longer than {MAX_SOURCE} characters. A script exported from Nodegrad gets this long when "
            "it writes a large tensor out as its values (an imported snippet's own torch.randn(...) is kept as the "
            "values it drew): open the graph's saved file instead of its script, or replace that tensor's node with "
            "a torch.randn node with a seed before exporting, so the script draws it")
_POLL_S = 0.05  # seconds between looks at a running child (import_code)
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


NO_GRAPH = ("the snippet made no graph: a graph is drawn from the operations on torch tensors the snippet runs "
            "(x * w, x.sum()...), and it ran none that a graph records")


def _check_source(text: object) -> str:
    """``text`` without a leading byte order mark (some editors write one; Python reads such files), or a
    CodeImportError: not text, too long, or holding a character no UTF-8 file holds (a lone surrogate)."""
    if not isinstance(text, str):
        raise CodeImportError("the snippet must be text")
    if len(text) > MAX_SOURCE:
        raise CodeImportError(TOO_LONG)
    text = text.removeprefix("\ufeff")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CodeImportError(f"the snippet holds a character no text file can hold (a lone surrogate "
                                  f"\\u{ord(text[exc.start]):04x}): delete it", text.count("\n", 0, exc.start) + 1) \
                from None
    return text


def _decoded(data: bytes, name: str) -> str:
    """A script file's bytes as text (UTF-8, a byte order mark dropped), or a CodeImportError that says where the
    first byte that is not UTF-8 is."""
    if len(data) > 4 * MAX_SOURCE:  # at most 4 bytes a character: longer than any snippet
        raise CodeImportError(TOO_LONG)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise CodeImportError(f"can't read {name!r}: it is not UTF-8 text (byte 0x{data[exc.start]:02x} at line "
                              f"{line}, column {column}); save the script as UTF-8") from None


def check_syntax(text: str) -> None:
    """Raise the ``CodeImportError`` that importing ``text`` would raise for its syntax (or its size), without
    running anything: the GUI checks a snippet this way before it asks about replacing the open document."""
    text = _check_source(text)
    try:
        compile_snippet(text)
    except SnippetError as exc:  # the message and line trace() gives
        raise CodeImportError(exc.message, exc.line) from None
    except ValueError as exc:  # a NUL character (a SyntaxError itself from Python 3.12)
        raise CodeImportError(f"SyntaxError: {exc}") from None


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
    if not graph.nodes and not _notes(graph):  # (an empty canvas replaced the open document, and nothing said why)
        raise CodeImportError(NO_GRAPH)
    return ImportResult(graph, _notes(graph), tr.output)


def _notes(graph: Graph) -> list[str]:
    return list((graph.code or {}).get("notes", []))


def read_script(path: str | os.PathLike[str]) -> str:
    """A script file's text (UTF-8; a byte order mark dropped), or a CodeImportError that says why not: it can't
    be read, it is not UTF-8 (where its first other byte is), it is longer than a snippet may be."""
    try:
        with open(path, "rb") as f:
            data = f.read(4 * MAX_SOURCE + 1)
    except OSError as exc:
        raise CodeImportError(f"can't read {os.fspath(path)!r}: {exc.strerror or exc}") from None
    return _check_source(_decoded(data, os.fspath(path)))


def import_path(path: str | os.PathLike[str], **limits: Any) -> ImportResult:
    """``import_code`` of a script file's text (``read_script``), named after the file."""
    return import_code(read_script(path), name=os.path.basename(os.fspath(path)), **limits)


def import_code(text: str, name: str = "snippet.py", time_limit: float = TIME_LIMIT,
                memory_limit: int | None = MEMORY_LIMIT, cancel: threading.Event | None = None) -> ImportResult:
    """Run the snippet in a subprocess with the limits and build its graph (see the module docstring)."""
    run = ImportRun(text, name, time_limit, memory_limit)
    try:
        while True:
            result = run.poll()
            if result is not None:
                return result
            if cancel is None:
                time.sleep(_POLL_S)
            elif cancel.wait(_POLL_S):
                run.cancel()  # the next poll raises "cancelled"
    finally:
        run.cancel()  # a no-op once the run has ended


class ImportRun:
    """An import started in its subprocess and not waited for: ``poll()`` it from an event loop until it gives
    the result, or ``cancel()`` it. The GUI polls it from its own thread: waiting in a Python thread let the
    cyclic garbage collector run there and free the GUI thread's Qt objects, and the window hung under load.

    The time limit counts from the moment the child has imported core and starts the snippet (it creates
    ``<out>.started``): on a busy machine starting Python and importing core alone can take many seconds."""

    def __init__(self, text: str, name: str = "snippet.py", time_limit: float = TIME_LIMIT,
                 memory_limit: int | None = MEMORY_LIMIT) -> None:
        self.time_limit = float(time_limit)
        self._proc: subprocess.Popen[bytes] | None = None
        self._error: CodeImportError | None = None  # raised by the next poll
        self._deadline = time.monotonic() + STARTUP_LIMIT
        self._started = False
        self._tmp = tempfile.TemporaryDirectory(prefix="nodegrad-import-")
        self._out = os.path.join(self._tmp.name, "result.json")
        self._stderr = os.path.join(self._tmp.name, "stderr.txt")
        try:
            text = _check_source(text)
            snippet = os.path.join(self._tmp.name, "snippet.txt")
            with open(snippet, "w", encoding="utf-8") as f:
                f.write(text)
            env = {**os.environ,
                   "PYTHONPATH": os.pathsep.join([_ROOT, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
                   "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
            cmd = [sys.executable, "-m", "core.nodegraph.files.code_import", self._out, name,
                   repr(self.time_limit), str(int(memory_limit or 0))]
            # NOTE: the snippet and the child's messages go through files, not pipes: a pipe's write blocks once
            # its buffer is full, and nobody reads it while the run is polled
            with open(snippet, "rb") as stdin, open(self._stderr, "wb") as stderr:
                self._proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=stderr, env=env,
                                              cwd=self._tmp.name)
        except CodeImportError as exc:
            self._fail(exc)
        except OSError as exc:
            self._fail(CodeImportError(f"can't start the import: {exc.strerror or exc}"))

    def poll(self) -> ImportResult | None:
        """None while the snippet runs; the result once the child has ended. Raises ``CodeImportError`` when it
        failed, was cancelled or ran past its limits (the child is killed)."""
        if self._error is not None:
            raise self._error
        assert self._proc is not None  # set unless _error is
        if self._proc.poll() is None:
            if not self._started and os.path.exists(self._out + ".started"):
                self._started = True  # the child checks the limit itself; this is the backstop
                self._deadline = time.monotonic() + self.time_limit + 10.0
            if time.monotonic() <= self._deadline:
                return None
            if not self._started:
                error = CodeImportError(f"stopped: Python did not start the import within {STARTUP_LIMIT:g} s "
                                        "(is the machine very busy?); try again")
            else:
                error = CodeImportError(f"stopped: the snippet ran longer than its time limit ({self.time_limit:g} s)")
            self._fail(error)
            raise error
        try:
            return self._result()
        except CodeImportError as exc:
            self._error = exc
            raise
        finally:
            self._tmp.cleanup()

    def cancel(self) -> None:
        """Kill the child; the next ``poll`` raises "cancelled". Nothing happens once the run has ended."""
        if self._error is None and self._proc is not None and self._proc.poll() is None:
            self._fail(CodeImportError("cancelled"))

    def _fail(self, error: CodeImportError) -> None:
        self._error = error
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._tmp.cleanup()

    def _result(self) -> ImportResult:
        try:
            with open(self._out, encoding="utf-8") as f:
                result = json.load(f)
        except (OSError, ValueError):
            try:
                with open(self._stderr, encoding="utf-8", errors="replace") as f:
                    err = f.read().strip().splitlines()
            except OSError:
                err = []
            why = err[-1][:300] if err else _ended(self._proc.returncode if self._proc is not None else None)
            raise CodeImportError(f"the import stopped without a result ({why})") from None
        if not result.get("ok"):
            raise CodeImportError(str(result.get("message", "failed"))[:2000], result.get("line"))
        try:
            graph = files.loads(result["graph"])
        except files.LoadError as exc:
            raise CodeImportError(f"the imported graph was refused: {exc}") from None
        return ImportResult(graph, _notes(graph), str(result.get("output", "")))


def _ended(status: int | None) -> str:
    """How the import's Python ended when it wrote no result and no message."""
    if status is not None and status < 0:
        return f"Python was killed by signal {-status}; did the snippet crash it?"
    return f"Python exited with status {status} and no message; did the snippet call os._exit()?"


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
    write_guard.guard(write_guard.own_roots(_ROOT))  # the snippet writes anywhere but into the app itself
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
