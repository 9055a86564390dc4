"""``torch.distributed._functional_collectives`` for one process: out-of-place collectives that return a new tensor
(PyTorch's return an ``AsyncCollectiveTensor`` to wait on). Over a world of one every reduction, gather, scatter
and broadcast gives the input's values, so each returns a copy; ``wait_tensor`` returns its tensor. gpt-fast's
``tp.py`` imports the module on every platform but macOS and calls ``all_reduce`` only under tensor parallelism."""

from __future__ import annotations

import core

__all__ = ["all_reduce", "all_reduce_coalesced", "all_gather_tensor", "reduce_scatter_tensor", "broadcast",
           "all_to_all_single", "wait_tensor"]


def _one_rank(self, group):
    if isinstance(group, core.distributed.ProcessGroup):
        core.distributed.get_world_size(group)  # PyTorch's errors for a group that is not there
    return self.clone()


def all_reduce(self, reduceOp: str, group, tag: str = ""):
    return _one_rank(self, group)


def all_reduce_coalesced(self, reduceOp: str, group, tag: str = ""):
    return [_one_rank(t, group) for t in self]


def all_gather_tensor(self, gather_dim: int, group, tag: str = ""):
    return _one_rank(self, group)


def reduce_scatter_tensor(self, reduceOp: str, scatter_dim: int, group, tag: str = ""):
    return _one_rank(self, group)


def broadcast(self, src: int, group, tag: str = ""):
    return _one_rank(self, group)


def all_to_all_single(self, output_split_sizes, input_split_sizes, group, tag: str = ""):
    return _one_rank(self, group)


def wait_tensor(tensor):
    return tensor
