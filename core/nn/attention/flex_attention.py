"""``torch.nn.attention.flex_attention``'s names, for the libraries that import them at module level.

Hugging Face transformers imports ``BlockMask``, ``create_block_mask`` and ``_DEFAULT_SPARSE_BLOCK_SIZE`` whenever
torch is 2.5 or newer, and uses them only for ``attn_implementation="flex_attention"``. core has no flex attention
yet: the block size is PyTorch's, ``BlockMask`` is a class no value is an instance of, and ``create_block_mask`` and
``flex_attention`` raise ``NotImplementedError`` (``scaled_dot_product_attention`` with a dense mask computes the
same attention).
"""

from __future__ import annotations

__all__ = ["BlockMask", "create_block_mask", "flex_attention"]

_DEFAULT_SPARSE_BLOCK_SIZE = 128


class BlockMask:
    """PyTorch's block-sparse mask for flex attention; core cannot build one (``create_block_mask`` refuses)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError("core has no flex attention: BlockMask cannot be built")


def create_block_mask(mask_mod, B, H, Q_LEN, KV_LEN, device="cuda", BLOCK_SIZE=_DEFAULT_SPARSE_BLOCK_SIZE,
                      _compile=False):
    raise NotImplementedError("core has no flex attention: use scaled_dot_product_attention with a dense mask")


def flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None, enable_gqa=False,
                   return_lse=False, kernel_options=None, *, return_aux=None):
    raise NotImplementedError("core has no flex attention: use scaled_dot_product_attention with a dense mask")
