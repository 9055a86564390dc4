"""``torch.distributed.fsdp.api``: FSDP's option enums, which libraries name in configs and checks (accelerate's
``FullyShardedDataParallelPlugin``), with torch's members and values."""

from __future__ import annotations

from enum import Enum, auto

__all__ = ["ShardingStrategy", "StateDictType", "BackwardPrefetch"]


class ShardingStrategy(Enum):
    FULL_SHARD = auto()
    SHARD_GRAD_OP = auto()
    NO_SHARD = auto()
    HYBRID_SHARD = auto()
    _HYBRID_SHARD_ZERO2 = auto()


class StateDictType(Enum):
    FULL_STATE_DICT = auto()
    LOCAL_STATE_DICT = auto()
    SHARDED_STATE_DICT = auto()


class BackwardPrefetch(Enum):
    BACKWARD_PRE = auto()
    BACKWARD_POST = auto()
