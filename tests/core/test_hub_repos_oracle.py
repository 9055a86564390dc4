"""``torch.hub.load``/``list``/``help`` against PyTorch's, offline: a local folder, a cached repository, the trust
list and the errors. DINO's argument parser calls ``torch.hub.list``; core had no such function.

The hubconf entry points take the library as an argument, so the same folder builds a core and a torch model.
"""

from __future__ import annotations

import builtins
import os
from urllib.error import URLError

import numpy as np
import pytest

import core
from tests.core.oracle import raised

HUBCONF = '''
dependencies = ["numpy"]


def linear(lib, out_features=2):
    """A seeded Linear(3, out_features)."""
    lib.manual_seed(0)
    return lib.nn.Linear(3, out_features)


def _helper():
    return None


NOT_CALLABLE = 3
'''


def _repo(folder, text=HUBCONF):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "hubconf.py"), "w") as f:
        f.write(text)
    return str(folder)


@pytest.fixture
def offline(monkeypatch):
    """No network in either library: every urlopen raises URLError."""
    def refuse(*args, **kwargs):
        raise URLError("offline")

    import torch.hub

    import core._hub_repos
    monkeypatch.setattr(torch.hub, "urlopen", refuse)
    monkeypatch.setattr(core._hub_repos, "urlopen", refuse)
    monkeypatch.setattr(core.hub, "urlopen", refuse)


def _hub_dirs(torch, tmp_path):
    """Separate hub folders for the two libraries (each writes its trust list)."""
    old = (core.hub.get_dir(), torch.hub.get_dir())
    core.hub.set_dir(str(tmp_path / "core_hub"))
    torch.hub.set_dir(str(tmp_path / "torch_hub"))
    return old


def test_load_from_a_local_folder_runs_the_entry_point_as_torch(torch, tmp_path):
    folder = _repo(tmp_path / "repo")
    ours = core.hub.load(folder, "linear", core, out_features=4, source="local")
    theirs = torch.hub.load(folder, "linear", torch, out_features=4, source="local")
    assert repr(ours) == repr(theirs)
    np.testing.assert_array_equal(ours.weight.detach().numpy(), theirs.weight.detach().numpy())
    assert core.hub.load(folder, "linear", core, source="LOCAL").out_features == 2


@pytest.mark.parametrize("model", ["missing", "NOT_CALLABLE", 3])
def test_an_entry_point_that_is_not_there_raises_torchs_error(torch, tmp_path, model):
    folder = _repo(tmp_path / "repo")
    ours = raised(lambda: core.hub.load(folder, model, source="local"))
    theirs = raised(lambda: torch.hub.load(folder, model, source="local"))
    assert ours == theirs and ours is not None


def test_missing_dependencies_and_unknown_sources_raise_torchs_errors(torch, tmp_path):
    folder = _repo(tmp_path / "repo", HUBCONF.replace('["numpy"]', '["numpy", "no_such_package_x", "nor_y"]'))
    for call in (lambda lib: lib.hub.load(folder, "linear", lib, source="local"),
                 lambda lib: lib.hub.load(folder, "linear", lib, source="zip")):
        ours, theirs = raised(lambda c=call: c(core)), raised(lambda c=call: c(torch))
        assert ours == theirs and ours is not None
    assert ours[1] == 'Unknown source: "zip". Allowed values: "github" | "local".'


def test_a_cached_repository_lists_helps_and_loads_offline(torch, tmp_path, offline, capsys):
    old = _hub_dirs(torch, tmp_path)
    try:
        for lib in (core, torch):
            _repo(os.path.join(lib.hub.get_dir(), "someone_models_main"))
        results = []
        for lib in (core, torch):
            entries = lib.hub.list("someone/models", trust_repo=True)
            doc = lib.hub.help("someone/models", "linear", trust_repo=True)
            model = lib.hub.load("someone/models", "linear", lib, trust_repo=True, verbose=False)
            err = capsys.readouterr().err.replace(lib.hub.get_dir(), "HUB")
            results.append((entries, doc, repr(model), model.weight.detach().numpy().tolist(), err))
        assert results[0] == results[1]
        assert results[0][0] == ["linear"] and "Using cache found in HUB/someone_models_main" in results[0][4]
    finally:
        core.hub.set_dir(old[0])
        torch.hub.set_dir(old[1])


def test_offline_without_a_cache_raises_torchs_runtime_error(torch, tmp_path, offline):
    old = _hub_dirs(torch, tmp_path)
    try:
        ours = raised(lambda: core.hub.list("someone/models", trust_repo=True))
        theirs = raised(lambda: torch.hub.list("someone/models", trust_repo=True))
        assert ours[0] == theirs[0] == "RuntimeError"
        assert ours[1].replace(core.hub.get_dir(), "HUB") == theirs[1].replace(torch.hub.get_dir(), "HUB")
    finally:
        core.hub.set_dir(old[0])
        torch.hub.set_dir(old[1])


@pytest.mark.parametrize("answer", ["n", "", "maybe", "y"])
def test_an_untrusted_repository_asks_and_remembers_as_torch(torch, tmp_path, offline, monkeypatch, answer):
    old = _hub_dirs(torch, tmp_path)
    prompts = []
    monkeypatch.setattr(builtins, "input", lambda prompt: prompts.append(prompt) or answer)
    try:
        outcomes = []
        for lib in (core, torch):
            # an explicit ref needs no network to resolve; the download that would follow is refused offline
            error = raised(lambda lib=lib: lib.hub.list("someone/models:v1", skip_validation=True))
            listing = open(os.path.join(lib.hub.get_dir(), "trusted_list")).read()
            outcomes.append((error, listing))
        assert outcomes[0] == outcomes[1]
        assert len(prompts) == 2 and prompts[0] == prompts[1]
        assert ("someone_models" in outcomes[0][1]) == (answer == "y")
        assert outcomes[0][0][0] == {"n": "Exception", "": "Exception", "maybe": "ValueError", "y": "URLError"}[answer]
    finally:
        core.hub.set_dir(old[0])
        torch.hub.set_dir(old[1])
