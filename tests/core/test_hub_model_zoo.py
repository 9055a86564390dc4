"""``torch.hub``'s weight cache and ``torch.utils.model_zoo.load_url``, compared with PyTorch's on local files.

Old model definitions (deeplearningzerotoall's ``vgg.py`` and ``resnet.py``, torchvision's early copies) import
``torch.utils.model_zoo``; core had no such module. A ``file://`` URL stands in for the download (urllib
reads it in both libraries), so these run offline.
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

import core
from tests.core.oracle import raised


def _serve(lib, folder, name):
    """Save a small state dict with ``lib`` under ``folder/src`` and return its ``file://`` URL."""
    os.makedirs(os.path.join(folder, "src"), exist_ok=True)
    path = os.path.join(folder, "src", name)
    lib.manual_seed(0)
    lib.save(lib.nn.Linear(3, 2).state_dict(), path)
    return "file://" + path


def test_model_zoo_and_hub_have_torchs_names(torch):
    import torch.utils.model_zoo as theirs

    import core.utils.model_zoo as ours

    assert ours.load_url is core.hub.load_state_dict_from_url
    assert theirs.load_url is torch.hub.load_state_dict_from_url
    for name in ("get_dir", "set_dir", "download_url_to_file", "load_state_dict_from_url", "tqdm"):
        assert hasattr(core.hub, name) and hasattr(torch.hub, name)


def test_get_dir_follows_torch_home_and_xdg(torch, monkeypatch, tmp_path):
    monkeypatch.setattr(core.hub, "_hub_dir", None)
    monkeypatch.setattr(torch.hub, "_hub_dir", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("TORCH_HOME", raising=False)
    assert core.hub.get_dir() == torch.hub.get_dir()
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    assert core.hub.get_dir() == torch.hub.get_dir() == str(tmp_path / "th" / "hub")
    core.hub.set_dir(str(tmp_path / "mine"))
    torch.hub.set_dir(str(tmp_path / "mine"))
    assert core.hub.get_dir() == torch.hub.get_dir()


def test_load_url_downloads_once_into_the_cache_and_loads(torch, tmp_path):
    def run(lib, sub):
        url = _serve(lib, str(tmp_path / sub), "linear-0123.pth")
        model_dir = str(tmp_path / sub / "cache")
        state = lib.utils.model_zoo.load_url(url, model_dir=model_dir)
        again = lib.hub.load_state_dict_from_url(url, model_dir=model_dir, file_name="linear-0123.pth")
        return state, again, sorted(os.listdir(model_dir))

    import torch.utils.model_zoo

    import core.utils.model_zoo
    ours, theirs = run(core, "core"), run(torch, "torch")
    assert ours[2] == theirs[2] == ["linear-0123.pth"]
    assert list(ours[0]) == list(theirs[0])
    for key in ours[0]:
        np.testing.assert_array_equal(ours[0][key].numpy(), theirs[0][key].numpy())
        np.testing.assert_array_equal(ours[1][key].numpy(), theirs[1][key].numpy())


@pytest.mark.parametrize("good", [True, False])
def test_check_hash_compares_the_file_names_sha256_prefix(torch, tmp_path, good):
    def run(lib, sub):
        url = _serve(lib, str(tmp_path / sub), "w.pth")
        data = open(url[len("file://"):], "rb").read()
        prefix = hashlib.sha256(data).hexdigest()[:8] if good else "deadbeef"
        os.rename(url[len("file://"):], url[len("file://"):].replace("w.pth", f"w-{prefix}.pth"))
        url = url.replace("w.pth", f"w-{prefix}.pth")
        return raised(lambda: lib.hub.load_state_dict_from_url(url, model_dir=str(tmp_path / sub / "c"),
                                                               check_hash=True))

    ours, theirs = run(core, "core"), run(torch, "torch")
    assert (ours is None) == (theirs is None) == good
    if not good:
        assert ours[0] == theirs[0] and ours[1].split("got")[0] == theirs[1].split("got")[0]


def test_a_download_says_so_on_stdout_as_torchs_does(torch, tmp_path, capsys):
    """torch prints 'Downloading: "<url>" to <file>' on stdout before fetching a file not yet cached (kornia's
    FaceDetector and DeDoDe examples print it before their download fails), and nothing once it is cached."""
    def run(lib, sub):
        url = _serve(lib, str(tmp_path / sub), "net.pth")
        model_dir = str(tmp_path / sub / "cache")
        capsys.readouterr()
        lib.hub.load_state_dict_from_url(url, model_dir=model_dir)
        first = capsys.readouterr().out
        lib.hub.load_state_dict_from_url(url, model_dir=model_dir)
        return first.replace(str(tmp_path / sub), "<dir>"), capsys.readouterr().out

    assert run(core, "core") == run(torch, "torch")
    assert run(core, "core2")[0] == 'Downloading: "file://<dir>/src/net.pth" to <dir>/cache/net.pth\n'
