"""``torch.nn.attention.flex_attention``: attention whose scores a ``score_mod`` rewrites and a ``BlockMask`` masks,
computed as PyTorch computes it without ``torch.compile`` (its eager "math" path).

``create_mask`` evaluates a ``mask_mod(b, h, q_idx, kv_idx)`` (or a ``score_mod``) over every position with
``vmap``, inside ``TransformGetItemToIndex`` as PyTorch does; ``create_block_mask`` turns that mask into blocks of
``BLOCK_SIZE`` (128) and keeps, per query block, how many key blocks are partly and fully unmasked and which
(``kv_num_blocks``/``kv_indices``, ``full_kv_*``; their transposes ``q_*``), as PyTorch's ``BlockMask``: its
``shape``, ``sparsity()``, ``to_dense()`` and repr are PyTorch's. ``flex_attention`` computes the scores in float32
(float64 for float64 inputs), applies ``score_mod`` and the block mask's ``mask_mod`` at every position, and a
softmax in which fully masked rows give zeros; ``enable_gqa`` repeats the key/value heads, ``return_lse`` also
returns the log-sum-exp of each row. Like PyTorch's on CPU it refuses inputs that require grad (no backward) and
``AuxRequest(max_scores=True)``;
no kernel options, no sliced BlockMasks, no compiled path.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import core

__all__ = ["AuxOutput", "AuxRequest", "BlockMask", "and_masks", "create_block_mask", "create_mask",
           "flex_attention", "noop_mask", "or_masks"]

_DEFAULT_SPARSE_BLOCK_SIZE = 128
_LARGE_SPARSE_BLOCK_SIZE = 1 << 30


def noop_mask(batch, head, token_q, token_kv):
    """A mask_mod that masks nothing."""
    return batch.new_ones(size=(), dtype=core.bool, device=batch.device)


def _identity(score, batch, head, token_q, token_kv):
    return score


def or_masks(*mask_mods):
    """A mask_mod keeping a position any of ``mask_mods`` keeps."""
    if not all(callable(arg) for arg in mask_mods):
        raise RuntimeError(f"All inputs should be callable mask_mods: {mask_mods}")

    def or_mask(b, h, q_idx, kv_idx):
        result = b.new_zeros((), dtype=core.bool)
        for mask in mask_mods:
            result = result | mask(b, h, q_idx, kv_idx)
        return result

    return or_mask


def and_masks(*mask_mods):
    """A mask_mod keeping a position every one of ``mask_mods`` keeps."""
    if not all(callable(arg) for arg in mask_mods):
        raise RuntimeError(f"All inputs should be callable mask_mods: {mask_mods}")

    def and_mask(b, h, q_idx, kv_idx):
        result = b.new_ones((), dtype=core.bool)
        for mask in mask_mods:
            result = result & mask(b, h, q_idx, kv_idx)
        return result

    return and_mask


def _vmap_for_bhqkv(fn, prefix: tuple, suffix: tuple = ()):
    """``fn`` vmapped over the key, query, head and batch indices (in that order, innermost first)."""
    for dims in [(None, None, None, 0), (None, None, 0, None), (None, 0, None, None), (0, None, None, None)]:
        fn = core.vmap(fn, in_dims=prefix + dims + suffix, out_dims=0)
    return fn


def _is_score_mod(fn) -> bool:
    import inspect

    params = [p for p in inspect.signature(fn).parameters.values() if p.default is inspect.Parameter.empty]
    return len(params) == 5


def create_mask(mod_fn, B, H, Q_LEN: int, KV_LEN: int, device=None):
    """The dense boolean mask (B, H, Q_LEN, KV_LEN) of a mask_mod (or where a score_mod leaves a score finite)."""
    from core._dynamo._trace_wrapped_higher_order_op import TransformGetItemToIndex

    device = "cpu" if device is None else device
    B, H = 1 if B is None else B, 1 if H is None else H
    b, h = core.arange(0, B, device=device), core.arange(0, H, device=device)
    m, n = core.arange(0, Q_LEN, device=device), core.arange(0, KV_LEN, device=device)
    with TransformGetItemToIndex():
        if _is_score_mod(mod_fn):
            out = _vmap_for_bhqkv(mod_fn, prefix=(0,))(core.zeros(B, H, Q_LEN, KV_LEN, device=device), b, h, m, n)
            return core.where(core.isneginf(out), False, True)
        return _vmap_for_bhqkv(mod_fn, prefix=())(b, h, m, n)


def _dense_to_ordered(dense_mask):
    dense_mask = dense_mask.to(dtype=core.int32)
    num_blocks_in_row = dense_mask.sum(dim=-1)
    col_indices = core.argsort(dense_mask, dim=-1, descending=True, stable=True)
    return num_blocks_in_row.to(core.int32), col_indices.to(core.int32)


def _ordered_to_dense(num_blocks_in_row, col_indices, num_cols: int):
    """The dense (..., rows, num_cols) int32 block mask that ``num_blocks_in_row`` and ``col_indices`` list."""
    max_entries = col_indices.shape[-1]
    taken = core.arange(max_entries, dtype=core.int32) < num_blocks_in_row.unsqueeze(-1)
    cols = core.where(taken, col_indices, num_cols).long()
    dense = core.zeros(*col_indices.shape[:-1], num_cols + 1, dtype=core.int32)
    dense.scatter_(-1, cols, 1)
    return dense[..., :num_cols].contiguous()


def _transpose_ordered(num_blocks_in_row, col_indices):
    dense = _ordered_to_dense(num_blocks_in_row, col_indices, col_indices.shape[-1])
    return _dense_to_ordered(dense.transpose(-2, -1))


class BlockMask:
    """Which key blocks each query block attends to, partly (``kv_num_blocks``, ``kv_indices``: the first
    ``kv_num_blocks[..., i]`` entries of row ``i``) or fully (``full_kv_*``), with the ``mask_mod`` that decides within
    a partial block; ``q_*`` are the same per key block."""

    def __init__(self, seq_lengths, kv_num_blocks, kv_indices, full_kv_num_blocks, full_kv_indices, q_num_blocks,
                 q_indices, full_q_num_blocks, full_q_indices, BLOCK_SIZE, mask_mod):
        if kv_indices.dim() < 2:
            raise RuntimeError("BlockMask must have at least 2 dimensions")
        self.seq_lengths = tuple(seq_lengths)
        self.kv_num_blocks, self.kv_indices = kv_num_blocks, kv_indices
        self.full_kv_num_blocks, self.full_kv_indices = full_kv_num_blocks, full_kv_indices
        self.q_num_blocks, self.q_indices = q_num_blocks, q_indices
        self.full_q_num_blocks, self.full_q_indices = full_q_num_blocks, full_q_indices
        self.BLOCK_SIZE = BLOCK_SIZE
        self.mask_mod = mask_mod

    @classmethod
    def from_kv_blocks(cls, kv_num_blocks, kv_indices, full_kv_num_blocks=None, full_kv_indices=None,
                       BLOCK_SIZE=_DEFAULT_SPARSE_BLOCK_SIZE, mask_mod=None, seq_lengths=None,
                       compute_q_blocks: bool = True):
        if kv_indices.dim() < 2:
            raise RuntimeError("BlockMask must have at least 2 dimensions")
        if (full_kv_num_blocks is None) != (full_kv_indices is None):
            raise AssertionError("full_kv_num_blocks and full_kv_indices must be both provided or omitted")
        q_num_blocks = q_indices = full_q_num_blocks = full_q_indices = None
        if compute_q_blocks:
            q_num_blocks, q_indices = _transpose_ordered(kv_num_blocks, kv_indices)
            if full_kv_num_blocks is not None:
                full_q_num_blocks, full_q_indices = _transpose_ordered(full_kv_num_blocks, full_kv_indices)
        if isinstance(BLOCK_SIZE, int):
            BLOCK_SIZE = (BLOCK_SIZE, BLOCK_SIZE)
        if seq_lengths is None:
            seq_lengths = (kv_indices.shape[-2] * BLOCK_SIZE[0], kv_indices.shape[-1] * BLOCK_SIZE[1])
        return cls(seq_lengths, kv_num_blocks, kv_indices, full_kv_num_blocks, full_kv_indices, q_num_blocks,
                   q_indices, full_q_num_blocks, full_q_indices, BLOCK_SIZE,
                   mask_mod if mask_mod is not None else noop_mask)

    @property
    def shape(self) -> tuple:
        *batch_dims, _, _ = self.kv_indices.shape
        return tuple(batch_dims) + self.seq_lengths

    def numel(self) -> int:
        return math.prod(self.shape)

    def sparsity(self) -> float:
        """The percentage of the (B, H, Q, KV) positions in no computed block."""
        computed = self.kv_num_blocks.sum()
        if self.full_kv_num_blocks is not None:
            computed = computed + self.full_kv_num_blocks.sum()
        computed_size = computed.item() * self.BLOCK_SIZE[0] * self.BLOCK_SIZE[1]
        return 100 * (1 - computed_size / self.numel())

    def to_dense(self):
        """The block-level dense mask (B, H, Q blocks, KV blocks), int32: 1 where a block is computed."""
        dense = _ordered_to_dense(self.kv_num_blocks, self.kv_indices, self.kv_indices.shape[-1])
        if self.full_kv_num_blocks is not None:
            dense = dense | _ordered_to_dense(self.full_kv_num_blocks, self.full_kv_indices,
                                              self.full_kv_indices.shape[-1])
        return dense

    def as_tuple(self, flatten: bool = True) -> tuple:
        block_size = (self.BLOCK_SIZE[0], self.BLOCK_SIZE[1]) if flatten else (self.BLOCK_SIZE,)
        return (*self.seq_lengths, self.kv_num_blocks, self.kv_indices, self.full_kv_num_blocks,
                self.full_kv_indices, self.q_num_blocks, self.q_indices, self.full_q_num_blocks,
                self.full_q_indices, *block_size, self.mask_mod)

    def __repr__(self) -> str:
        def shape_or_none(x):
            return x.shape if x is not None else None

        name = self.mask_mod.__name__ if hasattr(self.mask_mod, "__name__") else self.mask_mod
        return (f"BlockMask(\n    kv_num_blocks={self.kv_num_blocks.shape},\n    kv_indices={self.kv_indices.shape},\n"
                f"    full_kv_num_blocks={shape_or_none(self.full_kv_num_blocks)},\n"
                f"    full_kv_indices={shape_or_none(self.full_kv_indices)},\n"
                f"    q_num_blocks={shape_or_none(self.q_num_blocks)},\n"
                f"    q_indices={shape_or_none(self.q_indices)},\n"
                f"    full_q_num_blocks={shape_or_none(self.full_q_num_blocks)},\n"
                f"    full_q_indices={shape_or_none(self.full_q_indices)},\n    BLOCK_SIZE={self.BLOCK_SIZE},\n"
                f"    shape={self.shape},\n    sparsity={self.sparsity():.2f}%,\n    mask_mod={name}\n)")


def _convert_mask_to_block_mask(mask, q_block: int, kv_block: int, separate_full_blocks: bool):
    while mask.dim() < 4:
        mask = mask.unsqueeze(0)
    pad_kv = -mask.shape[-1] % kv_block
    pad_q = -mask.shape[-2] % q_block
    mask = core.nn.functional.pad(mask, (0, pad_kv, 0, pad_q))
    B, H, Q, KV = mask.shape
    blocks = mask.view(B, H, Q // q_block, q_block, KV // kv_block, kv_block).permute(0, 1, 2, 4, 3, 5)
    block_sum = blocks.sum(dim=[-2, -1])
    if separate_full_blocks:
        full = q_block * kv_block
        return ((block_sum > 0) & (block_sum < full)).to(core.int8), (block_sum == full).to(core.int8)
    return (block_sum > 0).to(core.int8), None


def create_block_mask(mask_mod, B, H, Q_LEN: int, KV_LEN: int, device=None,
                      BLOCK_SIZE=_DEFAULT_SPARSE_BLOCK_SIZE, _compile=False, separate_full_blocks: bool = True):
    """The BlockMask of ``mask_mod`` over (B, H, Q_LEN, KV_LEN) (``None`` for B or H: 1, broadcast)."""
    if _is_score_mod(mask_mod):
        raise AssertionError(f"create-block_mask requires a mask_mod function! Got {mask_mod}")
    B, H = 1 if B is None else B, 1 if H is None else H
    q_block, kv_block = (BLOCK_SIZE, BLOCK_SIZE) if isinstance(BLOCK_SIZE, int) else BLOCK_SIZE
    mask = create_mask(mask_mod, B, H, Q_LEN, KV_LEN, device)
    partial, full = _convert_mask_to_block_mask(mask, q_block, kv_block, separate_full_blocks)
    partial_bm = _dense_to_ordered(partial)
    full_bm = _dense_to_ordered(full) if full is not None else (None, None)
    return BlockMask.from_kv_blocks(partial_bm[0], partial_bm[1], full_bm[0], full_bm[1],
                                    BLOCK_SIZE=(q_block, kv_block), mask_mod=mask_mod, seq_lengths=(Q_LEN, KV_LEN))


class AuxRequest(NamedTuple):
    """Which of flex_attention's statistics to return besides the output."""

    lse: bool = False
    max_scores: bool = False


class AuxOutput(NamedTuple):
    lse: object = None
    max_scores: object = None


def flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None, enable_gqa=False,
                   return_lse=False, kernel_options=None, *, return_aux=None):
    """Attention of (B, Hq, L, E) queries over (B, Hkv, S, E) keys and (B, Hkv, S, Ev) values with ``score_mod``
    applied to each scaled score and ``block_mask``'s ``mask_mod`` deciding which positions attend."""
    from core._dynamo._trace_wrapped_higher_order_op import TransformGetItemToIndex

    if query.requires_grad or key.requires_grad or value.requires_grad:  # PyTorch's CPU refusal
        raise NotImplementedError("FlexAttention does not support backward on CPU. Please set the input "
                                  "requires_grad to False or use another device.")
    if query.dim() != 4 or key.dim() != 4 or value.dim() != 4:
        raise NotImplementedError("NYI: query, key, and value must be 4D tensors")
    if not enable_gqa and query.size(-3) != key.size(-3):
        raise ValueError(f"Expect query and key/value to have the same number of heads but got Hq={query.size(-3)} "
                         f"and Hkv={key.size(-3)}. Try setting enable_gqa=True for GQA.")
    if enable_gqa and query.size(1) % key.size(1) != 0:
        raise ValueError(f"Expect number of query heads to be a multiple of kv heads for GQA but got "
                         f"Hq={query.size(1)} and Hkv={key.size(1)}.")
    if return_lse and return_aux is not None:
        raise ValueError("Cannot specify both return_lse and return_aux. return_lse is deprecated, please use "
                         "return_aux=AuxRequest(lse=True) instead.")
    if return_aux is not None and return_aux.max_scores:
        raise NotImplementedError("Returning max scores is not supported on CPU/MPS.")
    score_mod = _identity if score_mod is None else score_mod
    mask_mod = noop_mask if block_mask is None else block_mask.mask_mod
    if block_mask is not None and block_mask.BLOCK_SIZE[0] != _LARGE_SPARSE_BLOCK_SIZE:
        q_len, kv_len = block_mask.shape[-2], block_mask.shape[-1]
        if query.size(-2) != q_len or key.size(-2) != kv_len:
            raise ValueError(f"block_mask was created for block_mask.shape={block_mask.shape} but got "
                             f"q_len={query.size(-2)} and kv_len={key.size(-2)}.")
    if scale is None:
        scale = 1.0 / math.sqrt(query.size(-1))
    group = query.size(1) // key.size(1)
    key, value = core.repeat_interleave(key, group, dim=1), core.repeat_interleave(value, group, dim=1)
    key = key.expand((query.size(0), *key.size()[1:]))
    value = value.expand((query.size(0), *value.size()[1:]))
    working = core.float64 if query.dtype == core.float64 else core.float32
    scores = query.to(working) @ key.to(working).transpose(-2, -1)
    b, h = core.arange(0, scores.size(0)), core.arange(0, scores.size(1))
    m, n = core.arange(0, scores.size(2)), core.arange(0, scores.size(3))
    with TransformGetItemToIndex():
        scores = (scores * scale).to(working)
        post = core.where(_vmap_for_bhqkv(mask_mod, prefix=())(b, h, m, n),
                          _vmap_for_bhqkv(score_mod, prefix=(0,))(scores, b, h, m, n),
                          core.tensor(-float("inf"), dtype=working))
    masked_rows = core.all(post == -float("inf"), dim=-1)
    lse = core.where(masked_rows, -float("inf"), post.logsumexp(dim=-1))
    weights = core.where(masked_rows.unsqueeze(-1), 0.0, core.softmax(post, dim=-1))
    out = weights.to(query.dtype) @ value.to(query.dtype)
    if return_aux is not None:
        return out, AuxOutput(lse=lse if return_aux.lse else None, max_scores=None)
    if return_lse:
        return out, lse
    return out
