"""``torch.hub``'s cache and weight downloads (``load_state_dict_from_url``, ``download_url_to_file``).

Model definitions written for torchvision's era (``vgg.py``, ``resnet.py``) import ``torch.utils.model_zoo``
for ``load_url``, which is this module's ``load_state_dict_from_url``. The cache is PyTorch's:
``$TORCH_HOME/hub`` (``$XDG_CACHE_HOME/torch``, ``~/.cache/torch`` by default) unless ``set_dir`` names another,
weights under its ``checkpoints``. Models from a repository's ``hubconf.py`` (``load``, ``list``, ``help``) come
from ``core._hub_repos``.
"""

import hashlib
import os
import re
import shutil
import sys
import tempfile
import warnings
from urllib.error import HTTPError, URLError
from urllib.parse import urlparse
from urllib.request import Request, urlopen

from core._hub_repos import ENV_GITHUB_TOKEN, MODULE_HUBCONF, VAR_DEPENDENCY, help, list, load

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url", "set_dir", "tqdm"]
_ = (ENV_GITHUB_TOKEN, HTTPError, MODULE_HUBCONF, URLError, VAR_DEPENDENCY)  # PyTorch's module-level names

ENV_TORCH_HOME, ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR = "TORCH_HOME", "XDG_CACHE_HOME", "~/.cache"
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
READ_DATA_CHUNK = 128 * 1024
_hub_dir = None

try:
    from tqdm import tqdm
except ImportError:
    class tqdm:  # PyTorch's fallback name: a bar that draws nothing
        def __init__(self, total=None, disable=False, unit=None, unit_scale=None, unit_divisor=None):
            self.total, self.disable, self.n = total, disable, 0

        def update(self, n):
            self.n += n

        def close(self):
            self.disable = True

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.close()


def _get_torch_home() -> str:
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, os.path.join(os.getenv(ENV_XDG_CACHE_HOME,
                                                                                DEFAULT_CACHE_DIR), "torch")))


def get_dir() -> str:
    """The hub cache directory: ``set_dir``'s, or ``$TORCH_HOME/hub``."""
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    return _hub_dir if _hub_dir is not None else os.path.join(_get_torch_home(), "hub")


def set_dir(d) -> None:
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None, progress: bool = True) -> None:
    """Download ``url`` to ``dst`` through a temporary file in its folder, checking the SHA-256 prefix if given."""
    req = Request(url, headers={"User-Agent": "torch.hub"})
    dst = os.path.expanduser(dst)
    tmp = tempfile.NamedTemporaryFile(delete=False, dir=os.path.dirname(dst) or ".")
    try:
        sha256 = hashlib.sha256() if hash_prefix is not None else None
        with urlopen(req) as u:
            while True:
                buffer = u.read(READ_DATA_CHUNK)
                if not buffer:
                    break
                tmp.write(buffer)
                if sha256 is not None:
                    sha256.update(buffer)
        tmp.close()
        if sha256 is not None:
            digest = sha256.hexdigest()
            if digest[:len(hash_prefix)] != hash_prefix:
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
        shutil.move(tmp.name, dst)
    finally:
        tmp.close()
        if os.path.exists(tmp.name):
            os.remove(tmp.name)


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location=None, progress: bool = True,
                             check_hash: bool = False, file_name: str | None = None, weights_only: bool = False):
    """The object ``torch.load`` reads from ``url``'s file, downloaded once into ``model_dir``
    (``get_dir()/checkpoints``); ``check_hash`` compares the file name's ``-<sha256 prefix>.`` part."""
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')  # (torch's line, on stdout)
        hash_prefix = None
        if check_hash:
            match = HASH_REGEX.search(filename)
            hash_prefix = match.group(1) if match else None
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    import core

    return core.load(cached_file, map_location=map_location, weights_only=weights_only)
