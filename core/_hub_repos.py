"""``torch.hub.load``/``list``/``help``: models from a repository's ``hubconf.py``, as PyTorch finds them.

A local folder (``source="local"``) is imported directly. A GitHub repository (``"owner/name[:ref]"``) is
unpacked once into the hub folder under ``owner_name_ref`` and read from there afterwards, so a cached
repository loads offline; without a network and without a cache the call stops with PyTorch's
"no internet connection" RuntimeError. The repository's code runs with ``import torch`` meaning whatever
module the caller's ``torch`` is; its entry points are the public callables of its ``hubconf.py``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import sys
import warnings
import zipfile
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.request import Request, urlopen

MODULE_HUBCONF = "hubconf.py"
VAR_DEPENDENCY = "dependencies"
ENV_GITHUB_TOKEN = "GITHUB_TOKEN"
_TRUSTED_OWNERS = ("facebookresearch", "facebookincubator", "pytorch", "fairinternal")

__all__ = ["help", "list", "load"]


@contextlib.contextmanager
def _on_sys_path(path: str):
    sys.path.insert(0, path)
    try:
        yield
    finally:
        sys.path.remove(path)


def _import_hubconf(repo_dir: str):
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    spec = importlib.util.spec_from_file_location(MODULE_HUBCONF, path)
    if spec is None or spec.loader is None:
        raise AssertionError(f"failed to load spec from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entry(module, model):
    """The callable ``model`` of a hubconf module, after its ``dependencies`` are checked."""
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    missing = [name for name in (getattr(module, VAR_DEPENDENCY, None) or ())
               if importlib.util.find_spec(name) is None]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    func = getattr(module, model, None) if model in dir(module) else None
    if func is None or not callable(func):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return func


def _repo_info(github: str, hub_dir: str) -> tuple[str, str, str]:
    """Owner, name and ref of ``owner/name[:ref]``; without a ref, ``main`` if it exists, else ``master``."""
    repo, ref = github.split(":") if ":" in github else (github, None)
    owner, name = repo.split("/")
    if ref is None:
        try:
            with urlopen(f"https://github.com/{owner}/{name}/tree/main/"):
                ref = "main"
        except HTTPError as e:
            if e.code != 404:
                raise
            ref = "master"
        except URLError as e:
            ref = next((r for r in ("main", "master") if os.path.exists(f"{hub_dir}/{owner}_{name}_{r}")), None)
            if ref is None:
                raise RuntimeError("It looks like there is no internet connection and the repo could not be found "
                                   f"in the cache ({hub_dir})") from e
    return owner, name, ref


def _check_trusted(owner: str, name: str, folder: str, trust_repo, hub_dir: str) -> None:
    """PyTorch's trust list: ``trusted_list`` in the hub folder, folders already downloaded, and its own owners."""
    listing = os.path.join(hub_dir, "trusted_list")
    Path(listing).touch()
    with open(listing) as f:
        trusted = tuple(line.strip() for line in f)
    owner_name = f"{owner}_{name}"
    is_trusted = owner_name in trusted or folder in next(os.walk(hub_dir))[1] or owner in _TRUSTED_OWNERS
    if trust_repo is False or (trust_repo == "check" and not is_trusted):
        answer = input(f"The repository {owner_name} does not belong to the list of trusted repositories and as "
                       "such cannot be downloaded. Do you trust this repository and wish to add it to the trusted "
                       "list of repositories (y/N)?")
        if answer.lower() in ("y", "yes"):
            if is_trusted:
                print("The repository is already trusted.")
        elif answer.lower() in ("n", "no", ""):
            raise Exception("Untrusted repository.")  # PyTorch raises exactly this
        else:
            raise ValueError(f"Unrecognized response {answer}.")
    if not is_trusted:
        with open(listing, "a") as f:
            f.write(owner_name + "\n")


def _check_not_forked(owner: str, name: str, ref: str) -> None:
    """The ref must be a branch, tag or commit of the repository itself, as GitHub's API lists them."""
    headers = {"Accept": "application/vnd.github.v3+json"}
    if os.environ.get(ENV_GITHUB_TOKEN) is not None:
        headers["Authorization"] = f"token {os.environ[ENV_GITHUB_TOKEN]}"
    for kind in ("branches", "tags"):
        page = 0
        while True:
            page += 1
            url = f"https://api.github.com/repos/{owner}/{name}/{kind}?per_page=100&page={page}"
            try:
                entries = _read_json(Request(url, headers=headers))
            except HTTPError:
                headers.pop("Authorization", None)
                entries = _read_json(Request(url, headers=headers))
            if not entries:
                break
            if any(e["name"] == ref or e["commit"]["sha"].startswith(ref) for e in entries):
                return
    raise ValueError(f"Cannot find {ref} in https://github.com/{owner}/{name}. If it's a commit from a forked repo, "
                     "please call hub.load() with forked repo directly.")


def _read_json(request):
    with urlopen(request) as r:
        return json.loads(r.read().decode(r.headers.get_content_charset("utf-8")))


def _extract_safely(archive: zipfile.ZipFile, target: str) -> None:
    root = Path(target).resolve()
    for member in archive.infolist():
        out = (root / member.filename).resolve()
        if not out.is_relative_to(root):
            raise ValueError(f"Archive entry escapes target directory: {member.filename}")
    archive.extractall(root)


def _cached_repo(github: str, force_reload: bool, trust_repo, verbose: bool, skip_validation: bool) -> str:
    from core.hub import download_url_to_file, get_dir

    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    owner, name, ref = _repo_info(github, hub_dir)
    branch = ref.replace("/", "_")
    folder = f"{owner}_{name}_{branch}"
    repo_dir = os.path.join(hub_dir, folder)
    _check_trusted(owner, name, folder, trust_repo, hub_dir)
    if not force_reload and os.path.exists(repo_dir):
        if verbose:
            sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir
    if not skip_validation:
        _check_not_forked(owner, name, ref)
    archive_path = os.path.join(hub_dir, branch + ".zip")
    if os.path.exists(archive_path):
        os.remove(archive_path)
    url = f"https://github.com/{owner}/{name}/zipball/{ref}"
    sys.stdout.write(f'Downloading: "{url}" to {archive_path}\n')
    try:
        download_url_to_file(url, archive_path, progress=False)
    except HTTPError as err:
        if err.code != 300:
            raise
        warnings.warn(f"The ref {ref} is ambiguous. Perhaps it is both a tag and a branch in the repo? Torchhub will "
                      "now assume that it's a branch. You can disambiguate tags and branches by explicitly passing "
                      "refs/heads/branch_name or refs/tags/tag_name as the ref. That might require using "
                      "skip_validation=True.", stacklevel=3)
        download_url_to_file(f"https://github.com/{owner}/{name}/zipball/refs/heads/{ref}", archive_path,
                             progress=False)
    with zipfile.ZipFile(archive_path) as archive:
        extracted = os.path.join(hub_dir, archive.infolist()[0].filename)
        shutil.rmtree(extracted, ignore_errors=True)
        _extract_safely(archive, hub_dir)
    os.remove(archive_path)
    shutil.rmtree(repo_dir, ignore_errors=True)
    shutil.move(extracted, repo_dir)
    return repo_dir


def list(github, force_reload=False, skip_validation=False, trust_repo="check", verbose=True):
    """The public callables of the repository's ``hubconf.py``."""
    repo_dir = _cached_repo(github, force_reload, trust_repo, verbose, skip_validation)
    with _on_sys_path(repo_dir):
        module = _import_hubconf(repo_dir)
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check"):
    """The docstring of the entry point ``model``."""
    repo_dir = _cached_repo(github, force_reload, trust_repo, True, skip_validation)
    with _on_sys_path(repo_dir):
        module = _import_hubconf(repo_dir)
    return _entry(module, model).__doc__


def load(repo_or_dir, model, *args, source="github", trust_repo="check", force_reload=False, verbose=True,
         skip_validation=False, **kwargs):
    """What the entry point ``model`` of a GitHub repository's or a local folder's ``hubconf.py`` returns."""
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        repo_or_dir = _cached_repo(repo_or_dir, force_reload, trust_repo, verbose, skip_validation)
    with _on_sys_path(repo_or_dir):
        module = _import_hubconf(repo_or_dir)
        return _entry(module, model)(*args, **kwargs)
