"""Fetch the corpus scripts named in ``recipes.py`` and apply their edits (the text is never committed).

``python tests/external/fetch_corpus.py`` downloads each file at its pinned commit from GitHub;
``--mirror DIR`` reads them from local clones instead (``DIR/<owner>+<name>/repo`` or
``DIR/<owner>/<name>``, bare or not), or from single files saved at their commit
(``DIR/<owner>+<name>/files/<commit>/<path>``, for repositories too large to clone).
Scripts land in ``tests/external/scripts/<name>/`` with their
support files; an edit whose text is missing stops with an error naming the recipe. A Jupyter notebook
(``.ipynb``) becomes a script first (``notebook_to_script``): its code cells in order, shell and magic
lines dropped, and each cell's last bare expression printed as Jupyter displays it. A Markdown file's section
(``README.md#Heading``) becomes the script of its ```` ```python ```` blocks (``markdown_to_script``).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import subprocess
import sys
import textwrap
import tokenize
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from recipes import RECIPES  # noqa: E402

SCRIPTS = os.path.join(HERE, "scripts")


def _from_mirror(mirror: str, repo: str, commit: str, path: str) -> bytes:
    owner, name = repo.split("/")
    saved = os.path.join(mirror, f"{owner}+{name}", "files", commit, path)
    if os.path.isfile(saved):
        with open(saved, "rb") as f:
            return f.read()
    for git_dir in (os.path.join(mirror, f"{owner}+{name}", "repo"), os.path.join(mirror, owner, name)):
        if os.path.isdir(git_dir):
            return subprocess.run(["git", "-C", git_dir, "show", f"{commit}:{path}"], check=True,
                                  capture_output=True).stdout
    raise FileNotFoundError(f"no clone of {repo} under {mirror}")


def _from_github(repo: str, commit: str, path: str) -> bytes:
    url = f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    with urllib.request.urlopen(url, timeout=60) as response:  # a fixed https URL
        return response.read()


def _statement_starts(code: str) -> bool:
    """Whether the next line of ``code`` starts a statement: a ``%`` line inside open brackets is Python's modulo
    (``% (epoch, cost))``), not a magic."""
    try:
        list(tokenize.generate_tokens(io.StringIO(code + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    return not code.rstrip().endswith("\\")


def _cell_to_code(source: str) -> str:
    """One notebook cell as script text: ``%magic``/``!shell`` lines dropped, a last bare expression shown."""
    lines = []
    for line in source.splitlines():
        if not (line.lstrip().startswith(("%", "!")) and _statement_starts("\n".join(lines))):
            lines.append(line)
    lines = textwrap.dedent("\n".join(lines)).splitlines()  # IPython drops a cell's common leading indent
    code = "\n".join(lines).rstrip()
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    last = tree.body[-1] if tree.body else None
    if isinstance(last, ast.Expr):
        rest = lines[last.end_lineno - 1][last.end_col_offset:].split("#")[0]
        if ";" not in rest:  # a trailing semicolon hides the value in Jupyter
            shown = ast.get_source_segment(code, last)
            before = lines[last.lineno - 1][:last.col_offset].rstrip()  # ``m = tensor(...); m`` keeps its statement
            code = "\n".join([*lines[:last.lineno - 1], *([before] if before else []), f"__shown = ({shown})",
                               "if __shown is not None:", "    print(repr(__shown))"])
    return code


CELL_BREAK = "\n\n# ---- next notebook cell ----\n\n"


def notebook_to_script(text: str, separator: str = "\n\n") -> str:
    """A notebook's code cells in order, as one script that prints what the notebook displays."""
    cells = json.loads(text)["cells"]
    codes = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells
             if c["cell_type"] == "code"]
    return separator.join(_cell_to_code(code) for code in codes if code.strip()) + "\n"


def markdown_to_script(text: str, section: str, separator: str = "\n\n") -> str:
    """The ```` ```python ```` blocks of one section of a Markdown file (``section``: a heading's text; the section
    ends at the next heading of its level or above), in order, as one script; blocks are not displayed as cells."""
    blocks, level, block = [], None, None
    for line in text.splitlines():
        heading = len(line) - len(line.lstrip("#")) if line.startswith("#") and block is None else 0
        if heading and level is not None and heading <= level:
            break
        if heading and line[heading:].strip() == section:
            level = heading
        elif level is not None and block is None and line.strip() == "```python":
            block = []
        elif block is not None and line.strip() == "```":
            blocks.append("\n".join(block))
            block = None
        elif block is not None:
            block.append(line)
    if level is None:
        raise ValueError(f"no section {section!r}")
    return separator.join(blocks) + "\n"


def keep_going(script: str) -> str:
    """Cells (split at ``CELL_BREAK``) that run on after one raises, as in Jupyter: each cell's code runs through
    ``exec`` in the module's namespace, and an exception prints ``ERROR: Type: message`` instead of ending the run.
    Each cell's text is in ``linecache`` under ``<cell N>``, as IPython keeps it, so ``inspect.getsource`` (which
    ``torch.jit.script`` reads) finds a function a cell defines."""
    cells = script.rstrip("\n").split(CELL_BREAK)
    wrapped = [f"try:\n    exec(__cell({cell!r}, '<cell {n}>'))\nexcept Exception as __error:\n"
               f"    print(f'ERROR: {{type(__error).__name__}}: {{__error}}')" for n, cell in enumerate(cells, 1)]
    return CELL_SOURCE + "\n\n".join(wrapped) + "\n"


CELL_SOURCE = """def __cell(code, name):
    __import__('linecache').cache[name] = (len(code), None, code.splitlines(True), name)
    return compile(code, name, 'exec')


"""


def apply_edits(name: str, text: str, edits) -> str:
    for old, new in edits:
        if old not in text:
            raise ValueError(f"{name}: edit target not found: {old!r}")
        text = text.replace(old, new, 1)
    return text


def _get_bytes(mirror: str | None, repo: str, commit: str, path: str) -> bytes:
    return _from_mirror(mirror, repo, commit, path) if mirror else _from_github(repo, commit, path)


def _get(mirror: str | None, repo: str, commit: str, path: str) -> str:
    return _text_or_binary(_get_bytes(mirror, repo, commit, path)).decode("utf-8")


def _text_or_binary(data: bytes) -> bytes:
    """Text with its line ends as ``\\n`` (as read in text mode); a binary file (``diabetes.csv.gz``) as stored."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8")


def fetch(recipe: dict, mirror: str | None) -> None:
    def get(path):
        return _get(mirror, recipe["repo"], recipe["commit"], path)
    folder = os.path.join(SCRIPTS, recipe["name"])
    os.makedirs(folder, exist_ok=True)
    for entry in recipe["support"]:  # (path, target), or (repo, commit, path, target) from another repository
        source, target = entry[-2:]
        data = _get_bytes(mirror, *((recipe["repo"], recipe["commit"]) if len(entry) == 2 else entry[:2]), source)
        os.makedirs(os.path.dirname(os.path.join(folder, target)), exist_ok=True)
        with open(os.path.join(folder, target), "wb") as f:
            f.write(_text_or_binary(data))
    path, _, section = recipe["path"].partition("#")  # README.md#Heading: that section's code blocks
    text = get(path)
    going = recipe.get("keep_going", False)  # notebooks whose cells show errors on purpose
    if path.endswith(".ipynb"):
        text = notebook_to_script(text, CELL_BREAK if going else "\n\n")
    elif path.endswith(".md"):
        text = markdown_to_script(text, section, CELL_BREAK if going else "\n\n")
    elif path.endswith(".rst"):  # a documentation page's code blocks (PyTorch's notes)
        text = __import__("corpus_docs_notes").rst_to_script(text, CELL_BREAK if going else "\n\n")
    text = apply_edits(recipe["name"], text, recipe["edits"])
    if going:
        text = keep_going(text)
    with open(os.path.join(folder, "script.py"), "w", encoding="utf-8") as f:
        f.write(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", help="a folder of local clones instead of downloading")
    parser.add_argument("names", nargs="*", help="recipes to fetch (default: all)")
    args = parser.parse_args()
    for recipe in RECIPES:
        if not args.names or recipe["name"] in args.names:
            fetch(recipe, args.mirror)
            print("fetched", recipe["name"])


if __name__ == "__main__":
    main()
