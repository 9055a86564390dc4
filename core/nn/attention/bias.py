"""``torch.nn.attention.bias``: causal masks as tensors, ``causal_upper_left`` and ``causal_lower_right``.

A ``CausalBias`` prints as the boolean mask it stands for (``_materialize``) and, passed as
``scaled_dot_product_attention``'s ``attn_mask``, selects causal attention aligned to the upper left corner
(the same as ``is_causal=True``) or to the lower right one (the last query sees every key), as PyTorch's does.
Like PyTorch's, the tensor itself is what the legacy ``Tensor(variant, seq_len_q, seq_len_kv)`` constructor
makes: a float tensor of that size that nothing reads.
"""

from __future__ import annotations

from enum import IntEnum, auto

import core
from core._tensor import Tensor

__all__ = ["CausalVariant", "CausalBias", "causal_upper_left", "causal_lower_right"]


class CausalVariant(IntEnum):
    """Where the causal mask's diagonal starts: the upper left corner or the lower right one."""

    UPPER_LEFT = auto()
    LOWER_RIGHT = auto()


class CausalBias(Tensor):
    """A causal attention mask of ``seq_len_q`` queries by ``seq_len_kv`` keys, kept as its variant and sizes."""

    def __init__(self, variant: CausalVariant, seq_len_q: int, seq_len_kv: int):
        assert isinstance(variant, CausalVariant)
        super().__init__(int(variant), seq_len_q, seq_len_kv)
        self.variant, self.seq_len_q, self.seq_len_kv = variant, seq_len_q, seq_len_kv

    def _upper_left(self, device):
        return core.tril(core.ones(self.seq_len_q, self.seq_len_kv, device=device, dtype=core.bool))

    def _lower_right(self, device):
        ones = core.ones(self.seq_len_q, self.seq_len_kv, device=device, dtype=core.bool)
        return core.tril(ones, diagonal=self.seq_len_kv - self.seq_len_q)

    def _materialize(self, device=None):
        """The boolean mask (True: the query may attend to the key)."""
        device = core.device("cpu") if device is None else device
        return self._upper_left(device) if self.variant == CausalVariant.UPPER_LEFT else self._lower_right(device)

    def __repr__(self) -> str:
        return repr(self._materialize())

    __str__ = __repr__


def _sizes(name: str, size) -> tuple:
    assert len(size) == 2, f"{name} only supports 2D tensors"
    return size


def causal_upper_left(*size) -> CausalBias:
    """``(seq_len_q, seq_len_kv)``: query i attends to keys 0..i (``is_causal=True``'s mask)."""
    seq_len_q, seq_len_kv = _sizes("causal_upper_left", size)
    return CausalBias(CausalVariant.UPPER_LEFT, seq_len_q, seq_len_kv)


def causal_lower_right(*size) -> CausalBias:
    """``(seq_len_q, seq_len_kv)``: the last query attends to every key, earlier ones to one key fewer each."""
    seq_len_q, seq_len_kv = _sizes("causal_lower_right", size)
    return CausalBias(CausalVariant.LOWER_RIGHT, seq_len_q, seq_len_kv)


def causal_mask_arguments(attn_mask, is_causal: bool) -> tuple:
    """``(attn_mask, is_causal)`` for scaled_dot_product_attention when ``attn_mask`` is a ``CausalBias``."""
    if is_causal:
        raise ValueError("CausalBias should not be used with causal=True")
    if attn_mask.variant == CausalVariant.UPPER_LEFT:
        return None, True
    return attn_mask._lower_right(attn_mask.device), False
