"""``torch.distributed.fsdp``: the ``FullyShardedDataParallel`` class, for the ``isinstance`` checks libraries make.

Hugging Face transformers asks ``isinstance(model, FullyShardedDataParallel)`` before generating or saving. core
runs one process and does not shard: wrapping a module (PyTorch flattens its parameters into ``FlatParameter``s)
raises ``NotImplementedError``, so no module is ever an instance and the checks answer False, as for an unwrapped
model in PyTorch.
"""

from __future__ import annotations

from core import nn
from core.distributed.fsdp.api import BackwardPrefetch, ShardingStrategy, StateDictType

__all__ = ["FullyShardedDataParallel", "ShardingStrategy", "StateDictType", "BackwardPrefetch"]


class FullyShardedDataParallel(nn.Module):
    """PyTorch's FSDP wrapper; not implemented in core (one process, nothing to shard)."""

    def __init__(self, module, *args, **kwargs):
        raise NotImplementedError("core has no FullyShardedDataParallel: it runs one process and shards nothing "
                                  "(use the module itself)")
