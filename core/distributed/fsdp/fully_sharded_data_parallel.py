"""``torch.distributed.fsdp.fully_sharded_data_parallel``: where accelerate imports ``FullyShardedDataParallel``
from (``unwrap_model``'s isinstance check) and the option enums."""

from core.distributed.fsdp import FullyShardedDataParallel
from core.distributed.fsdp.api import BackwardPrefetch, ShardingStrategy, StateDictType

__all__ = ["FullyShardedDataParallel", "ShardingStrategy", "StateDictType", "BackwardPrefetch"]
