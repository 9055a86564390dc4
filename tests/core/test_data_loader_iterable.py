"""DataLoader as PyTorch's: over an IterableDataset, without batching, its samplers, and its refusals."""

import numpy as np
import pytest

import core


def _stream(lib, n=7):
    class Count(lib.utils.data.IterableDataset):
        def __iter__(self):
            return iter(lib.arange(n, dtype=lib.float32).reshape(n, 1).unbind(0))

        def __len__(self):
            return n

    return Count()


def _listed(batches):
    return [b.tolist() if hasattr(b, "tolist") else b for b in batches]


@pytest.mark.parametrize("drop_last", [False, True])
def test_loader_over_an_iterable_dataset_batches_its_stream_like_torch(torch, drop_last):
    ours = core.utils.data.DataLoader(_stream(core), batch_size=3, drop_last=drop_last)
    theirs = torch.utils.data.DataLoader(_stream(torch), batch_size=3, drop_last=drop_last)
    assert _listed(ours) == _listed(theirs)
    assert len(ours) == len(theirs)


def test_loader_without_batching_yields_converted_samples_like_torch(torch):
    samples = [np.float32(1.5), np.arange(3), (1, 2), {"a": np.ones(2)}]
    ours = list(core.utils.data.DataLoader(samples, batch_size=None))
    theirs = list(torch.utils.data.DataLoader(samples, batch_size=None))
    assert repr(ours).replace("core.", "") == repr(theirs)
    assert _listed(core.utils.data.DataLoader(_stream(core), batch_size=None)) == \
        _listed(torch.utils.data.DataLoader(_stream(torch), batch_size=None))


def test_a_user_generator_gives_torch_orders_epoch_after_epoch(torch):
    orders = []
    for lib in (core, torch):
        loader = lib.utils.data.DataLoader(lib.utils.data.TensorDataset(lib.arange(10)), batch_size=4, shuffle=True,
                                           generator=lib.Generator().manual_seed(0))
        orders.append([[b[0].tolist() for b in loader] for _ in range(3)])
    assert orders[0] == orders[1]


def test_loader_builds_torch_default_samplers(torch):
    ds = list(range(5))
    loader = core.utils.data.DataLoader(ds, batch_size=2, shuffle=True)
    assert type(loader.sampler).__name__ == "RandomSampler" and loader.batch_sampler.batch_size == 2
    assert type(core.utils.data.DataLoader(ds).sampler).__name__ == "SequentialSampler"
    assert type(core.utils.data.DataLoader(_stream(core)).sampler).__name__ == \
        type(torch.utils.data.DataLoader(_stream(torch)).sampler).__name__ == "_InfiniteConstantSampler"


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"shuffle": True}, "expected unspecified shuffle option, but got shuffle=True"),
    ({"sampler": [0, 1]}, "expected unspecified sampler option"),
    ({"batch_sampler": [[0, 1]]}, "expected unspecified batch_sampler option"),
])
def test_loader_over_an_iterable_dataset_refuses_orderings_like_torch(torch, kwargs, match):
    with pytest.raises(ValueError, match=match):
        torch.utils.data.DataLoader(_stream(torch), **kwargs)
    with pytest.raises(ValueError, match=match):
        core.utils.data.DataLoader(_stream(core), **kwargs)


def test_shuffling_an_empty_dataset_raises_at_construction_like_torch(torch):
    message = "num_samples should be a positive integer value, but got num_samples=0"
    with pytest.raises(ValueError, match=message):
        torch.utils.data.DataLoader([], shuffle=True)
    with pytest.raises(ValueError, match=message):
        core.utils.data.DataLoader([], shuffle=True)


def test_batch_size_none_with_drop_last_is_refused_like_torch(torch):
    for lib in (torch, core):
        with pytest.raises(ValueError, match="mutually exclusive with drop_last"):
            lib.utils.data.DataLoader([1, 2], batch_size=None, drop_last=True)
