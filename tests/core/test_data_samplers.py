"""Samplers and the extra datasets of core.utils.data against torch.utils.data: orders, lengths, errors."""

import pytest

import core
from core.utils import data


def _both(torch, build):
    """``build(lib, data_module)`` in core and torch after the same seed."""
    core.manual_seed(5)
    torch.manual_seed(5)
    return build(core, data), build(torch, torch.utils.data)


@pytest.mark.parametrize("kwargs", [{}, {"replacement": True}, {"replacement": True, "num_samples": 70},
                                    {"num_samples": 23}])
def test_random_sampler_draws_torchs_order_without_and_with_a_generator(torch, kwargs):
    ours, theirs = _both(torch, lambda lib, d: [list(d.RandomSampler(range(10), **kwargs)) for _ in range(2)])
    assert ours == theirs
    ours, theirs = _both(torch, lambda lib, d: list(d.RandomSampler(range(10), generator=lib.Generator().manual_seed(
        3), **kwargs)))
    assert ours == theirs
    assert len(data.RandomSampler(range(10), **kwargs)) == len(torch.utils.data.RandomSampler(range(10), **kwargs))


def test_random_sampler_leaves_the_default_generator_where_torch_leaves_it(torch):
    ours, theirs = _both(torch, lambda lib, d: (list(d.RandomSampler(range(6))), lib.rand(3).tolist()))
    assert ours == theirs


def test_subset_and_weighted_samplers_draw_torchs_indices(torch):
    ours, theirs = _both(torch, lambda lib, d: list(d.SubsetRandomSampler([10, 20, 30, 40, 50])))
    assert ours == theirs
    weights = [0.1, 0.5, 2.0, 1.0, 0.0]
    for replacement in (True, False):
        ours, theirs = _both(torch, lambda lib, d, r=replacement: list(d.WeightedRandomSampler(weights, 4, r)))
        assert ours == theirs


def test_batch_sampler_groups_and_counts_as_torch(torch):
    for drop_last in (False, True):
        ours = data.BatchSampler(data.SequentialSampler(range(10)), 3, drop_last)
        theirs = torch.utils.data.BatchSampler(torch.utils.data.SequentialSampler(range(10)), 3, drop_last)
        assert list(ours) == list(theirs) and len(ours) == len(theirs)


def test_a_data_loader_takes_a_sampler_or_a_batch_sampler(torch):
    x = core.arange(10.0)
    ds = data.TensorDataset(x)
    by_sampler = [b[0].tolist() for b in data.DataLoader(ds, batch_size=4, sampler=data.SubsetRandomSampler(
        [1, 3, 5], generator=core.Generator().manual_seed(0)))]
    assert sorted(by_sampler[0]) == [1.0, 3.0, 5.0]
    batches = data.BatchSampler(data.SequentialSampler(ds), 4, drop_last=True)
    assert [b[0].tolist() for b in data.DataLoader(ds, batch_sampler=batches)] == [[0, 1, 2, 3], [4, 5, 6, 7]]


@pytest.mark.parametrize("make, error", [
    (lambda d: d.RandomSampler(range(3), replacement=1), TypeError),
    (lambda d: d.RandomSampler(range(3), num_samples=0), ValueError),
    (lambda d: d.WeightedRandomSampler([[1.0, 2.0]], 2), ValueError),
    (lambda d: d.WeightedRandomSampler([1.0, 2.0], -1), ValueError),
    (lambda d: d.BatchSampler(range(3), 0, False), ValueError),
    (lambda d: d.BatchSampler(range(3), 2, None), ValueError),
])
def test_bad_sampler_arguments_raise_torchs_errors(torch, make, error):
    for module in (torch.utils.data, data):
        with pytest.raises(error):
            make(module)


def test_iterable_datasets_chain_and_stack_datasets_pair_up(torch):
    class Count(data.IterableDataset):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

        def __len__(self):
            return self.n

    chained = Count(2) + Count(3)
    assert isinstance(chained, data.ChainDataset) and list(chained) == [0, 1, 0, 1, 2] and len(chained) == 5
    stacked = data.StackDataset(a=[1, 2], b=["x", "y"])
    assert stacked[1] == {"a": 2, "b": "y"} and len(stacked) == 2
    assert data.StackDataset([1, 2], [3, 4])[0] == (1, 3)
    for module in (torch.utils.data, data):
        with pytest.raises(ValueError, match="Size mismatch"):
            module.StackDataset([1], [2, 3])
        with pytest.raises(ValueError, match="At least one dataset"):
            module.StackDataset()
