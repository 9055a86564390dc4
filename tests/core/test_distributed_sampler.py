"""DistributedSampler gives each replica torch's share of the indices: the seeded shuffle, set_epoch, padding,
drop_last, and its errors."""

from __future__ import annotations

import importlib

import pytest

import core


def _sampler(lib):
    return importlib.import_module(lib.__name__ + ".utils.data.distributed").DistributedSampler


@pytest.mark.parametrize("n, replicas, shuffle, drop_last", [(10, 3, True, False), (10, 3, False, False),
                                                            (10, 3, False, True), (10, 3, True, True),
                                                            (2, 5, False, False), (7, 2, True, False)])
def test_each_replica_gets_torchs_indices_in_every_epoch(n, replicas, shuffle, drop_last, torch):
    for rank in range(replicas):
        orders = []
        for lib in (core, torch):
            sampler = _sampler(lib)(list(range(n)), num_replicas=replicas, rank=rank, shuffle=shuffle, seed=5,
                                    drop_last=drop_last)
            epochs = []
            for epoch in range(3):
                sampler.set_epoch(epoch)
                epochs.append(list(sampler))
            orders.append((epochs, len(sampler), sampler.num_samples, sampler.total_size))
        assert orders[0] == orders[1]


def test_without_replicas_it_needs_the_default_group_as_torch(torch):
    for lib in (torch, core):
        with pytest.raises(ValueError, match="Default process group has not been initialized"):
            _sampler(lib)(list(range(4)))


def test_a_rank_outside_the_replicas_raises_torchs_value_error(torch):
    for lib in (torch, core):
        with pytest.raises(ValueError, match=r"Invalid rank 3, rank should be in the interval \[0, 2\]"):
            _sampler(lib)(list(range(4)), num_replicas=3, rank=3)


def test_a_data_loader_over_a_distributed_sampler_batches_torchs_indices(torch):
    batches = []
    for lib in (core, torch):
        data = lib.arange(10.0)
        sampler = lib.utils.data.DistributedSampler(data, num_replicas=2, rank=1, seed=3)
        batches.append([b.tolist() for b in lib.utils.data.DataLoader(data, batch_size=2, sampler=sampler)])
    assert batches[0] == batches[1]
