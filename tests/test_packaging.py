"""A wheel of the project carries the lessons and example graphs, and an install of it finds them from any directory.

The wheel is built offline from a copy of the sources (so the working tree gets no ``build/`` folder and a stale
one cannot leak into it), then unpacked and imported in a fresh interpreter whose working directory is elsewhere:
the examples must come from the package (``importlib.resources``), not from a checkout.
"""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from core.nodegraph.lessons.texts import EXAMPLES_DIR

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "app.py", "core", "gui")

INSTALLED_CHECK = """
import sys
from pathlib import Path
import core
from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR, list_lessons
site = Path(sys.argv[1]).resolve()
assert Path(core.__file__).resolve().is_relative_to(site), core.__file__
assert EXAMPLES_DIR.resolve().is_relative_to(site), EXAMPLES_DIR
lessons = list_lessons()
graphs = [files.load(lesson.file) for lesson in lessons]
print(len(lessons), sum(len(g.nodes) > 0 for g in graphs), lessons[3].key)
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The project's wheel, built with the running interpreter's setuptools, without the network."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(ROOT / name, src / name)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                          "-q", "-w", str(tmp / "dist"), str(src)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    (built,) = (tmp / "dist").glob("nodegrad-*.whl")
    return built


def test_the_wheel_carries_every_lesson_graph_and_text(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"core/nodegraph/assets/examples/{p.name}"
                for p in EXAMPLES_DIR.iterdir() if p.suffix in (".json", ".md")}
    assert len(expected) >= 26  # ten lessons and three playgrounds, each a graph and a text
    assert expected <= names, sorted(expected - names)
    assert {"app.py", "core/__init__.py", "gui/main_window.py"} <= names


def test_an_unpacked_wheel_finds_its_lessons_from_another_directory(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}  # ahead of the editable install of the checkout
    out = subprocess.run([sys.executable, "-c", INSTALLED_CHECK, str(site)], cwd=elsewhere, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    count = len(list(EXAMPLES_DIR.glob("*.md")))
    assert out.stdout.split() == [str(count), str(count), "04-autograd-graph"]


def test_the_wheel_carries_every_data_file_core_reads(wheel):
    """A data table core loads at run time (ATen's names, torch's method signatures, Sobol' directions...) left out of
    package-data works in the checkout and breaks an installed wheel: every non-Python file under core/ ships."""
    names = set(zipfile.ZipFile(wheel).namelist())
    data = {p.relative_to(ROOT).as_posix() for p in (ROOT / "core").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyi", ".pyc") and "__pycache__" not in p.parts
            and not p.name.startswith(".")}
    assert {"core/_method_signatures.json.gz", "core/_aten_overloads.txt.gz"} <= data
    assert data <= names, sorted(data - names)
