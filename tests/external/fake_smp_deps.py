"""Stand-ins for what segmentation_models.pytorch 0.5.0 imports and is not installed here (``recipes_smp.py``):
``huggingface_hub`` (``fake_hf_hub``'s, with a ``PyTorchModelHubMixin``), ``safetensors`` (``fake_hf_hub``'s) and
``tqdm`` (``fake_lightning_deps``' bar; smp's Oxford-Pet dataset and its old ``utils.train`` epochs import it).

smp's models inherit the Hub's ``PyTorchModelHubMixin`` for ``save_pretrained``/``from_pretrained`` and read the
constructor's arguments back from it (``model.config``). The mixin here keeps the Hub's contract: each instance's
``_hub_mixin_config`` is its constructor's defaults updated with the arguments passed (the JSON-able ones),
``save_pretrained`` writes ``config.json`` (sorted, indented), the weights and a model card, ``from_pretrained``
builds the class from the config (arguments passed override it), loads the weights and puts the model in eval
mode. The weights are a ``torch.save`` of the state dict (``pytorch_model.bin``, the Hub's older format; no
safetensors here): both runs use the same stand-in, so what is compared is the libraries' tensors.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
import types


class PyTorchModelHubMixin:
    """The Hub's mixin, its local-folder half (nothing is pushed or downloaded)."""

    _hub_mixin_config: dict

    def __init_subclass__(cls, *args, tags=None, library_name=None, **kwargs):
        super().__init_subclass__(**kwargs)
        card = importlib.import_module("fake_hf_hub").ModelCardData(tags=list(tags or []), library_name=library_name)
        cls._hub_mixin_info = types.SimpleNamespace(model_card_data=card)
        cls._hub_mixin_init_parameters = dict(inspect.signature(cls.__init__).parameters)

    def __new__(cls, *args, **kwargs):
        instance = super().__new__(cls)
        params = cls._hub_mixin_init_parameters
        config = {k: p.default for k, p in params.items() if p.default is not inspect.Parameter.empty}
        names = [k for k, p in params.items() if k != "self" and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        config.update(zip(names, args))
        config.update(kwargs)
        instance._hub_mixin_config = {k: v for k, v in config.items() if _jsonable(v)}
        return instance

    def save_pretrained(self, save_directory, *, config=None, repo_id=None, push_to_hub=False,
                        model_card_kwargs=None, **push_to_hub_kwargs):
        import torch

        os.makedirs(save_directory, exist_ok=True)
        config = dict(self._hub_mixin_config if config is None else config)
        with open(os.path.join(save_directory, "config.json"), "w") as f:
            f.write(json.dumps(config, sort_keys=True, indent=2))
        torch.save(self.state_dict(), os.path.join(save_directory, "pytorch_model.bin"))
        if not os.path.exists(os.path.join(save_directory, "README.md")):
            self.generate_model_card(**(model_card_kwargs or {})).save(os.path.join(save_directory, "README.md"))
        return None

    def generate_model_card(self, *args, **kwargs):
        return importlib.import_module("fake_hf_hub").ModelCard.from_template(self._hub_mixin_info.model_card_data)

    @classmethod
    def from_pretrained(cls, pretrained_model_name_or_path, *, force_download=False, resume_download=None,
                        proxies=None, token=None, cache_dir=None, local_files_only=False, revision=None,
                        map_location="cpu", strict=False, **model_kwargs):
        import torch

        folder = str(pretrained_model_name_or_path)
        if not os.path.isdir(folder):
            raise importlib.import_module("fake_hf_hub").OfflineModeIsEnabled(folder)
        with open(os.path.join(folder, "config.json")) as f:
            config = json.load(f)
        params = cls._hub_mixin_init_parameters
        takes_kwargs = any(p.kind is p.VAR_KEYWORD for p in params.values())
        for key, value in config.items():
            if key not in model_kwargs and (key in params or takes_kwargs):
                model_kwargs[key] = value
        model = cls(**model_kwargs)
        state = torch.load(os.path.join(folder, "pytorch_model.bin"), map_location=map_location, weights_only=True)
        model.load_state_dict(state, strict=strict)
        model.eval()
        return model


def _jsonable(value) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def modules() -> dict:
    """The stand-in modules by name: the Hub and safetensors (``fake_hf_hub``'s), with the mixin, and tqdm."""
    made = {name: module for name, module in importlib.import_module("fake_hf_hub").modules().items()
            if name.partition(".")[0] in ("huggingface_hub", "safetensors")}
    made["huggingface_hub"].PyTorchModelHubMixin = PyTorchModelHubMixin
    deps = importlib.import_module("fake_lightning_deps").modules()
    made.update({name: deps[name] for name in ("tqdm", "tqdm.auto") if name in deps})
    return {name: module for name, module in made.items() if name not in sys.modules}
