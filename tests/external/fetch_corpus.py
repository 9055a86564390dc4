"""Fetch the corpus scripts named in ``recipes.py`` and apply their edits (the text is never committed).

``python tests/external/fetch_corpus.py`` downloads each file at its pinned commit from GitHub;
``--mirror DIR`` reads them from local clones instead (``DIR/<owner>+<name>/repo`` or
``DIR/<owner>/<name>``, bare or not). Scripts land in ``tests/external/scripts/<name>/`` with their
support files; an edit whose text is missing stops with an error naming the recipe.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from recipes import RECIPES  # noqa: E402

SCRIPTS = os.path.join(HERE, "scripts")


def _from_mirror(mirror: str, repo: str, commit: str, path: str) -> str:
    owner, name = repo.split("/")
    for git_dir in (os.path.join(mirror, f"{owner}+{name}", "repo"), os.path.join(mirror, owner, name)):
        if os.path.isdir(git_dir):
            return subprocess.run(["git", "-C", git_dir, "show", f"{commit}:{path}"], check=True,
                                  capture_output=True, text=True).stdout
    raise FileNotFoundError(f"no clone of {repo} under {mirror}")


def _from_github(repo: str, commit: str, path: str) -> str:
    url = f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 - a fixed https URL
        return response.read().decode("utf-8")


def apply_edits(name: str, text: str, edits) -> str:
    for old, new in edits:
        if old not in text:
            raise ValueError(f"{name}: edit target not found: {old!r}")
        text = text.replace(old, new, 1)
    return text


def fetch(recipe: dict, mirror: str | None) -> None:
    get = (lambda p: _from_mirror(mirror, recipe["repo"], recipe["commit"], p)) if mirror else \
        (lambda p: _from_github(recipe["repo"], recipe["commit"], p))
    folder = os.path.join(SCRIPTS, recipe["name"])
    os.makedirs(folder, exist_ok=True)
    for source, target in recipe["support"]:
        with open(os.path.join(folder, target), "w", encoding="utf-8") as f:
            f.write(get(source))
    text = apply_edits(recipe["name"], get(recipe["path"]), recipe["edits"])
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
