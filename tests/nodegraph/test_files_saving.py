"""Graph files are saved like any file the user saves: through a symlink (the link stays, its target is
replaced), with the usual permissions, and a save cleans the temporaries that interrupted saves of that very
document left beside it (only its own, only old ones). A save is atomic: the text goes to a temporary file beside
the target, which replaces it in one step, so a full disk leaves the old file as it was and says so."""

import errno
import os
import time

import app
from core.nodegraph.files import io as files
from core.nodegraph.files.examples import default_graph
from core.nodegraph.model import commands as cmd


def test_a_save_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path):
    (tmp_path / "docs").mkdir()
    target = tmp_path / "docs" / "g.json"
    target.write_text("old")
    link = tmp_path / "g.json"
    link.symlink_to(target)
    files.save(default_graph(), link)
    assert link.is_symlink() and files.load(target) == default_graph()
    assert os.listdir(tmp_path / "docs") == ["g.json"]


def test_a_new_file_gets_the_umasks_permissions(tmp_path):
    old = os.umask(0o027)
    try:
        files.save(default_graph(), tmp_path / "g.json")
    finally:
        os.umask(old)
    assert (tmp_path / "g.json").stat().st_mode & 0o777 == 0o640


def test_a_save_removes_old_temporaries_of_the_same_document_only(tmp_path):
    mine = [tmp_path / ".g.json.k2j4_x9a.tmp", tmp_path / ".g.json.00000000.tmp"]
    kept = [tmp_path / ".h.json.k2j4_x9a.tmp", tmp_path / ".g.json.backup.tmp", tmp_path / "notes.tmp",
            tmp_path / ".g.json.running1.tmp"]  # the last one is fresh: a save running at this moment
    for p in mine + kept:
        p.write_text("{")
    past = time.time() - 600
    for p in mine + kept[:-1]:
        os.utime(p, (past, past))
    files.save(default_graph(), tmp_path / "g.json")
    assert sorted(os.listdir(tmp_path)) == sorted([p.name for p in kept] + ["g.json"])
    assert files.load(tmp_path / "g.json") == default_graph()


def _changed_graph():
    g = default_graph()
    cmd.AddNode({"id": "extra", "type": "source.randn", "params": {"shape": [3]}}).do(g)
    return g


def test_a_save_writes_a_temporary_beside_the_file_and_replaces_the_file_with_it_in_one_step(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    files.save(default_graph(), path)
    old = path.read_bytes()
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        seen.append((os.path.dirname(src), os.path.basename(src), dst, path.read_bytes(), open(src, "rb").read()))
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    files.save(_changed_graph(), path)
    [(folder, name, dst, before, written)] = seen
    assert folder == str(tmp_path) and name.startswith(".g.json.") and name.endswith(".tmp")
    assert dst == os.path.realpath(path) and before == old  # the old file is whole until the replace
    assert written == path.read_bytes() and files.load(path) == _changed_graph()
    assert os.listdir(tmp_path) == ["g.json"]


def _full_disk(monkeypatch):
    """Every write to a file opened by descriptor (the save's temporary) fails as a full disk does."""
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, inner):
            self._inner = inner

        def write(self, data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._inner.close()

        def __getattr__(self, name):
            return getattr(self._inner, name)

    monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: Full(real_fdopen(fd, *a, **k)))


def test_a_save_on_a_full_disk_leaves_the_old_file_and_says_the_disk_is_full(tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    files.save(default_graph(), path)
    old = path.read_bytes()
    _full_disk(monkeypatch)
    try:
        files.save(_changed_graph(), path)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC and exc.strerror == os.strerror(errno.ENOSPC)
    else:
        raise AssertionError("a save on a full disk reported no error")
    assert path.read_bytes() == old and os.listdir(tmp_path) == ["g.json"]


def test_the_headless_import_on_a_full_disk_keeps_the_old_file_and_prints_why(tmp_path, monkeypatch, capsys):
    snippet, path = tmp_path / "s.py", tmp_path / "g.json"
    snippet.write_text("import torch\nx = torch.ones(2)\ny = x * 2\n")
    files.save(default_graph(), path)
    old = path.read_bytes()
    _full_disk(monkeypatch)
    code = app.main(["--headless", "--import-py", str(snippet), str(path)])
    err = capsys.readouterr().err
    assert code == 1 and f"can't write {str(path)!r}: {os.strerror(errno.ENOSPC)}" in err
    assert path.read_bytes() == old and sorted(os.listdir(tmp_path)) == ["g.json", "s.py"]
