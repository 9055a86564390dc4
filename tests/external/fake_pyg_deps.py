"""Stand-ins for what PyTorch Geometric's package imports and is not installed here (``recipes_pyg``).

The runner installs these (``modules()``) in both runs while a script whose folder holds ``torch_geometric`` runs,
and takes them out afterwards. jinja2, markupsafe and fsspec (``MessagePassing``'s generated ``propagate``, the
dataset I/O) are installed with torch and load as they are.

- ``xxhash``: ``hash_tensor.py`` imports it at module level and hashes string keys with ``xxh64(...).intdigest()``;
  here a 64-bit BLAKE2 digest, the same in both runs (not xxHash's numbers).
- ``tqdm``: imported at module level by ``BasicGNN`` (``inference``), ``data.summary`` and the datasets;
  ``fake_stand_ins.Bar``, which iterates what it wraps and draws nothing (``trange`` over a ``range``).
- ``psutil``: ``loader/mixin.py`` imports it for CPU affinity, which the scripts do not set.
- ``requests``: ``datasets/molecule_gpt_dataset.py`` imports it at module level; nothing calls it (no downloads).

A name already in ``sys.modules`` is left as it is (the runner calls this with its own stand-ins out of the way).
"""

from __future__ import annotations

import hashlib
import sys

from fake_stand_ins import Bar
from fake_stand_ins import module as _module


class _Xxh64:
    """``xxhash.xxh64(data)``: a stable 64-bit digest of ``data`` (BLAKE2b's, not xxHash's)."""

    def __init__(self, data=b""):
        self._data = data.encode() if isinstance(data, str) else bytes(data)

    def intdigest(self) -> int:
        return int.from_bytes(hashlib.blake2b(self._data, digest_size=8).digest(), "little")


def modules() -> dict:
    """The stand-in modules by name, those not in ``sys.modules`` yet."""
    tqdm = _module("tqdm", tqdm=Bar, trange=Bar.trange, __version__="4.67.1")
    tqdm.auto = _module("tqdm.auto", tqdm=Bar, trange=Bar.trange)
    psutil = _module("psutil", cpu_count=lambda logical=True: 2, __version__="7.0.0")
    made = {"xxhash": _module("xxhash", xxh64=_Xxh64), "tqdm": tqdm, "tqdm.auto": tqdm.auto, "psutil": psutil,
            "requests": _module("requests")}
    return {name: module for name, module in made.items() if name not in sys.modules}
