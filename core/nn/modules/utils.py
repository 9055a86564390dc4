"""``torch.nn.modules.utils``: the argument helpers libraries import from it (``_pair``, ``_ntuple``...) and
``consume_prefix_in_state_dict_if_present``, with PyTorch's behaviour."""

from __future__ import annotations

import collections.abc
from typing import Any

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n: int, name: str = "parse"):
    """A parser that keeps an iterable as a tuple and repeats anything else ``n`` times."""

    def parse(x):
        return tuple(x) if isinstance(x, collections.abc.Iterable) else (x,) * n

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n: int) -> tuple:
    """``t`` reversed with each element ``n`` times (a conv's padding as ``F.pad`` takes it)."""
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size, defaults):
    """An adaptive pool's output size with its ``None`` entries taken from the input's trailing sizes."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [d if v is None else v for v, d in zip(out_size, defaults[-len(out_size):])]


def consume_prefix_in_state_dict_if_present(state_dict: dict[str, Any], prefix: str) -> None:
    """Strip ``prefix`` from the state dict's keys in place (a DataParallel/DDP model's ``module.``), and from its
    ``_metadata`` keys (the empty key stays; ``module`` itself becomes the empty key)."""
    for key in list(state_dict.keys()):
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is None:
        return
    for key in list(metadata.keys()):
        if key and (key == prefix.replace(".", "") or key.startswith(prefix)):
            metadata[key[len(prefix):]] = metadata.pop(key)
