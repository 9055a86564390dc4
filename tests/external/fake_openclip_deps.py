"""Stand-ins for what open_clip 3.3.0 imports and is not installed here (``recipes_openclip.py``): ``ftfy``, ``regex``,
``huggingface_hub`` and ``safetensors`` (``fake_hf_hub``'s) and ``tqdm`` (``fake_lightning_deps``' bar).

``import open_clip`` builds its default ``SimpleTokenizer`` at import (``tokenizer._tokenizer``), so both of the
tokenizer's dependencies are needed before anything runs. ``ftfy.fix_text`` repairs mojibake and normalises text; the
stand-in does its normalisation only (NFC), which is all it changes in the plain texts the scripts tokenize.
``regex`` is the standard library's ``re`` with one addition: the tokenizer's pattern uses the Unicode properties
``\\p{L}`` (a letter) and ``\\p{N}`` (a number), which ``re`` lacks, in three character classes; ``compile`` and the
functions that take a pattern rewrite exactly those classes into ``re``'s spelling (``[^\\W\\d_]`` a letter, ``\\d``
a digit, ``(?:[^\\s\\w]|_)`` neither nor a space) and refuse any other ``\\p{...}``. For letters and decimal digits
both spellings match the same characters; other numerals (``²``, ``½``) differ, and no script tokenizes one. Both
runs use the same stand-ins, so the tokens the library's own BPE code makes are compared.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import re
import sys
import types
import unicodedata

_CLASSES = {r"[\p{L}]": r"[^\W\d_]", r"[\p{N}]": r"\d", r"[^\s\p{L}\p{N}]": r"(?:[^\s\w]|_)"}


def _translate(pattern):
    if isinstance(pattern, re.Pattern) or not isinstance(pattern, str):
        return pattern
    for prop, spelled in _CLASSES.items():
        pattern = pattern.replace(prop, spelled)
    if r"\p{" in pattern or r"\P{" in pattern:
        raise NotImplementedError(f"the regex stand-in knows only the tokenizer's Unicode classes: {pattern!r}")
    return pattern


def _regex() -> types.ModuleType:
    module = types.ModuleType("regex")
    module.__dict__.update({n: getattr(re, n) for n in re.__all__})
    for name in ("compile", "search", "match", "fullmatch", "findall", "finditer", "split", "sub", "subn"):
        function = getattr(re, name)
        setattr(module, name, lambda pattern, *args, _f=function, **kw: _f(_translate(pattern), *args, **kw))
    module.__version__ = "2025.11.3"
    module.__spec__ = importlib.machinery.ModuleSpec("regex", None)  # transformers asks find_spec which exist
    return module


def _ftfy() -> types.ModuleType:
    module = types.ModuleType("ftfy")
    module.fix_text = lambda text, *args, **kwargs: unicodedata.normalize("NFC", text)
    module.__version__ = "6.3.1"
    module.__spec__ = importlib.machinery.ModuleSpec("ftfy", None)
    return module


def modules() -> dict:
    """The stand-in modules by name: ftfy, regex, the Hub and safetensors (``fake_hf_hub``'s) and tqdm."""
    made = {name: module for name, module in importlib.import_module("fake_hf_hub").modules().items()
            if name.partition(".")[0] in ("huggingface_hub", "safetensors")}
    deps = importlib.import_module("fake_lightning_deps").modules()
    made.update({name: deps[name] for name in ("tqdm", "tqdm.auto") if name in deps})
    made["ftfy"], made["regex"] = _ftfy(), _regex()
    return {name: module for name, module in made.items() if name not in sys.modules or name == "regex"}
