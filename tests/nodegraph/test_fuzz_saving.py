"""A save interrupted anywhere leaves the previous file as it was: hypothesis picks the byte where the disk fills
up (or the user presses Ctrl+C, or a bug raises) while the document, or its tensor sidecar, is being written.

After the failed save the old file has its old bytes, the old sidecar is still there and still read by it, and no
temporary file is left beside them; a read-only folder, a folder where the file should be and a path under a file
are refused by the OS and change nothing either.
"""

import errno
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import core.nodegraph.model.nodes  # noqa: F401 - the node types the examples use
from core.nodegraph.files import io as files
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import tensor_store
from core.nodegraph.model.document import Graph, Node
from core.nodegraph.model.tensor_store import TensorValue
from tests.hypothesis_profiles import fuzz_settings

EXAMPLES = sorted(lessons.EXAMPLES_DIR.glob("*.json"))
BIG = tensor_store.SIDECAR_MIN // 4 + 1000  # float32 elements: just enough for a sidecar


def _with_big_tensor(seed: int) -> Graph:
    g = Graph()
    values = np.random.default_rng(seed).standard_normal(BIG).astype(np.float32)
    g.add_node(Node("t", "source.tensor", {"tensor": TensorValue(values)}))
    return g


class _FailingFile:
    """A binary file that raises ``error`` once more than ``budget`` bytes were written to it (a full disk)."""

    def __init__(self, inner, budget: int, error: BaseException) -> None:
        self._inner, self._left, self._error = inner, budget, error

    def write(self, data) -> int:
        size = memoryview(data).nbytes
        if size > self._left:
            self._inner.write(bytes(memoryview(data).cast("B")[:self._left]))
            raise self._error
        self._left -= size
        return self._inner.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self._inner.close()

    def __getattr__(self, name):
        return getattr(self._inner, name)


ERRORS = st.sampled_from([OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt(),
                          RuntimeError("a bug while saving"), OSError(errno.EIO, "Input/output error")])


def _snapshot(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@fuzz_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.integers(0, len(EXAMPLES)), nth=st.integers(0, 1), at=st.floats(0, 1, exclude_max=True),
       error=ERRORS)
def test_a_save_interrupted_at_any_byte_leaves_the_previous_file_and_sidecar(tmp_path_factory, which, nth, at,
                                                                             error):
    folder = tmp_path_factory.mktemp("save")
    path = folder / "g.json"
    big = which == len(EXAMPLES)  # the last choice: a document with a sidecar, then the other writes fail
    old, new = (_with_big_tensor(0), _with_big_tensor(1)) if big else \
        (files.load(EXAMPLES[which]), files.load(EXAMPLES[(which + 1) % len(EXAMPLES)]))
    scratch = tmp_path_factory.mktemp("scratch") / path.name  # the same name: the JSON names its sidecar
    files.save(new, scratch)  # how many bytes each write of this save makes
    sizes = [os.path.getsize(p) for p in (*files.sidecar_paths(scratch), scratch)]
    files.save(old, path)
    before = _snapshot(folder)
    opened, real_fdopen, failing = [], os.fdopen, nth if big else 0

    def failing_fdopen(fd, *args, **kwargs):
        f = real_fdopen(fd, *args, **kwargs)
        opened.append(f)
        return _FailingFile(f, int(at * sizes[failing]), error) if len(opened) - 1 == failing else f

    mp = pytest.MonkeyPatch()
    mp.setattr(os, "fdopen", failing_fdopen)
    try:
        with pytest.raises(type(error)):
            files.save(new, path)
    finally:
        mp.undo()
    assert _snapshot(folder) == before  # the same files, byte for byte: no temporary, no new sidecar
    assert files.load(path) == old


def _save_refused(graph: Graph, path, error=OSError) -> None:
    with pytest.raises(error):
        files.save(graph, path)


def test_a_save_into_a_read_only_folder_is_refused_and_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    files.save(_with_big_tensor(0), path)
    before = _snapshot(tmp_path)

    def read_only(*args, **kwargs):  # what mkstemp meets in a read-only folder (root could write into a chmod 555)
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("tempfile.mkstemp", read_only)
    _save_refused(_with_big_tensor(1), path)
    assert _snapshot(tmp_path) == before
    assert files.load(path) == _with_big_tensor(0)


def test_a_save_over_a_folder_or_under_a_file_is_refused_and_changes_nothing(tmp_path):
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "folder.json" / "inside.txt").write_text("kept")
    (tmp_path / "plain").write_text("kept")
    before = _snapshot(tmp_path / "folder.json"), (tmp_path / "plain").read_text()
    _save_refused(files.load(EXAMPLES[0]), tmp_path / "folder.json")
    _save_refused(files.load(EXAMPLES[0]), tmp_path / "plain" / "g.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.json", "plain"]
    assert (_snapshot(tmp_path / "folder.json"), (tmp_path / "plain").read_text()) == before
