"""Graph files are saved like any file the user saves: through a symlink (the link stays, its target is
replaced), with the usual permissions, and a save cleans the temporaries that interrupted saves of that very
document left beside it (only its own, only old ones)."""

import os
import time

from core.nodegraph.files import io as files
from core.nodegraph.files.examples import default_graph


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
