"""``DistributedSampler``: each replica's share of a dataset's indices, as PyTorch's.

With ``shuffle`` the order is ``randperm`` from a generator seeded with ``seed + epoch`` (``set_epoch`` changes
it each epoch); the list is padded by repeating its start (or cut, with ``drop_last``) to a multiple of
``num_replicas``, and replica ``rank`` takes every ``num_replicas``-th index from ``rank`` on. Without
``num_replicas``/``rank`` it asks the default process group (``core.distributed``: one replica, rank 0).
"""

from __future__ import annotations

import math
from typing import TypeVar

import core
from core.utils.data.sampler import Sampler

__all__ = ["DistributedSampler"]

_T_co = TypeVar("_T_co", covariant=True)


class DistributedSampler(Sampler[_T_co]):
    """The indices replica ``rank`` of ``num_replicas`` trains on."""

    def __init__(self, dataset, num_replicas=None, rank=None, shuffle: bool = True, seed: int = 0,
                 drop_last: bool = False) -> None:
        if num_replicas is None:
            num_replicas = core.distributed.get_world_size()
        if rank is None:
            rank = core.distributed.get_rank()
        if rank >= num_replicas or rank < 0:
            raise ValueError(f"Invalid rank {rank}, rank should be in the interval [0, {num_replicas - 1}]")
        self.dataset, self.num_replicas, self.rank = dataset, num_replicas, rank
        self.epoch, self.drop_last, self.shuffle, self.seed = 0, drop_last, shuffle, seed
        n = len(dataset)
        if drop_last and n % num_replicas != 0:
            self.num_samples = math.ceil((n - num_replicas) / num_replicas)
        else:
            self.num_samples = math.ceil(n / num_replicas)
        self.total_size = self.num_samples * num_replicas

    def __iter__(self):
        n = len(self.dataset)
        if self.shuffle:
            g = core.Generator()
            g.manual_seed(self.seed + self.epoch)
            indices = core.randperm(n, generator=g).tolist()
        else:
            indices = list(range(n))
        if not self.drop_last:
            padding = self.total_size - len(indices)
            if padding <= len(indices):
                indices += indices[:padding]
            else:
                indices += (indices * math.ceil(padding / len(indices)))[:padding]
        else:
            indices = indices[:self.total_size]
        return iter(indices[self.rank:self.total_size:self.num_replicas])

    def __len__(self) -> int:
        return self.num_samples

    def set_epoch(self, epoch: int) -> None:
        """A new shuffle each epoch: the order depends on ``seed + epoch``."""
        self.epoch = epoch
