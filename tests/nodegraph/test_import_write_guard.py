"""An imported script can't change the app's own files: File ▸ Open code… once started in the package's examples
folder, whose only script, build_examples.py, rewrites the lesson files. The import's child refuses every write under
the package (a PermissionError at the script's line) and lets the script read there and write anywhere else."""

import os
import textwrap

import core
from core.nodegraph.files import write_guard
from core.nodegraph.files.code_import import CodeImportError, import_code
from core.nodegraph.lessons.texts import EXAMPLES_DIR

ROOTS = write_guard.own_roots(os.path.dirname(os.path.dirname(os.path.abspath(core.__file__))))
LESSON = str(EXAMPLES_DIR / "01-tensors.json")


def test_writes_into_the_package_are_refused_and_reads_and_other_writes_are_not():
    unknown = str(EXAMPLES_DIR / "no-such-lesson.json")
    assert write_guard.refused("open", (LESSON, "w", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), ROOTS) == LESSON
    assert write_guard.refused("open", (LESSON, None, os.O_RDWR), ROOTS) == LESSON  # os.open
    assert write_guard.refused("os.remove", (unknown, -1), ROOTS) == unknown
    assert write_guard.refused("os.rename", ("/tmp/a.json", LESSON, -1, -1), ROOTS) == LESSON
    assert write_guard.refused("shutil.rmtree", (str(EXAMPLES_DIR), None), ROOTS) == str(EXAMPLES_DIR)
    assert write_guard.refused("open", (LESSON, "r", os.O_RDONLY), ROOTS) is None
    assert write_guard.refused("open", ("/tmp/out.json", "w", os.O_WRONLY | os.O_CREAT), ROOTS) is None
    assert write_guard.refused("open", (3, "w", os.O_WRONLY), ROOTS) is None  # an open descriptor: its name unknown


def test_an_imported_script_reads_the_lessons_but_cannot_write_them(tmp_path):
    """One child run: the script reads a lesson, writes beside the user's files, and is refused a remove and a
    write in the examples folder (a remove that got through would fail at its line, the file is not there); the
    lesson is as it was and the refusal is the script's error at its line."""
    before = (EXAMPLES_DIR / "01-tensors.json").read_bytes()
    out = tmp_path / "copy.json"
    snippet = textwrap.dedent(f"""\
        import os
        import torch
        text = open({LESSON!r}).read()
        open({str(out)!r}, "w").write(text)
        try:
            os.remove({str(EXAMPLES_DIR / "no-such-lesson.json")!r})
        except PermissionError:  # (a FileNotFoundError, not caught, had the script fail on this line)
            pass
        x = torch.ones(2, requires_grad=True)
        y = (x * 2).sum()
        open({LESSON!r}, "w").write("{{}}")
        """)
    try:
        import_code(snippet, time_limit=60.0)
    except CodeImportError as exc:
        error = exc
    else:
        raise AssertionError("the write into the examples folder was not refused")
    assert error.line == 11 and "PermissionError" in error.message and write_guard.MESSAGE in error.message
    assert (EXAMPLES_DIR / "01-tensors.json").read_bytes() == before
    assert out.read_bytes() == before  # read from the package, written outside it
