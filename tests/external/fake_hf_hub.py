"""Stand-ins for the packages Hugging Face ``transformers`` 4.57.6 imports but the corpus has not installed
(``recipes_hf.py``): ``huggingface_hub``, ``safetensors``, ``tokenizers``, ``regex`` and ``requests.exceptions``. Both
runs get the same stand-ins; transformers' own code runs as it is. peft and diffusers (``recipes_peft.py``) get them
too, with the few names they add: ``httpx`` (``NetworkError``, which diffusers' pipelines catch), ``ModelCard`` (a
README.md with ``key: value`` metadata, which peft's ``save_pretrained`` writes beside an adapter),
``validate_hf_hub_args`` (the identity) and the Hub's errors they catch.

transformers imports these at module level for what it does with the Hub (downloads, uploads, model cards), with
files (safetensors checkpoints) and with fast tokenizers; the corpus builds models from configs and never does any
of that. So each name it imports is here, and whatever would reach the network raises ``OfflineModeIsEnabled``
(``hf_hub_download``, ``snapshot_download``...). The Hub's own ``serialization`` package (``save_pretrained``'s
``split_torch_state_dict_into_shards``: pure Python on torch's tensors) is real where a script's folder holds it
(``recipes_hf.py`` fetches it from huggingface_hub's v0.36.2 release): the stand-in package's ``__path__`` is that
folder's ``huggingface_hub``. What a model's construction does call is real too: ``constants`` (cache folders
under a path that is never created, the Hub's weight file names), ``are_progress_bars_disabled``, and safetensors'
``storage_ptr``/``storage_size`` (``pytorch_utils.id_tensor_storage``: the storage's address and bytes, safetensors'
own definitions). ``regex`` is the standard library's ``re`` (transformers' docstring tools use no
pattern ``re`` lacks). ``tokenizers``' classes exist only to be imported (transformers 4.57 cannot import without
the package: a class annotation names ``tokenizers.Encoding``); no script tokenizes.

transformers checks its dependencies' versions at import (``dependency_versions_check``, through
``importlib.metadata``): ``DISTRIBUTIONS`` gives each missing one the version the release was tested with (tqdm and
requests are the runner's stubs). ``modules()`` maps each module name to a stand-in; the runner installs them, and
a metadata finder for ``DISTRIBUTIONS``, while a script whose folder holds transformers runs
(``runner._real_transformers``).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.metadata
import logging
import os
import re
import types

DISTRIBUTIONS = {"huggingface-hub": "0.36.0", "safetensors": "0.6.2", "regex": "2025.11.3", "tqdm": "4.67.1",
                 "requests": "2.32.5", "pyyaml": "6.0.3", "tokenizers": "0.22.1",
                 "httpx": "0.28.1",  # (diffusers')
                 "peft": "0.18.1"}  # fetched beside diffusers for its LoRA (recipes_peft; found only where it is)


class OfflineModeIsEnabled(ConnectionError):
    """What the stand-in raises for anything that would go to the Hub (as ``HF_HUB_OFFLINE=1`` does)."""


class HTTPError(OSError):
    """``requests.exceptions.HTTPError``."""


class HfHubHTTPError(HTTPError):
    def __init__(self, message="", response=None, *, server_message=None):
        super().__init__(message)
        self.response, self.server_message = response, server_message


class RepositoryNotFoundError(HfHubHTTPError):
    pass


class GatedRepoError(RepositoryNotFoundError):
    pass


class RevisionNotFoundError(HfHubHTTPError):
    pass


class EntryNotFoundError(HfHubHTTPError):
    pass


class LocalEntryNotFoundError(EntryNotFoundError, FileNotFoundError, ValueError):
    pass


class HFValidationError(ValueError):
    """A repository id the Hub refuses (peft asks for it when a local folder is not found)."""


class SafetensorError(Exception):
    """``safetensors.SafetensorError`` (peft and diffusers import it)."""


def _offline(*args, **kwargs):
    raise OfflineModeIsEnabled("the corpus has no Hub: models are built from configs")


class _Offline:
    """A Hub object (``HfApi``, ``ModelCard``...): constructing one is fine, using one raises."""

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _offline


def _named(name, base=_Offline):
    return type(name, (base,), {"__module__": "huggingface_hub"})


class ModelCardData(dict):
    """The Hub's model card metadata: its fields as keys and as attributes (an unset field is None)."""

    def __init__(self, **kwargs):
        super().__init__(kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return self.get(name)

    def __setattr__(self, name, value):
        self[name] = value


class ModelCard:
    """A README.md with YAML metadata, as peft's ``save_pretrained`` writes one beside the adapter (the Hub's
    template text is a line here; the metadata's values are written as Python shows them, one per line)."""

    def __init__(self, text="", data=None):
        self.text, self.data = text, data if data is not None else ModelCardData()

    @classmethod
    def from_template(cls, card_data, template_path=None, **kwargs):
        return cls("# Model Card\n", card_data)

    @classmethod
    def load(cls, path, **kwargs):
        with open(path, encoding="utf-8") as f:
            _, meta, text = f.read().split("---\n", 2)
        return cls(text, ModelCardData(**dict(line.split(": ", 1) for line in meta.splitlines())))

    def save(self, path):
        meta = "".join(f"{k}: {v}\n" for k, v in self.data.items() if v is not None)
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"---\n{meta}---\n{self.text}")


def storage_ptr(tensor):
    """safetensors.torch's: the address of the tensor's storage (0 for a storage without data)."""
    try:
        return tensor.untyped_storage().data_ptr()
    except Exception:
        return 0


def storage_size(tensor):
    """safetensors.torch's: the storage's size in bytes."""
    try:
        return tensor.untyped_storage().nbytes()
    except NotImplementedError:
        return tensor.nelement() * tensor.element_size()


_HOME = os.path.join(os.sep, "nonexistent", "huggingface")  # never created: nothing is downloaded or cached


class _Hub(types.ModuleType):
    """``huggingface_hub``: serialization's names come from its real package (``serialization``) when first asked."""

    def __getattr__(self, name):
        if name in _SERIALIZATION:
            return getattr(importlib.import_module("huggingface_hub.serialization"), name)
        raise AttributeError(name)


_SERIALIZATION = ("split_torch_state_dict_into_shards", "save_torch_state_dict", "save_torch_model",
                  "load_torch_model", "load_state_dict_from_file", "get_torch_storage_id", "get_torch_storage_size")


def modules(folder=None):
    """Each stand-in module by name (the Hub's real subpackages are found under ``folder``/huggingface_hub)."""
    made = {}

    def module(name, kind=types.ModuleType, **attrs):
        m = kind(name)
        m.__dict__.update(attrs)
        m.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
        m.__path__ = []
        made[name] = m
        return m

    constants = module("huggingface_hub.constants", HF_HOME=_HOME, HF_HUB_CACHE=os.path.join(_HOME, "hub"),
                       default_cache_path=os.path.join(_HOME, "hub"), HF_HUB_OFFLINE=True,
                       HF_HUB_DISABLE_TELEMETRY=True, ENDPOINT="", HUGGINGFACE_CO_RESOLVE_ENDPOINT="",
                       PYTORCH_WEIGHTS_NAME="pytorch_model.bin",
                       PYTORCH_WEIGHTS_FILE_PATTERN="pytorch_model{suffix}.bin",
                       SAFETENSORS_WEIGHTS_FILE_PATTERN="model{suffix}.safetensors",
                       TF2_WEIGHTS_FILE_PATTERN="tf_model{suffix}.h5")  # the Hub's names for weight files
    errors = dict(EntryNotFoundError=EntryNotFoundError, GatedRepoError=GatedRepoError, HfHubHTTPError=HfHubHTTPError,
                  LocalEntryNotFoundError=LocalEntryNotFoundError, OfflineModeIsEnabled=OfflineModeIsEnabled,
                  RepositoryNotFoundError=RepositoryNotFoundError, RevisionNotFoundError=RevisionNotFoundError,
                  HFValidationError=HFValidationError)
    module("huggingface_hub.errors", **errors)
    module("huggingface_hub.utils", **errors, are_progress_bars_disabled=lambda name=None: True,
           build_hf_headers=lambda *a, **k: {}, get_session=_offline, hf_raise_for_status=_offline,
           validate_hf_hub_args=lambda fn: fn, is_jinja_available=lambda: False)  # (diffusers')
    module("huggingface_hub.file_download", REGEX_COMMIT_HASH=re.compile(r"^[0-9a-f]{40}$"), http_get=_offline)
    logging_module = module("huggingface_hub.logging", get_logger=logging.getLogger)
    hub = module("huggingface_hub", _Hub, __version__=DISTRIBUTIONS["huggingface-hub"], constants=constants,
                 logging=logging_module,
                 _CACHED_NO_EXIST=object(), try_to_load_from_cache=lambda *a, **k: None,
                 **{n: _offline for n in ("create_branch", "create_commit", "create_repo", "get_full_repo_name",
                                          "hf_hub_download", "hf_hub_url", "list_repo_tree", "list_repo_files",
                                          "snapshot_download", "get_repo_discussions",
                                          "file_exists", "model_info",  # (peft's, accelerate's)
                                          "upload_folder", "read_dduf_file")},  # (diffusers')
                 ModelCard=ModelCard, ModelCardData=ModelCardData,  # (peft's save_pretrained writes one)
                 **{n: _named(n) for n in ("CommitOperationAdd", "HfApi",
                                           "Discussion", "HfFileSystem", "DDUFEntry")})
    for part in ("errors", "utils", "file_download"):
        setattr(hub, part, made[f"huggingface_hub.{part}"])
    hub.__path__ = [os.path.join(folder, "huggingface_hub")] if folder else []
    safetensors_torch = module("safetensors.torch", storage_ptr=storage_ptr, storage_size=storage_size,
                               load_file=_offline, save_file=_offline, load_model=_offline)
    module("safetensors", __version__=DISTRIBUTIONS["safetensors"], safe_open=_offline, torch=safetensors_torch,
           SafetensorError=SafetensorError)
    tokenizer_parts = {n: module(f"tokenizers.{n}") for n in ("models", "decoders", "normalizers", "pre_tokenizers",
                                                              "processors", "trainers")}
    for part, names in (("models", "BPE Unigram WordPiece WordLevel"), ("decoders", "Decoder"),
                        ("trainers", "BpeTrainer UnigramTrainer WordLevelTrainer WordPieceTrainer")):
        for n in names.split():
            setattr(tokenizer_parts[part], n, type(n, (), {"__module__": f"tokenizers.{part}"}))
    module("tokenizers", **tokenizer_parts, **{n: type(n, (), {"__module__": "tokenizers"})
                                               for n in ("AddedToken", "Regex", "Tokenizer", "Encoding")})
    module("requests.exceptions", HTTPError=HTTPError)
    module("httpx", __version__=DISTRIBUTIONS["httpx"],  # diffusers' pipelines catch its network errors
           NetworkError=type("NetworkError", (OSError,), {"__module__": "httpx"}))
    module("regex", **{n: getattr(re, n) for n in re.__all__}, __version__=DISTRIBUTIONS["regex"])
    return made


class _Distribution(importlib.metadata.Distribution):
    def __init__(self, name, version):
        self._text = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"

    def read_text(self, filename):
        return self._text if filename in ("METADATA", "PKG-INFO") else None

    def locate_file(self, path):
        return path


class MetadataFinder(importlib.abc.MetaPathFinder):
    """``importlib.metadata`` finds ``DISTRIBUTIONS`` through this (``find_distributions``); it finds no module."""

    def find_spec(self, fullname, path=None, target=None):
        return None

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        wanted = context.name
        for name, version in DISTRIBUTIONS.items():
            if wanted is None or re.sub(r"[-_.]+", "-", wanted).lower() == name:
                yield _Distribution(name, version)
