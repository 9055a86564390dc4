"""Stand-ins for what Lightning's and accelerate's packages import and is not installed here (``recipes_lightning``).

The runner installs these (``modules()``) in both runs while a script whose folder holds ``lightning`` or
``accelerate`` runs, and takes them out afterwards:

- ``yaml``: Lightning imports PyYAML at module level (``core/saving.py``, ``callbacks/model_checkpoint.py``) and
  accelerate too; ``dump`` writes ``key: repr(value)`` lines and ``safe_load``/``full_load`` read them back with
  ``ast.literal_eval`` (the hparams files the corpus writes hold numbers, strings, lists and dicts of them), not YAML.
- ``tqdm``: Lightning's ``TQDMProgressBar`` subclasses ``tqdm.tqdm`` at import; the scripts turn the bar off
  (``enable_progress_bar=False``), so the class only needs to exist: ``fake_stand_ins.Bar``.
- ``psutil``: accelerate imports it for ``virtual_memory`` (memory checks) and ``cpu_count``; fixed numbers.
- ``huggingface_hub`` and ``safetensors``: accelerate imports them; ``fake_hf_hub``'s stand-ins (offline), unless a
  script's folder holds transformers, whose loader has put them in already.

A name already in ``sys.modules`` is left as it is (the runner calls this with its own stand-ins out of the way).
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import sys
import types

from fake_stand_ins import Bar
from fake_stand_ins import module as _module


def _dump(data, stream=None, **kwargs):
    items = data.items() if isinstance(data, dict) else [("value", data)]
    text = "".join(f"{key}: {value!r}\n" for key, value in items)
    if stream is None:
        return text
    stream.write(text)
    return None


def _load(stream, *args, **kwargs):
    text = stream.read() if hasattr(stream, "read") else stream
    pairs = (line.partition(": ") for line in text.splitlines() if line.strip())
    return {key: ast.literal_eval(value) for key, _, value in pairs}


def modules(accelerate: bool = False) -> dict:
    """The stand-in modules by name, those not in ``sys.modules`` yet (the Hub's for ``accelerate``)."""
    yaml = _module("yaml", dump=_dump, safe_dump=_dump, full_load=_load, safe_load=_load, load=_load,
                   YAMLError=type("YAMLError", (Exception,), {}), __version__="6.0.2")
    tqdm = _module("tqdm", tqdm=Bar, __version__="4.67.1")
    tqdm.auto = _module("tqdm.auto", tqdm=Bar)
    memory = types.SimpleNamespace(total=16 * 2**30, available=8 * 2**30, percent=50.0)
    psutil = _module("psutil", virtual_memory=lambda: memory, cpu_count=lambda logical=True: 2,
                     __version__="7.0.0")
    made = {"yaml": yaml, "tqdm": tqdm, "tqdm.auto": tqdm.auto, "psutil": psutil}
    if accelerate and "huggingface_hub" not in sys.modules:
        made.update((name, module) for name, module in importlib.import_module("fake_hf_hub").modules().items()
                    if name.partition(".")[0] in ("huggingface_hub", "safetensors"))  # (not its regex, tokenizers)
    return {name: module for name, module in made.items() if name not in sys.modules}
